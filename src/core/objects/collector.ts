// src/core/objects/collector.ts: the garbage-collection collector of archived objects and what was derived from them
import type { StoredCollection } from '../collections/collection.ts'
import type { Repos, Store } from '../store.ts'
import type { Collector, DeletionCount } from '../system/gc.ts'
import type { Indexing } from './indexing.ts'
import { parseValues } from './records.ts'
import type { ObjectRecord } from './store.ts'

function countByCollection(
  rows: readonly ObjectRecord[],
  collectionOf: (name: string) => StoredCollection | undefined,
): DeletionCount[] {
  const counts = Map.groupBy(rows, (row) => row.collection)
  return [...counts].map(([name, items]) => ({
    collectionName: name,
    collectionType: collectionOf(name)?.type ?? 'DATA',
    count: items.length,
  }))
}

/** Removes rows and everything derived from them: index entries, claims, n-grams, queue entries. */
async function removeRows(tx: Repos, indexing: Indexing, rows: readonly ObjectRecord[]) {
  for (const [name, items] of Map.groupBy(rows, (row) => row.collection)) {
    const ids = items.map((row) => row.id)
    const entries = items.flatMap((row) =>
      indexing.entriesOf(name, row.id, parseValues(row).digests),
    )
    await tx.searchIndex.deleteIndex(entries)
    await tx.searchIndex.releaseUnique(entries)
    await tx.substring.deleteObjects(name, ids)
    await tx.objects.delete(name, ids)
  }
}

export function createObjectsCollector(deps: {
  store: Store
  indexing: Indexing
  collectionOf: (name: string) => StoredCollection | undefined
}): Collector {
  return {
    kind: 'objects',
    async collect(round) {
      const rows = await deps.store.objects.expired(round.before, round.limit)
      if (!round.isDryRun && rows.length > 0)
        await deps.store.transaction((tx) => removeRows(tx, deps.indexing, rows))
      return countByCollection(rows, deps.collectionOf)
    },
  }
}
