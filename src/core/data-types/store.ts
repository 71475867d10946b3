// src/core/data-types/store.ts: the storage port of custom data types (implemented in src/storage/repos/data-types.ts)
import type { Micros } from '../time.ts'
import type { CustomType } from './registry.ts'

/** A custom data type as stored; functions are `"<bundle>.<function>"` references. */
export type StoredDataType = CustomType & Readonly<{ modifiedAt: Micros }>

/** Names are unique case-insensitively; clashes and lost races are reported, never thrown. */
export type DataTypesRepo = {
  list(): Promise<StoredDataType[]>
  get(name: string): Promise<StoredDataType | undefined>
  /** False when the name (in any case) is taken. */
  insert(type: StoredDataType): Promise<boolean>
  /** Replaces the type if it still has modification time `expected`; false otherwise. */
  update(type: StoredDataType, expected: Micros): Promise<boolean>
  delete(name: string): Promise<boolean>
}
