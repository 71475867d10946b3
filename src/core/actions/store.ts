// src/core/actions/store.ts: the storage port of custom actions (implemented in src/storage/repos/actions.ts)
import type { Micros } from '../time.ts'

/** A custom action: the bundle function it runs and the IAM role its data access is checked with. */
export type StoredAction = Readonly<{
  name: string
  description: string
  bundle: string
  function: string
  role: string
  createdAt: Micros
  modifiedAt: Micros
}>

/** Names are unique case-insensitively; a clash is reported as `false`, never thrown. */
export type ActionsRepo = {
  list(): Promise<StoredAction[]>
  get(name: string): Promise<StoredAction | undefined>
  insert(action: StoredAction): Promise<boolean>
  delete(name: string): Promise<boolean>
  /** Names of the actions that run a function of `bundle`. */
  listByBundle(bundle: string): Promise<string[]>
}
