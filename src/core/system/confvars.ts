// src/core/system/confvars.ts: dynamic configuration variables (log_level, trace_sql), shared through the database

import type { AuditedWrites } from '../audit/audit.ts'
import { NO_DETAILS } from '../audit/details.ts'
import type { RequestContext } from '../context.ts'
import { VaultError } from '../errors.ts'
import { ownValue } from '../own.ts'
import type { Store } from '../store.ts'
import type { Clock } from '../time.ts'

type Definition = { readonly values: readonly string[]; readonly defaultValue: string }

export type ConfvarsDeps = {
  readonly store: Store
  readonly audit: AuditedWrites
  readonly clock: Clock
  readonly defaults: Readonly<{ logLevel: string; traceSql: boolean }>
  /** Applies effective values to this node (log level, SQL tracing). */
  readonly apply: (values: ReadonlyMap<string, string>) => void
}

export function createConfvarsService(deps: ConfvarsDeps) {
  const definitions: Record<string, Definition> = {
    log_level: { values: ['debug', 'info', 'warn', 'error'], defaultValue: deps.defaults.logLevel },
    trace_sql: { values: ['true', 'false'], defaultValue: String(deps.defaults.traceSql) },
  }
  let stored: ReadonlyMap<string, string> = new Map()

  function definitionOf(name: string): Definition {
    const definition = ownValue(definitions, name)
    if (definition === undefined) {
      throw new VaultError('confvarNotFound', {
        message: `The configuration variable is unknown: known variables are ${Object.keys(definitions).join(', ')}.`,
        context: { name },
      })
    }
    return definition
  }

  function effective(): Map<string, string> {
    return new Map(
      Object.entries(definitions).map(([name, d]) => [name, stored.get(name) ?? d.defaultValue]),
    )
  }

  async function load(): Promise<void> {
    stored = await deps.store.confvars.list()
    deps.apply(effective())
  }

  return {
    load,
    get(name: string) {
      const definition = definitionOf(name)
      return {
        name,
        value: stored.get(name) ?? definition.defaultValue,
        default_value: definition.defaultValue,
      }
    },
    async set(ctx: RequestContext, name: string, value: string): Promise<void> {
      const definition = definitionOf(name)
      if (!definition.values.includes(value)) {
        throw new VaultError('invalidRequest', {
          message: `The value of ${name} must be one of ${definition.values.join(', ')}.`,
          context: { name },
        })
      }
      await deps.audit.transaction(ctx, NO_DETAILS, (tx) =>
        tx.confvars.set(name, value, deps.clock()),
      )
      await load()
    },
    async clear(ctx: RequestContext): Promise<void> {
      await deps.audit.transaction(ctx, NO_DETAILS, (tx) => tx.confvars.clear())
      await load()
    },
  }
}

export type ConfvarsService = ReturnType<typeof createConfvarsService>
