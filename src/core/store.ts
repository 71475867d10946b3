// src/core/store.ts: Store, the persistence port core needs (each capability's repository port sits in its folder); implemented in src/storage

import type { ActionsRepo } from './actions/store.ts'
import type { AuditRepo } from './audit/store.ts'
import type { BundlesRepo } from './bundles/store.ts'
import type { CollectionsRepo } from './collections/store.ts'
import type { DataTypesRepo } from './data-types/store.ts'
import type { IamRepo } from './iam/store.ts'
import type { ObjectsRepo, SearchIndexRepo, SubstringRepo } from './objects/store.ts'
import type { ConfvarsRepo } from './system/store.ts'
import type { Micros } from './time.ts'
import type { TokensRepo } from './tokens/store.ts'

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
  /**
   * The versions above `after[purpose]` of each purpose, and every version of a purpose `after`
   * does not name: what a keyring that holds those versions has not loaded yet.
   */
  listNewer(after: Readonly<Record<string, number>>): Promise<DataKeyRow[]>
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
  readonly dataTypes: DataTypesRepo
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
  /**
   * Resolves once every commit made so far is durable (SQLite's WAL is synced after a group of
   * commits, off the event loop): a call answers data it read only after this. Never rejects.
   */
  synced(): Promise<void>
  close(): Promise<void>
}
