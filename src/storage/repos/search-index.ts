// src/storage/repos/search-index.ts: blind-index entries, uniqueness claims and substring n-grams
import type { ExpressionBuilder, Kysely } from 'kysely'
import type {
  IndexEntry,
  ObjectGrams,
  SearchIndexRepo,
  SubstringRepo,
} from '../../core/objects-store.ts'
import type { Dialect } from '../database.ts'
import type { Tables } from '../schema.ts'
import { createRowsInserter, type RowsShape } from './rows.ts'

const CHUNK = 500

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
/** Queued again: the later time wins, so a build that read the older one does not dequeue it. */
const QUEUE_ROWS: RowsShape = {
  table: 'substring_pending',
  columns: [
    ['collection', 'text'],
    ['object_id', 'text'],
    ['queued_at', 'bigint'],
  ],
  tail: 'ON CONFLICT (collection, object_id) DO UPDATE SET queued_at = excluded.queued_at',
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

  /**
   * Takes objects off the queue unless queued again later. Grouped by queue time (a batch's
   * objects usually share one), so each statement is a primary-key lookup per id.
   */
  async function dequeue(collection: string, objects: readonly ObjectGrams[]): Promise<void> {
    const byTime = Map.groupBy(objects, (o) => o.queuedAt)
    for (const [queuedAt, group] of byTime) {
      for (const chunk of chunks(group)) {
        await db
          .deleteFrom('substring_pending')
          .where('collection', '=', collection)
          .where(
            'object_id',
            'in',
            chunk.map((o) => o.objectId),
          )
          .where('queued_at', '<=', queuedAt)
          .execute()
      }
    }
  }

  return {
    async enqueue(collection, objectIds, now) {
      // One statement may not update a row twice (PostgreSQL): each id once.
      const ids = [...new Set(objectIds)]
      await insertRows(
        QUEUE_ROWS,
        ids.map((objectId) => [collection, objectId, now]),
      )
    },
    async pending(collection, limit) {
      let query = db
        .selectFrom('substring_pending')
        .select(['collection', 'object_id', 'queued_at'])
        .limit(limit)
      if (collection !== undefined) query = query.where('collection', '=', collection)
      return (await query.execute()).map((row) => ({
        collection: row.collection,
        objectId: row.object_id,
        queuedAt: row.queued_at,
      }))
    },
    async countPending(collection) {
      const row = await db
        .selectFrom('substring_pending')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('collection', '=', collection)
        .executeTakeFirst()
      return Number(row?.n ?? 0)
    },
    async replaceGrams(collection, objects) {
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
      await dequeue(collection, objects)
    },
    async deleteObjects(collection, objectIds) {
      for (const chunk of chunks(objectIds)) {
        await db
          .deleteFrom('object_ngrams')
          .where('collection', '=', collection)
          .where('object_id', 'in', chunk)
          .execute()
        await db
          .deleteFrom('substring_pending')
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
      await db.deleteFrom('substring_pending').where('collection', '=', collection).execute()
    },
  }
}
