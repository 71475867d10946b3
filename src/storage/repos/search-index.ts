// src/storage/repos/search-index.ts: blind-index entries, uniqueness claims and substring n-grams
import { randomUUID } from 'node:crypto'
import type { ExpressionBuilder, Kysely } from 'kysely'
import type {
  IndexEntry,
  QueuedWrite,
  SearchIndexRepo,
  SubstringRepo,
} from '../../core/objects/store.ts'
import type { RowsShape, SqlDialect } from '../dialects/dialect.ts'
import type { Tables } from '../schema.ts'
import { createRowsInserter, newRowsInserter } from './rows.ts'

const CHUNK = 500
/** Queue rows `pending` chooses from (by their counts of objects). */
const PENDING_ROWS = 1000

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
const NEW_INDEX_ROWS: RowsShape = { ...INDEX_ROWS, tail: '' }
const NEW_CLAIM_ROWS: RowsShape = { ...CLAIM_ROWS, tail: '' }
/** One row per write: its objects' ids as a JSON array, under a random key. */
const QUEUE_ROWS: RowsShape = {
  table: 'substring_queue',
  columns: [
    ['collection', 'text'],
    ['id', 'text'],
    ['queued_at', 'bigint'],
    ['object_count', 'integer'],
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

/**
 * Claims in one order (property, then digest): concurrent writes that claim the same values wait
 * for each other at the first one they share instead of deadlocking (PostgreSQL).
 */
function inClaimOrder(claims: readonly IndexEntry[]): IndexEntry[] {
  return [...claims].sort((a, b) =>
    a.property === b.property
      ? Buffer.compare(a.digest, b.digest)
      : a.property < b.property
        ? -1
        : 1,
  )
}

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

export function createSearchIndexRepo(db: Kysely<Tables>, dialect: SqlDialect): SearchIndexRepo {
  const insertRows = createRowsInserter(db, dialect)
  const insertNewRows = newRowsInserter(insertRows, dialect)
  return {
    async insertIndex(entries) {
      await insertRows(INDEX_ROWS, entries.map(entryValues))
    },
    async insertNew(entries, claims) {
      await insertNewRows(NEW_INDEX_ROWS, entries.map(entryValues))
      await insertNewRows(NEW_CLAIM_ROWS, inClaimOrder(claims).map(entryValues))
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
        inClaimOrder(entries).map(entryValues),
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

export function createSubstringRepo(db: Kysely<Tables>, dialect: SqlDialect): SubstringRepo {
  const insertRows = createRowsInserter(db, dialect)
  return {
    async enqueue(collection, objectIds, now) {
      if (objectIds.length === 0) return
      const ids = [...new Set(objectIds)]
      await insertRows(QUEUE_ROWS, [
        [collection, randomUUID(), now, ids.length, JSON.stringify(ids)],
      ])
    },
    async pending(collection, limit) {
      // Rows hold up to a bulk call's ids each: choose rows by their counts first, then read
      // only the chosen rows' id lists.
      let query = db
        .selectFrom('substring_queue')
        .select(['collection', 'id', 'queued_at', 'object_count'])
        .orderBy('collection')
        .orderBy('id')
        .limit(PENDING_ROWS)
      if (collection !== undefined) query = query.where('collection', '=', collection)
      const chosen: { collection: string; id: string; queued_at: number }[] = []
      let objects = 0
      for (const head of await query.execute()) {
        if (objects >= limit) break
        chosen.push(head)
        objects += head.object_count
      }
      const queued: QueuedWrite[] = []
      for (const [name, heads] of Map.groupBy(chosen, (head) => head.collection)) {
        for (const chunk of chunks(heads)) {
          const rows = await db
            .selectFrom('substring_queue')
            .select(['id', 'object_ids'])
            .where('collection', '=', name)
            .where(
              'id',
              'in',
              chunk.map((head) => head.id),
            )
            .execute()
          const idsOf = new Map(rows.map((row) => [row.id, row.object_ids]))
          for (const head of chunk) {
            const ids = idsOf.get(head.id)
            // Gone meanwhile: another node indexed it.
            if (ids === undefined) continue
            const objectIds = JSON.parse(ids) as string[]
            queued.push({ collection: name, key: head.id, queuedAt: head.queued_at, objectIds })
          }
        }
      }
      return queued
    },
    async countPending(collection) {
      const row = await db
        .selectFrom('substring_queue')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('object_count'), eb.lit(0)).as('n'))
        .$if(collection !== undefined, (query) => query.where('collection', '=', collection ?? ''))
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
