// src/storage/repos/search-index.ts: blind-index entries, uniqueness claims and substring n-grams
import { randomUUID } from 'node:crypto'
import type { ExpressionBuilder, Kysely } from 'kysely'
import type {
  IndexEntry,
  QueuedWrite,
  SearchIndexRepo,
  SubstringRepo,
} from '../../core/objects-store.ts'
import type { Dialect } from '../database.ts'
import { sql } from '../kysely.ts'
import type { Tables } from '../schema.ts'
import { createRowsInserter, type RowsShape } from './rows.ts'

const CHUNK = 500
/** Queue rows read per query by `pending`. */
const PENDING_ROWS = 20

function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}

type EntryTable = 'object_index' | 'object_unique'

const ENTRY_COLUMNS: RowsShape['columns'] = [
  ['collection', 'text'],
  ['property', 'text'],
  ['digest', 'bytea'],
  ['object_id', 'text'],
]
const INDEX_ROWS: RowsShape = {
  table: 'object_index',
  columns: ENTRY_COLUMNS,
  tail: 'ON CONFLICT DO NOTHING',
}
/** A claim that loses to the unique key is skipped; the ones won come back. */
const CLAIM_ROWS: RowsShape = {
  table: 'object_unique',
  columns: ENTRY_COLUMNS,
  tail: 'ON CONFLICT (collection, property, digest) DO NOTHING RETURNING property, digest',
}
/** One row per write: its objects' ids as a JSON array, under a random key. */
const QUEUE_ROWS: RowsShape = {
  table: 'substring_queue',
  columns: [
    ['collection', 'text'],
    ['id', 'text'],
    ['queued_at', 'bigint'],
    ['object_ids', 'text'],
  ],
  tail: '',
}

const entryValues = (entry: IndexEntry) => [
  entry.collection,
  entry.property,
  entry.digest,
  entry.objectId,
]

const slotOf = (property: string, digest: Uint8Array) =>
  `${property}\u0000${Buffer.from(digest.buffer, digest.byteOffset, digest.byteLength).toString('base64')}`

/** Matches any of the entries exactly (collection, property, digest and, if asked, object). */
function anyEntry<T extends EntryTable>(
  table: T,
  entries: readonly IndexEntry[],
  withObject: boolean,
) {
  return (eb: ExpressionBuilder<Tables, EntryTable>) =>
    eb.or(
      entries.map((entry) =>
        eb.and([
          eb(`${table}.collection` as 'object_index.collection', '=', entry.collection),
          eb(`${table}.property` as 'object_index.property', '=', entry.property),
          eb(`${table}.digest` as 'object_index.digest', '=', entry.digest),
          ...(withObject
            ? [eb(`${table}.object_id` as 'object_index.object_id', '=', entry.objectId)]
            : []),
        ]),
      ),
    )
}

export function createSearchIndexRepo(db: Kysely<Tables>, dialect: Dialect): SearchIndexRepo {
  const insertRows = createRowsInserter(db, dialect)
  return {
    async insertIndex(entries) {
      await insertRows(INDEX_ROWS, entries.map(entryValues))
    },
    async deleteIndex(entries) {
      for (const chunk of chunks(entries, 100)) {
        await db
          .deleteFrom('object_index')
          .where(anyEntry('object_index', chunk, true))
          .execute()
      }
    },
    async claimUnique(entries) {
      const claimed = await insertRows<{ property: string; digest: Uint8Array }>(
        CLAIM_ROWS,
        entries.map(entryValues),
      )
      const conflicts: IndexEntry[] = []
      // Every claim won (the usual case): no holder to look for.
      if (claimed.length === entries.length) return conflicts
      const won = new Set(claimed.map((row) => slotOf(row.property, row.digest)))
      const lost = entries.filter((e) => !won.has(slotOf(e.property, e.digest)))
      for (const chunk of chunks(lost)) {
        const holders = await db
          .selectFrom('object_unique')
          .selectAll()
          .where(anyEntry('object_unique', chunk, false))
          .execute()
        for (const holder of holders) {
          conflicts.push({
            collection: holder.collection,
            property: holder.property,
            digest: new Uint8Array(holder.digest),
            objectId: holder.object_id,
          })
        }
      }
      return conflicts
    },
    async releaseUnique(entries) {
      for (const chunk of chunks(entries, 100)) {
        await db
          .deleteFrom('object_unique')
          .where(anyEntry('object_unique', chunk, true))
          .execute()
      }
    },
    async deleteClaims(collection, property) {
      await db
        .deleteFrom('object_unique')
        .where('collection', '=', collection)
        .where('property', '=', property)
        .execute()
    },
    async deleteProperty(collection, property) {
      await db
        .deleteFrom('object_index')
        .where('collection', '=', collection)
        .where('property', '=', property)
        .execute()
      await db
        .deleteFrom('object_unique')
        .where('collection', '=', collection)
        .where('property', '=', property)
        .execute()
    },
    async deleteCollection(collection) {
      await db.deleteFrom('object_index').where('collection', '=', collection).execute()
      await db.deleteFrom('object_unique').where('collection', '=', collection).execute()
    },
  }
}

