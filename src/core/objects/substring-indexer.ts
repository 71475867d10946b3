// src/core/objects/substring-indexer.ts: the deferred substring index: queued objects → keyed n-grams, in batches

import type { StoredCollection } from '../collections/collection.ts'
import type { Envelope } from '../crypto/envelope.ts'
import { ownValue } from '../own.ts'
import type { Store } from '../store.ts'
import { type Indexing, isSubstringIndexed } from './indexing.ts'
import { openRecords } from './records.ts'
import type { ObjectGrams, ObjectRecord } from './store.ts'

export type SubstringIndexerDeps = Readonly<{
  store: Store
  envelope: Envelope
  indexing: Indexing
  collectionOf: (name: string) => StoredCollection | undefined
  /** A failed table maintenance (`Store.maintainSearchTables`) is reported here, never thrown. */
  onMaintenanceError: (error: unknown) => void
}>

const BATCH = 500
/** Ids per read of the queued objects' rows. */
const READ_CHUNK = 500
/** Objects this node indexes before the search tables are maintained, once the queue is empty. */
const MAINTAIN_AFTER = 10_000

/**
 * Writes enqueue objects whose substring-indexed values changed; this indexer decrypts them,
 * takes their trigrams and stores only keyed digests (SVC_SERVICE_SUBSTRING_INDEX_REFRESH_INTERVAL
 * in the background, and inline before a `like` search of the collection).
 */
export function createSubstringIndexer(deps: SubstringIndexerDeps) {
  const { store, indexing } = deps
  let indexedSinceMaintenance = 0
  let maintaining: Promise<void> | undefined

  /**
   * After a large build (or many small ones) has emptied the queue, the engine's statistics and
   * visibility information are brought up to date, in the background: searches read the same
   * rows either way, but on PostgreSQL they no longer walk the drained queue's dead rows or
   * read a table page per n-gram and key they probe. One at a time per node.
   */
  function maintainIfDue(): Promise<void> | undefined {
    if (maintaining !== undefined || indexedSinceMaintenance < MAINTAIN_AFTER) return maintaining
    indexedSinceMaintenance = 0
    maintaining = store
      .maintainSearchTables()
      .catch(deps.onMaintenanceError)
      .finally(() => {
        maintaining = undefined
      })
    return maintaining
  }

  /** The n-grams of queued objects of one collection; objects gone or without values get none. */
  async function gramsOf(name: string, ids: readonly string[]): Promise<ObjectGrams[]> {
    const collection = deps.collectionOf(name)
    const properties = collection?.properties.filter(isSubstringIndexed).map((p) => p.name) ?? []
    const rows: ObjectRecord[] = []
    for (let i = 0; properties.length > 0 && i < ids.length; i += READ_CHUNK)
      for (const row of await store.objects.get(name, ids.slice(i, i + READ_CHUNK))) rows.push(row)
    const opened = openRecords(deps.envelope, rows, properties)
    const grams = new Map(
      rows.map((row, i) => [
        row.id,
        properties.flatMap((property) => {
          const value = ownValue(opened[i] ?? {}, property)
          if (typeof value !== 'string') return []
          return indexing.gramDigests(name, property, value).map((gram) => ({ property, gram }))
        }),
      ]),
    )
    return ids.map((objectId) => ({ objectId, grams: grams.get(objectId) ?? [] }))
  }

  /**
   * Indexes queued writes (of one collection, or any) holding up to `limit` objects, or one
   * write if it holds more; returns how many objects.
   */
  async function indexBatch(collection: string | undefined, limit = BATCH): Promise<number> {
    const pending = await store.substring.pending(collection, limit)
    const byCollection = Map.groupBy(pending, (entry) => entry.collection)
    for (const [name, entries] of byCollection) {
      const objects = await gramsOf(name, [...new Set(entries.flatMap((e) => e.objectIds))])
      const done = entries.map((e) => e.key)
      await store.transaction((tx) => tx.substring.replaceGrams(name, objects, done))
    }
    const count = pending.reduce((sum, entry) => sum + entry.objectIds.length, 0)
    indexedSinceMaintenance += count
    return count
  }

  return {
    indexBatch,
    /**
     * Indexes a collection's queue before a `like` search, up to `maxObjects`; true when nothing
     * is left, so the search sees every write made before it.
     */
    async drain(collection: string, maxObjects: number): Promise<boolean> {
      for (let done = 0; done < maxObjects; ) {
        const count = await indexBatch(collection, Math.min(BATCH, maxObjects - done))
        if (count === 0) {
          // Not awaited: the search goes on while the tables are maintained.
          void maintainIfDue()
          return true
        }
        done += count
      }
      return (await store.substring.countPending(collection)) === 0
    },
    /** One background round: every queued object, batch after batch, until stopped. */
    async run(signal?: AbortSignal): Promise<void> {
      while (!signal?.aborted && (await indexBatch(undefined)) > 0) {}
      if (!signal?.aborted) await maintainIfDue()
    },
  }
}

export type SubstringIndexer = ReturnType<typeof createSubstringIndexer>
