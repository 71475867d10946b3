// src/core/system/store.ts: the system capability's storage port: configuration variables set at run time
import type { Micros } from '../time.ts'

export type ConfvarsRepo = {
  list(): Promise<ReadonlyMap<string, string>>
  set(name: string, value: string, now: Micros): Promise<void>
  clear(): Promise<void>
}