export function createSubstringRepo(db: Kysely<Tables>, dialect: Dialect): SubstringRepo {
  const insertRows = createRowsInserter(db, dialect)
  const idCount =
    dialect === 'sqlite'
      ? sql<number>`json_array_length(object_ids)`
      : sql<number>`json_array_length(object_ids::json)`

  return {
    async enqueue(collection, objectIds, now) {
      if (objectIds.length === 0) return
      const ids = JSON.stringify([...new Set(objectIds)])
      await insertRows(QUEUE_ROWS, [[collection, randomUUID(), now, ids]])
    },
    async pending(collection, limit) {
      const queued: QueuedWrite[] = []
      let objects = 0
      // Rows hold up to a bulk call's objects each: read a few at a time until `limit` objects.
      for (let offset = 0; objects < limit; ) {
        let query = db
          .selectFrom('substring_queue')
          .select(['collection', 'id', 'queued_at', 'object_ids'])
          .orderBy('collection')
          .orderBy('id')
          .limit(PENDING_ROWS)
          .offset(offset)
        if (collection !== undefined) query = query.where('collection', '=', collection)
        const rows = await query.execute()
        for (const row of rows) {
          if (objects >= limit) break
          const objectIds = JSON.parse(row.object_ids) as string[]
          queued.push({
            collection: row.collection,
            key: row.id,
            queuedAt: row.queued_at,
            objectIds,
          })
          objects += objectIds.length
        }
        if (rows.length < PENDING_ROWS) break
        offset += rows.length
      }
      return queued
    },
    async countPending(collection) {
      const row = await db
        .selectFrom('substring_queue')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>(idCount), eb.lit(0)).as('n'))
        .where('collection', '=', collection)
        .executeTakeFirst()
      return Number(row?.n ?? 0)
    },
    async replaceGrams(collection, objects, done) {
      for (const chunk of chunks(objects)) {
        await db
          .deleteFrom('object_ngrams')
          .where('collection', '=', collection)
          .where(
            'object_id',
            'in',
            chunk.map((o) => o.objectId),
          )
          .execute()
      }
      const rows = objects.flatMap((o) =>
        o.grams.map((g) => ({
          collection,
          property: g.property,
          gram: g.gram,
          object_id: o.objectId,
        })),
      )
      for (const chunk of chunks(rows)) {
        await db
          .insertInto('object_ngrams')
          .values(chunk)
          .onConflict((oc) => oc.doNothing())
          .execute()
      }
      for (const chunk of chunks(done)) {
        await db
          .deleteFrom('substring_queue')
          .where('collection', '=', collection)
          .where('id', 'in', chunk)
          .execute()
      }
    },
    async deleteObjects(collection, objectIds) {
      for (const chunk of chunks(objectIds)) {
        await db
          .deleteFrom('object_ngrams')
          .where('collection', '=', collection)
          .where('object_id', 'in', chunk)
          .execute()
      }
    },
    async deleteProperty(collection, property) {
      await db
        .deleteFrom('object_ngrams')
        .where('collection', '=', collection)
        .where('property', '=', property)
        .execute()
    },
    async deleteCollection(collection) {
      await db.deleteFrom('object_ngrams').where('collection', '=', collection).execute()
      await db.deleteFrom('substring_queue').where('collection', '=', collection).execute()
    },
  }
}
