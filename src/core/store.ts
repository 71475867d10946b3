// src/core/store.ts: Store, the persistence port core needs; implemented in src/storage

import type { ActionsRepo } from './actions/store.ts'
import type { BundlesRepo } from './bundles/store.ts'
import type { StoredCollection, StoredProperty } from './collections/collection.ts'
import type { ObjectsRepo, SearchIndexRepo, SubstringRepo } from './objects-store.ts'
import type { Micros } from './time.ts'
import type { TokensRepo } from './tokens-store.ts'

export type StoreKind = 'sqlite' | 'postgres'

export type TransactionOptions = {
  /** Aborted when the call times out: the transaction is rolled back instead of committed. */
  readonly signal?: AbortSignal
}

export type Generation = { readonly generation: number; readonly modifiedAt: Micros }

/** Cluster-wide metadata: the control-data generation counter and small key/value settings. */
export type MetaRepo = {
  getGeneration(): Promise<Generation>
  /** Increments the generation so other nodes refresh their control-data caches. */
  bumpGeneration(now: Micros): Promise<number>
  get(key: string): Promise<string | undefined>
  set(key: string, value: string, now: Micros): Promise<void>
  delete(key: string): Promise<void>
}

export type AuditRow = {
  readonly eventId: string
  readonly time: Micros
  readonly requestId: string
  readonly username: string
  readonly operation: string
  readonly collection: string | undefined
  readonly outcome: 'success' | 'failure'
  readonly status: number
  /** The whole event as JSON; never holds property values, keys or token data. */
  readonly record: string
}

export type AuditRepo = {
  /** Appends the rows in order, in one statement. */
  insert(rows: readonly AuditRow[]): Promise<void>
  list(options: { readonly since?: Micros; readonly limit: number }): Promise<AuditRow[]>
}

export type StoredApiKey = {
  readonly username: string
  readonly keyHash: Uint8Array
  readonly expiresAt: Micros | undefined
  readonly createdAt: Micros
}

export type IamRepo = {
  getConfig(): Promise<{ readonly toml: string; readonly version: number } | undefined>
  /** Replaces the IAM configuration; returns the new version. */
  setConfig(toml: string, now: Micros): Promise<number>
  findApiKeyByHash(keyHash: Uint8Array): Promise<StoredApiKey | undefined>
  /**
   * What authenticating an API key needs, in one round trip: the user key with this hash, if any,
   * and the vault_meta value under `metaKey` (the Admin key's hash when one was set at run time).
   * Nothing is cached: a regenerated or replaced key stops working at once, on every node.
   */
  findCredential(
    keyHash: Uint8Array,
    metaKey: string,
  ): Promise<{ key: StoredApiKey | undefined; meta: string | undefined }>
  getApiKey(username: string): Promise<StoredApiKey | undefined>
  /** Sets (replaces) a user's key: the previous key stops working at once. */
  setApiKey(key: StoredApiKey): Promise<void>
  updateApiKeyExpiry(username: string, expiresAt: Micros | undefined): Promise<boolean>
  /** Removes the keys of users not in the list (they left the IAM configuration). */
  deleteApiKeysExcept(usernames: readonly string[]): Promise<number>
}

export type ConfvarsRepo = {
  list(): Promise<ReadonlyMap<string, string>>
  set(name: string, value: string, now: Micros): Promise<void>
  clear(): Promise<void>
}

export type WorkerRow = {
  readonly workerId: string
  readonly generationNumber: number
  readonly generationCheckedAt: Micros
  readonly refreshIntervalSeconds: number
  readonly priority: number
  readonly component: string
  readonly heartbeatAt: Micros
}

export type WorkersRepo = {
  upsert(worker: WorkerRow): Promise<void>
  list(): Promise<WorkerRow[]>
  remove(workerId: string): Promise<void>
  removeStale(heartbeatBefore: Micros): Promise<number>
}

export type DataKeyRow = {
  readonly purpose: string
  readonly version: number
  readonly wrapped: Uint8Array
  readonly createdAt: Micros
}

export type KeysRepo = {
  list(purpose?: string): Promise<DataKeyRow[]>
  /** Inserts a key version; false when that version already exists (another node won). */
  insert(row: DataKeyRow): Promise<boolean>
}

export type LeasesRepo = {
  /** Takes or renews a named lease; true when `holder` holds it until `expiresAt`. */
  acquire(name: string, holder: string, expiresAt: Micros, now: Micros): Promise<boolean>
  release(name: string, holder: string): Promise<void>
  getState(name: string): Promise<string | undefined>
  setState(name: string, holder: string, state: string): Promise<boolean>
}

/**
 * Collections and their user properties. Names are unique case-insensitively; an insert that
 * clashes reports `undefined`/`false` and core decides the error. Lookups by name are exact.
 */
export type CollectionsRepo = {
  /** Every collection with its properties, in no particular order. */
  list(): Promise<StoredCollection[]>
  get(name: string): Promise<StoredCollection | undefined>
  /** Inserts a collection and its properties; undefined when the name (in any case) is taken. */
  insert(collection: StoredCollection): Promise<StoredCollection | undefined>
  delete(id: string): Promise<boolean>
  /** Appends a property; false when the collection already has that name (in any case). */
  insertProperty(collectionId: string, property: StoredProperty): Promise<boolean>
  /** Replaces a property's attributes and modification time, found by its id. */
  updateProperty(property: StoredProperty): Promise<boolean>
  deleteProperty(propertyId: string): Promise<boolean>
  /**
   * Sets the collection's modification time (any schema change); false when it no longer exists.
   * Inside a transaction this also locks the row (PostgreSQL), so a concurrent delete waits.
   */
  touch(collectionId: string, now: Micros): Promise<boolean>
}

export type Repos = {
  readonly meta: MetaRepo
  readonly audit: AuditRepo
  readonly iam: IamRepo
  readonly confvars: ConfvarsRepo
  readonly workers: WorkersRepo
  readonly keys: KeysRepo
  readonly leases: LeasesRepo
  readonly objects: ObjectsRepo
  readonly searchIndex: SearchIndexRepo
  readonly substring: SubstringRepo
  readonly collections: CollectionsRepo
  readonly tokens: TokensRepo
  readonly bundles: BundlesRepo
  readonly actions: ActionsRepo
}

export type Store = Repos & {
  readonly kind: StoreKind
  readonly isMemory: boolean
  /**
   * Runs `work` in one database transaction: everything it writes lands, or nothing does.
   * Inside a transaction, `transaction` runs `work` in the same transaction.
   */
  transaction<T>(work: (tx: Repos) => Promise<T>, options?: TransactionOptions): Promise<T>
  schemaVersion(): Promise<number>
  /**
   * After many objects were (re)indexed for substring search: lets the engine catch up on what
   * its query plans and index-only scans rely on (PostgreSQL: VACUUM (ANALYZE) of the substring
   * queue, the n-grams and the objects, skipping any another session is vacuuming; SQLite:
   * nothing). Outside any transaction; nothing it does changes what a query returns.
   */
  maintainSearchTables(): Promise<void>
  /** Cheap round trip used by health checks. */
  ping(): Promise<void>
  close(): Promise<void>
}
