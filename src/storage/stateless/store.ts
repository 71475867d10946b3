// src/storage/stateless/store.ts: the store of a stateless node: control data from files in memory, read-only once sealed
import { VaultError } from '../../core/errors.ts'
import type { Repos, Store } from '../../core/store.ts'
import { openDatabase } from '../database.ts'
import type { QueryObserver } from '../dialects/dialect.ts'
import { migrate } from '../migrate.ts'
import { createSqlStore } from '../sql-store.ts'

/**
 * What a sealed stateless store still answers, per repository (every other method refuses with
 * 501 ERR2001). Reads of control data; node-local state (dynamic config variables, this node's
 * cache generation and heartbeat). Objects, tokens, audit rows, leases and cluster listings
 * need a database shared by the nodes, so they have none of their methods here.
 */
const AVAILABLE: Readonly<Record<keyof Repos, readonly string[]>> = {
  meta: ['getGeneration', 'bumpGeneration', 'get'],
  audit: [],
  iam: ['getConfig', 'findApiKeyByHash', 'findCredential', 'getApiKey'],
  confvars: ['list', 'set', 'clear'],
  workers: ['upsert', 'remove'],
  keys: ['list', 'listNewer'],
  leases: [],
  objects: [],
  searchIndex: [],
  substring: [],
  collections: ['list', 'get'],
  tokens: [],
  bundles: ['list', 'get'],
  actions: ['list', 'get', 'listByBundle'],
  dataTypes: ['list', 'get'],
}

const WHY: Partial<Record<keyof Repos, string>> = {
  objects: 'Stored objects (and object `id` references)',
  searchIndex: 'Stored objects (and object `id` references)',
  substring: 'Stored objects',
  tokens: 'Tokens',
  audit: 'Audit records in the database',
}

function unavailable(repo: keyof Repos): VaultError {
  const what = WHY[repo] ?? 'This operation'
  return new VaultError('notImplementedStateless', {
    message: `${what} need a database, and this node runs in stateless mode (SVC_BACKING_STORE=none): its collections, types, bundles and IAM come from its configuration files and cannot change. Send the call to a node with a database.`,
  })
}

function guard<T extends object>(repo: keyof Repos, inner: T, isSealed: () => boolean): T {
  const available = new Set(AVAILABLE[repo])
  return new Proxy(inner, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver)
      if (typeof value !== 'function' || typeof name !== 'string') return value
      return (...args: unknown[]) => {
        if (isSealed() && !available.has(name)) return Promise.reject(unavailable(repo))
        return value.apply(target, args)
      }
    },
  })
}

function guardAll(repos: Repos, isSealed: () => boolean): Repos {
  const names = Object.keys(AVAILABLE) as (keyof Repos)[]
  return Object.fromEntries(
    names.map((name) => [name, guard(name, repos[name], isSealed)]),
  ) as unknown as Repos
}

export type StatelessStore = {
  readonly store: Store
  /** Ends the loading phase: from now on the store refuses every write of shared data. */
  seal(): void
}

/**
 * Stateless mode (spec config.md §8): an in-memory SQLite database that the composition root
 * fills from the configuration files at start, then seals. Core sees an ordinary `Store` whose
 * refusals are 501 ERR2001 errors, so it never needs to know which mode it runs in.
 */
export async function openStatelessStore(onQuery?: QueryObserver): Promise<StatelessStore> {
  const database = openDatabase({ kind: 'sqlite', file: ':memory:' }, { onQuery })
  await migrate(database.db, database.dialect)
  const inner = createSqlStore(database)
  let isSealed = false
  const sealed = () => isSealed
  const store: Store = {
    ...guardAll(inner, sealed),
    kind: inner.kind,
    // Not in-memory mode: its refusals (405 ERR1026) are not this mode's (501 ERR2001).
    isMemory: false,
    transaction: (work, options) => inner.transaction((tx) => work(guardAll(tx, sealed)), options),
    schemaVersion: () => inner.schemaVersion(),
    maintainSearchTables: async () => {},
    synced: async () => {},
    ping: () => inner.ping(),
    close: () => inner.close(),
  }
  return {
    store,
    seal() {
      isSealed = true
    },
  }
}
