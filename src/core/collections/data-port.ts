// src/core/collections/data-port.ts: what schema changes need from object data (the objects capability implements it)
import type { Repos } from '../store.ts'
import type { PropertyFlags, StoredCollection, StoredProperty } from './collection.ts'

/** Index-related attributes before and after a change of `is_index`, `is_unique` or `is_substring_index`. */
export type IndexChange = Readonly<{ before: PropertyFlags; after: PropertyFlags }>

/** Whether a change touches what the index entries of existing objects depend on. */
export function isIndexChange({ before, after }: IndexChange): boolean {
  return (
    before.isIndex !== after.isIndex ||
    before.isUnique !== after.isUnique ||
    before.isSubstringIndex !== after.isSubstringIndex
  )
}

/**
 * The object data behind a collection, as the schema operations need it. Every call runs inside
 * the schema change's transaction (`tx`), so the data follows the schema or neither changes.
 */
export type CollectionDataPort = {
  /** Whether the collection holds any object, active or archived (new properties must be nullable). */
  hasObjects(tx: Repos, collection: StoredCollection): Promise<boolean>
  /**
   * Builds or drops the blind-index entries of existing objects for the new attributes; called
   * only when `isIndexChange`. Turning `is_unique` off never fails; nothing here turns it on.
   */
  onIndexChanged(
    tx: Repos,
    collection: StoredCollection,
    property: StoredProperty,
    change: IndexChange,
  ): Promise<void>
  /** Hard-deletes the collection's objects, tokens and transaction IDs. */
  deleteCollectionData(tx: Repos, collection: StoredCollection): Promise<void>
  /** Removes every stored value of the property. */
  deletePropertyData(
    tx: Repos,
    collection: StoredCollection,
    property: StoredProperty,
  ): Promise<void>
}
