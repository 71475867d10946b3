// src/core/objects/store.ts: the part of the Store port that persists objects and their search entries
import type { PagePosition } from '../paging/cursor.ts'
import type { Micros } from '../time.ts'

/**
 * One stored object. `fields` is JSON text mapping each plain (not encrypted) property to its
 * value; `sealed` is JSON text mapping each encrypted property to the base64 of its sealed value
 * (core/values/sealing.ts); `digests` is JSON text mapping each indexed property to the base64
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

/** A row as a scan reads it: its position and only the sealed values it checks. */
export type ScannedRow = Readonly<{
  id: string
  createdAt: Micros
  /** Property → base64 of its sealed value, for the scanned properties that hold one. */
  sealed: Readonly<Record<string, string>>
  /** The plain values, as in ObjectRecord. */
  fields: string
}>

export type ObjectState = 'active' | 'archived' | 'all'

export type ObjectFilter = Readonly<{
  collection: string
  state: ObjectState
  now: Micros
  /** Only objects of these tenants (X-Tenant-Id); undefined: no tenant filter. */
  tenantIds?: readonly string[]
}>

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
  /** Equality on a built-in column; `null` matches rows without a value. */
  | Readonly<{ kind: 'column'; column: BuiltinColumn; values: readonly (string | null)[] }>

/** The built-in properties a search may select on, by their column. */
export type BuiltinColumn = 'tenant_id' | 'owner_id' | 'owner_collection'

/**
 * Thrown by the `…New` inserts when a key is already taken. They write with plain INSERTs, the
 * engines' cheapest (no conflict clause, nothing returned), for rows that are new in the usual
 * case; the caller then rolls back and writes again with the checking inserts, which tell which
 * rows clash.
 */
export class KeyTaken extends Error {
  override readonly name = 'KeyTaken'
}

export type ObjectsRepo = {
  /** Inserts the rows whose id is free in their collection; returns the ids that were taken. */
  insert(rows: readonly ObjectRecord[]): Promise<ReadonlySet<string>>
  /** Inserts rows expected to be new; throws KeyTaken if an id is taken. */
  insertNew(rows: readonly ObjectRecord[]): Promise<void>
  /** The rows with these ids, in any state. */
  get(collection: string, ids: readonly string[]): Promise<ObjectRecord[]>
  /** One page in creation order after `after`, matching the filter and every condition. */
  search(
    filter: ObjectFilter,
    conditions: readonly SearchCondition[],
    after: PagePosition | undefined,
    limit: number,
  ): Promise<ObjectRecord[]>
  /** As `search`, but only the positions (creation time and id) of the matching rows. */
  searchKeys(
    filter: ObjectFilter,
    conditions: readonly SearchCondition[],
    after: PagePosition | undefined,
    limit: number,
  ): Promise<PagePosition[]>
  /**
   * As `search`, for a scan: each row's position and the sealed values of `properties` only, so
   * a batch holds no more than the scan decrypts.
   */
  scan(
    filter: ObjectFilter,
    conditions: readonly SearchCondition[],
    after: PagePosition | undefined,
    limit: number,
    properties: readonly string[],
  ): Promise<ScannedRow[]>
  /** How many rows follow `after` (capped at `cap`). */
  countAfter(
    filter: ObjectFilter,
    conditions: readonly SearchCondition[],
    after: PagePosition | undefined,
    cap: number,
  ): Promise<number>
  /** Active and archived rows of a collection, of some tenants only when `tenantIds` is given. */
  count(
    collection: string,
    now: Micros,
    tenantIds?: readonly string[],
  ): Promise<{ active: number; archived: number }>
  /** Replaces a row if its version is still `expectedVersion`; false when another write won. */
  replace(row: ObjectRecord, expectedVersion: number): Promise<boolean>
  delete(collection: string, ids: readonly string[]): Promise<number>
  /** Objects owned by one PERSONS object. */
  ownedBy(ownerCollection: string, ownerId: string): Promise<ObjectRecord[]>
  /** Archived rows whose expiry is before `before`, oldest first (garbage collection). */
  expired(before: Micros, limit: number): Promise<ObjectRecord[]>
  hasAny(collection: string): Promise<boolean>
  /** Removes a property's values and digests from every row of the collection (property deleted). */
  removeProperty(collection: string, property: string): Promise<void>
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
  /** Inserts index entries and claims expected to be new; throws KeyTaken if one clashes. */
  insertNew(entries: readonly IndexEntry[], claims: readonly IndexEntry[]): Promise<void>
  /** Releases entries, only where the named object holds them. */
  releaseUnique(entries: readonly IndexEntry[]): Promise<void>
  /** Drops a property's uniqueness claims (is_unique turned off), keeping its index entries. */
  deleteClaims(collection: string, property: string): Promise<void>
  deleteProperty(collection: string, property: string): Promise<void>
  deleteCollection(collection: string): Promise<void>
}

/**
 * One queued write: the objects whose substring-indexed values it changed, waiting for their
 * n-grams. A write queues its objects in one entry (a bulk add of 1,000 objects is one row, not
 * 1,000); an object written again is queued again, in another entry.
 */
export type QueuedWrite = Readonly<{
  collection: string
  /** The entry's key, unique within the collection. */
  key: string
  queuedAt: Micros
  objectIds: readonly string[]
}>

/** The n-grams of one object. */
export type ObjectGrams = Readonly<{
  objectId: string
  grams: readonly Readonly<{ property: string; gram: Uint8Array }>[]
}>

export type SubstringRepo = {
  /** Queues the objects of one write for (re)indexing, as one entry. */
  enqueue(collection: string, objectIds: readonly string[], now: Micros): Promise<void>
  /**
   * Queued entries, of one collection or of all, in no particular order: as many as hold
   * `limit` objects, and at least one (an entry is never split).
   */
  pending(collection: string | undefined, limit: number): Promise<QueuedWrite[]>
  /** Objects queued in a collection, or in all (an object queued by two writes counts twice). */
  countPending(collection?: string): Promise<number>
  /**
   * Replaces the n-grams of each object and deletes the queue entries `done` (their keys): the
   * entries the grams were computed for. A write queued meanwhile is another entry, left queued.
   */
  replaceGrams(
    collection: string,
    objects: readonly ObjectGrams[],
    done: readonly string[],
  ): Promise<void>
  /**
   * Drops the objects' n-grams. Queue entries naming them stay until indexed: the indexer finds
   * the objects gone and stores no n-grams for them.
   */
  deleteObjects(collection: string, objectIds: readonly string[]): Promise<void>
  deleteProperty(collection: string, property: string): Promise<void>
  deleteCollection(collection: string): Promise<void>
}
