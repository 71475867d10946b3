// src/core/objects-store.ts: the part of the Store port that persists objects and their search entries
import type { Micros } from './time.ts'

/**
 * One stored object. `fields` is JSON text mapping each plain (not encrypted) property to its
 * value; `sealed` is JSON text mapping each encrypted property to the base64 of its sealed value
 * (core/objects/sealing.ts); `digests` is JSON text mapping each indexed property to the base64
 * of its blind-index digest (kept so entries can be removed without decrypting).
 */
export type ObjectRecord = Readonly<{
  collection: string
  id: string
  tenantId: string | undefined
  ownerId: string | undefined
  ownerCollection: string | undefined
  createdAt: Micros
  modifiedAt: Micros
  expiresAt: Micros | undefined
  version: number
  fields: string
  sealed: string
  digests: string
}>

export type ObjectState = 'active' | 'archived' | 'all'

export type ObjectFilter = Readonly<{
  collection: string
  state: ObjectState
  now: Micros
  /** Only objects of these tenants (X-Tenant-Id); undefined: no tenant filter. */
  tenantIds?: readonly string[]
}>

/** Keyset position in creation order (ties by id). */
export type PagePosition = Readonly<{ createdAt: Micros; id: string }>

/** A blind-index or uniqueness entry: a keyed digest of a property's normalized value. */
export type IndexEntry = Readonly<{
  collection: string
  property: string
  digest: Uint8Array
  objectId: string
}>

/** Conditions a search combines with AND. */
export type SearchCondition =
  | Readonly<{ kind: 'ids'; ids: readonly string[] }>
  | Readonly<{ kind: 'digests'; property: string; digests: readonly Uint8Array[] }>
  | Readonly<{ kind: 'grams'; property: string; grams: readonly Uint8Array[] }>
  /** Equality on a plain (not encrypted) value; `values` are JSON texts, 'null' matches absent. */
  | Readonly<{ kind: 'plain'; property: string; values: readonly string[] }>

export type ObjectsRepo = {
  /** Inserts the rows whose id is free in their collection; returns the ids that were taken. */
  insert(rows: readonly ObjectRecord[]): Promise<ReadonlySet<string>>
  /** The rows with these ids, in any state. */
  get(collection: string, ids: readonly string[]): Promise<ObjectRecord[]>
  /** One page in creation order after `after`, matching the filter and every condition. */
  search(
    filter: ObjectFilter,
    conditions: readonly SearchCondition[],
    after: PagePosition | undefined,
    limit: number,
  ): Promise<ObjectRecord[]>
  /** How many rows follow `after` (capped at `cap`). */
  countAfter(
    filter: ObjectFilter,
    conditions: readonly SearchCondition[],
    after: PagePosition | undefined,
    cap: number,
  ): Promise<number>
  count(collection: string, now: Micros): Promise<{ active: number; archived: number }>
  /** Replaces a row if its version is still `expectedVersion`; false when another write won. */
  replace(row: ObjectRecord, expectedVersion: number): Promise<boolean>
  delete(collection: string, ids: readonly string[]): Promise<number>
  /** Objects owned by one PERSONS object. */
  ownedBy(ownerCollection: string, ownerId: string): Promise<ObjectRecord[]>
  /** Archived rows whose expiry is before `before`, oldest first (garbage collection). */
  expired(before: Micros, limit: number): Promise<ObjectRecord[]>
  hasAny(collection: string): Promise<boolean>
  deleteCollection(collection: string): Promise<void>
}

export type SearchIndexRepo = {
  insertIndex(entries: readonly IndexEntry[]): Promise<void>
  deleteIndex(entries: readonly IndexEntry[]): Promise<void>
  /**
   * Claims uniqueness entries for their objects. Returns the entries already held by another
   * object, each with the holder's id (the caller decides whether the holder is still active).
   */
  claimUnique(entries: readonly IndexEntry[]): Promise<IndexEntry[]>
  /** Releases entries, only where the named object holds them. */
  releaseUnique(entries: readonly IndexEntry[]): Promise<void>
  deleteProperty(collection: string, property: string): Promise<void>
  deleteCollection(collection: string): Promise<void>
}

export type SubstringRepo = {
  enqueue(collection: string, objectIds: readonly string[], now: Micros): Promise<void>
  pending(
    collection: string | undefined,
    limit: number,
  ): Promise<{ collection: string; objectId: string }[]>
  countPending(collection: string): Promise<number>
  /** Replaces an object's n-grams and takes it off the queue. */
  replaceGrams(
    collection: string,
    objectId: string,
    grams: readonly { property: string; gram: Uint8Array }[],
  ): Promise<void>
  deleteObjects(collection: string, objectIds: readonly string[]): Promise<void>
  deleteProperty(collection: string, property: string): Promise<void>
  deleteCollection(collection: string): Promise<void>
}
