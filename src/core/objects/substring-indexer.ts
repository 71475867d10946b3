// src/core/objects/substring-indexer.ts: the deferred substring index: queued objects → keyed n-grams, in slices
import { performance } from 'node:perf_hooks'

import type { StoredCollection } from '../collections/collection.ts'
import type { Envelope } from '../crypto/envelope.ts'
import { ownValue } from '../own.ts'
import type { Store } from '../store.ts'
import { type Indexing, isSubstringIndexed } from './indexing.ts'
import { openRecords } from './records.ts'
import type { ObjectGrams, QueuedWrite } from './store.ts'

export type SubstringIndexerDeps = Readonly<{
  store: Store
  envelope: Envelope
  indexing: Indexing
  collectionOf: (name: string) => StoredCollection | undefined
  /** A failed table maintenance (`Store.maintainSearchTables`) is reported here, never thrown. */
  onMaintenanceError: (error: unknown) => void
}>

/** Queued objects one round reads from the queue at a time. */
const BATCH = 500
/**
 * Objects indexed per transaction. On SQLite every statement runs on the event loop, and the
 * n-gram rows of an object (one per distinct trigram) land on random pages of a large index: a
 * write of 1,000 objects' grams held the loop for 0.5–2.5 s during a bulk load. A slice of this
 * many objects holds it for tens of milliseconds; calls waiting for the loop run between slices.
 */
const SLICE = 50
/** Objects this node indexes before the search tables are maintained, once the queue is empty. */
const MAINTAIN_AFTER = 10_000
/**
 * While the background build pauses after a slice, the event loop's utilization by everything
 * else; above this, calls are keeping the node busy and the round ends (the next round comes one
 * refresh interval later, or a `like` search indexes what it needs).
 */
const BUSY_UTILIZATION = 0.5
/** The shortest pause between two slices of the background build. */
const MIN_PAUSE_MS = 5

/** Between two slices: how long the slice took; false ends the build for now. */
type Pace = (sliceMs: number) => Promise<boolean>

/** A `like` search waits for the index: it only lets waiting calls run between slices. */
const yieldOnly: Pace = () => new Promise((resolve) => setImmediate(() => resolve(true)))

/**
 * The background build gives way to calls: it pauses as long as each slice took (at most half of
 * the event loop's time goes to indexing), and ends the round when calls kept the loop busy
 * during the pause, so a bulk load is not slowed by the build of its own n-grams.
 */
function backgroundPace(signal?: AbortSignal): Pace {
  return async (sliceMs) => {
    if (signal?.aborted) return false
    const before = performance.eventLoopUtilization()
    await new Promise((resolve) => setTimeout(resolve, Math.max(MIN_PAUSE_MS, sliceMs)))
    const { utilization } = performance.eventLoopUtilization(
      performance.eventLoopUtilization(),
      before,
    )
    return !signal?.aborted && utilization < BUSY_UTILIZATION
  }
}

/**
 * Writes enqueue objects whose substring-indexed values changed; this indexer decrypts them,
 * takes their trigrams and stores only keyed digests (SVC_SERVICE_SUBSTRING_INDEX_REFRESH_INTERVAL
 * in the background, and inline before a `like` search of the collection), a slice of objects
 * per transaction.
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
    const rows = properties.length > 0 ? await store.objects.get(name, ids) : []
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
   * Indexes one collection's queued writes, a slice at a time; the queue rows go with the last
   * slice. Stopped between slices (`pace` said so), the writes stay queued: indexing them again
   * later replaces the grams already written. False when `pace` stopped it.
   */
  async function indexWrites(name: string, entries: readonly QueuedWrite[], pace: Pace) {
    const ids = [...new Set(entries.flatMap((e) => e.objectIds))]
    const done = entries.map((e) => e.key)
    for (let i = 0; i === 0 || i < ids.length; i += SLICE) {
      const started = performance.now()
      const objects = await gramsOf(name, ids.slice(i, i + SLICE))
      const isLast = i + SLICE >= ids.length
      await store.transaction((tx) => tx.substring.replaceGrams(name, objects, isLast ? done : []))
      indexedSinceMaintenance += objects.length
      if (!(await pace(performance.now() - started))) return false
    }
    return true
  }

  /**
   * Indexes queued writes (of one collection, or any) holding up to `limit` objects, or one
   * write if it holds more; returns how many objects, and whether `pace` stopped it.
   */
  async function indexBatch(collection: string | undefined, limit: number, pace: Pace) {
    const pending = await store.substring.pending(collection, limit)
    for (const [name, entries] of Map.groupBy(pending, (entry) => entry.collection))
      if (!(await indexWrites(name, entries, pace))) return { count: 0, isStopped: true }
    const count = pending.reduce((sum, entry) => sum + entry.objectIds.length, 0)
    return { count, isStopped: false }
  }

  return {
    /**
     * Indexes a collection's queue before a `like` search, up to `maxObjects`; true when nothing
     * is left, so the search sees every write made before it.
     */
    async drain(collection: string, maxObjects: number): Promise<boolean> {
      for (let done = 0; done < maxObjects; ) {
        const { count } = await indexBatch(
          collection,
          Math.min(BATCH, maxObjects - done),
          yieldOnly,
        )
        if (count === 0) {
          // Not awaited: the search goes on while the tables are maintained.
          void maintainIfDue()
          return true
        }
        done += count
      }
      return (await store.substring.countPending(collection)) === 0
    },
    /** One background round: queued objects, slice after slice, until none is left or calls need the node. */
    async run(signal?: AbortSignal): Promise<void> {
      const pace = backgroundPace(signal)
      while (!signal?.aborted) {
        const { count, isStopped } = await indexBatch(undefined, BATCH, pace)
        if (isStopped) return
        if (count === 0) break
      }
      if (!signal?.aborted) await maintainIfDue()
    },
  }
}

export type SubstringIndexer = ReturnType<typeof createSubstringIndexer>
