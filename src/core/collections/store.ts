// src/core/collections/store.ts: the collections capability's storage port: collections and their properties
import type { Micros } from '../time.ts'
import type { StoredCollection, StoredProperty } from './collection.ts'

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
