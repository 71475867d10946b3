// src/core/objects/data-port.ts: the object data behind schema changes (CollectionDataPort of the collections service)

import type { StoredCollection, StoredProperty } from '../collections/collection.ts'
import type { CollectionDataPort, IndexChange } from '../collections/data-port.ts'
import type { Envelope } from '../crypto/envelope.ts'
import { ownValue } from '../own.ts'
import type { PagePosition } from '../paging/cursor.ts'
import type { Repos } from '../store.ts'
import { openObjects } from '../values/sealing.ts'
import { type Indexing, isIndexed } from './indexing.ts'
import { parseValues } from './records.ts'
import type { ObjectRecord } from './store.ts'

const BATCH = 1000

export type ObjectsDataDeps = Readonly<{ envelope: Envelope; indexing: Indexing }>

/** Every row of a collection, batch by batch, in creation order. */
async function forEachBatch(
  tx: Repos,
  collection: string,
  work: (rows: ObjectRecord[]) => Promise<void>,
): Promise<void> {
  const filter = { collection, state: 'all' as const, now: 0 }
  let after: PagePosition | undefined
  for (;;) {
    const rows = await tx.objects.search(filter, [], after, BATCH)
    if (rows.length > 0) await work(rows)
    const last = rows.at(-1)
    if (rows.length < BATCH || last === undefined) return
    after = { createdAt: last.createdAt, id: last.id }
  }
}

export function createObjectsData(deps: ObjectsDataDeps): CollectionDataPort {
  /** The values of one property in a batch of rows, decrypting only when it is encrypted. */
  function valuesOf(property: StoredProperty, rows: readonly ObjectRecord[]): unknown[] {
    const stored = rows.map(parseValues)
    if (!property.isEncrypted) return stored.map((s) => ownValue(s.fields, property.name) ?? null)
    const opened = openObjects(
      deps.envelope,
      rows.map((r, i) => ({
        collection: r.collection,
        objectId: r.id,
        sealed: stored[i]?.sealed ?? {},
        properties: [property.name],
      })),
    )
    return opened.map((values) => ownValue(values, property.name) ?? null)
  }

  /** Builds the blind-index entries of a property that gained an index, and records the digests. */
  async function buildIndex(tx: Repos, collection: StoredCollection, property: StoredProperty) {
    await forEachBatch(tx, collection.name, async (rows) => {
      const values = valuesOf(property, rows)
      const entries = rows.map((row, i) => ({
        collection: collection.name,
        property: property.name,
        objectId: row.id,
        digest: deps.indexing.blindDigest(collection.name, property.name, values[i]),
      }))
      await tx.searchIndex.insertIndex(entries)
      for (const [i, row] of rows.entries()) {
        const stored = parseValues(row)
        const digest = Buffer.from(entries[i]?.digest ?? []).toString('base64')
        const digests = JSON.stringify({ ...stored.digests, [property.name]: digest })
        await tx.objects.replace({ ...row, digests, version: row.version + 1 }, row.version)
      }
    })
  }

  return {
    hasObjects: (tx, collection) => tx.objects.hasAny(collection.name),
    async onIndexChanged(tx, collection, property, change: IndexChange) {
      const wasIndexed = isIndexed({ ...property, ...change.before })
      const willIndex = isIndexed({ ...property, ...change.after })
      if (wasIndexed && !willIndex)
        await tx.searchIndex.deleteProperty(collection.name, property.name)
      else if (change.before.isUnique && !change.after.isUnique)
        await tx.searchIndex.deleteClaims(collection.name, property.name)
      if (!wasIndexed && willIndex) await buildIndex(tx, collection, property)
      if (change.before.isSubstringIndex && !change.after.isSubstringIndex)
        await tx.substring.deleteProperty(collection.name, property.name)
    },
    async deleteCollectionData(tx, collection) {
      await tx.searchIndex.deleteCollection(collection.name)
      await tx.substring.deleteCollection(collection.name)
      await tx.objects.deleteCollection(collection.name)
      await tx.tokens.deleteCollection(collection.name)
    },
    async deletePropertyData(tx, collection, property) {
      await tx.searchIndex.deleteProperty(collection.name, property.name)
      await tx.substring.deleteProperty(collection.name, property.name)
      await tx.objects.removeProperty(collection.name, property.name)
      await tx.tokens.removeProperty(collection.name, property.name)
    },
  }
}
