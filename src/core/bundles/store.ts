// src/core/bundles/store.ts: the storage port of bundles (implemented in src/storage/repos/bundles.ts)
import type { Micros } from '../time.ts'
import type { FunctionPrototype } from './exports.ts'

/** A bundle as stored: the decoded source and the exports found when it was loaded. */
export type StoredBundle = Readonly<{
  name: string
  description: string
  source: string
  exports: readonly FunctionPrototype[]
  createdAt: Micros
  modifiedAt: Micros
}>

/** Names are unique case-insensitively; clashes and lost races are reported, never thrown. */
export type BundlesRepo = {
  list(): Promise<StoredBundle[]>
  get(name: string): Promise<StoredBundle | undefined>
  /** False when the name (in any case) is taken. */
  insert(bundle: StoredBundle): Promise<boolean>
  /** Replaces the bundle if it still has modification time `expected`; false otherwise. */
  update(bundle: StoredBundle, expected: Micros): Promise<boolean>
  delete(name: string): Promise<boolean>
  /**
   * Inside a transaction: whether the bundle exists, holding it until the end (PostgreSQL row
   * lock), so a concurrent delete waits and then sees what was added to reference it.
   */
  hold(name: string): Promise<boolean>
}
