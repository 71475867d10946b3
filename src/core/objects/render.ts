// src/core/objects/render.ts: turns stored rows into the maps a read answers, opening only what is asked for

import type { StoredCollection } from '../collections/collection.ts'
import type { RequestContext } from '../context.ts'
import type { Envelope } from '../crypto/envelope.ts'
import { VaultError } from '../errors.ts'
import { ownValue } from '../own.ts'
import { formatNano } from '../time.ts'
import type { TokenLookup } from './deps.ts'
import type { ReadItem, ReadPlan } from './read.ts'
import { recordValues } from './records.ts'
import type { ObjectRecord } from './store.ts'

export type RenderDeps = Readonly<{ envelope: Envelope; tokens: TokenLookup }>

type Fields = Record<string, unknown>

/** Built-in values come from the row's columns; times in RFC 3339 with nanoseconds. */
function builtinValue(record: ObjectRecord, name: string): unknown {
  switch (name) {
    case 'id':
      return record.id
    case '_owner_id':
      return record.ownerId ?? null
    case '_owner_collection':
      return record.ownerCollection ?? null
    case '_tenant_id':
      return record.tenantId ?? null
    case '_creation_time':
      return formatNano(record.createdAt)
    case '_modification_time':
      return formatNano(record.modifiedAt)
    case '_expiration_time':
      return record.expiresAt === undefined ? null : formatNano(record.expiresAt)
  }
  return null
}

async function transform(
  ctx: RequestContext,
  deps: RenderDeps,
  item: ReadItem,
  input: { value: unknown; record: ObjectRecord },
): Promise<unknown> {
  const transformer = item.transformer?.resolved
  if (transformer === undefined) return input.value
  if (transformer.kind === 'value')
    return transformer.apply(input.value, { now: ctx.now, param: ctx.transParam })
  if (transformer.kind === 'token') {
    const { record } = input
    return deps.tokens.pciTokenFor(ctx, record.collection, record.id, item.property.name)
  }
  throw new VaultError('featureDisabled', {
    message: 'Custom transformers run in bundles, which this service does not offer yet.',
  })
}

/** Opens, in one batch, the encrypted properties the items read from every row. */
function openNeeded(
  deps: RenderDeps,
  collection: StoredCollection,
  records: readonly ObjectRecord[],
  items: readonly ReadItem[],
) {
  const encrypted = new Set(collection.properties.filter((p) => p.isEncrypted).map((p) => p.name))
  const properties = [...new Set(items.map((i) => i.property.name))].filter((n) => encrypted.has(n))
  return recordValues(deps.envelope, records, properties)
}

/** The answer maps, one per row, with exactly the requested keys (absent values are null). */
export async function renderObjects(
  ctx: RequestContext,
  deps: RenderDeps,
  collection: StoredCollection,
  records: readonly ObjectRecord[],
  plan: ReadPlan,
): Promise<Fields[]> {
  const values = openNeeded(deps, collection, records, plan.items)
  return Promise.all(
    records.map(async (record, i) => {
      const out: Fields = {}
      for (const item of plan.items) {
        const { name, isBuiltin } = item.property
        const value = isBuiltin
          ? builtinValue(record, name)
          : (ownValue(values[i] ?? {}, name) ?? null)
        out[item.key] = await transform(ctx, deps, item, { value, record })
      }
      return out
    }),
  )
}
