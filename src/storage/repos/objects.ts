// src/storage/repos/objects.ts: the objects table: insert, read, replace, delete (search: object-search.ts)
import type { Kysely } from 'kysely'
import type { ObjectsRepo } from '../../core/objects/store.ts'
import type { SqlDialect } from '../dialects/dialect.ts'
import type { Tables } from '../schema.ts'
import { NEW_OBJECT_ROWS, OBJECT_ROWS, objectValues, toRecord, toRow } from './object-rows.ts'
import { createObjectSearch } from './object-search.ts'
import { createRowsInserter, newRowsInserter } from './rows.ts'

export function createObjectsRepo(db: Kysely<Tables>, dialect: SqlDialect): ObjectsRepo {
  const insertRows = createRowsInserter(db, dialect)
  const insertNewRows = newRowsInserter(insertRows, dialect)

  return {
    ...createObjectSearch(db, dialect),
    async insert(records) {
      const inserted = await insertRows<{ id: string }>(OBJECT_ROWS, records.map(objectValues))
      const ids = new Set(inserted.map((row) => row.id))
      return new Set(records.filter((record) => !ids.has(record.id)).map((record) => record.id))
    },
    async insertNew(records) {
      await insertNewRows(NEW_OBJECT_ROWS, records.map(objectValues))
    },
    async get(collection, ids) {
      if (ids.length === 0) return []
      const rows = await db
        .selectFrom('objects')
        .selectAll()
        .where('collection', '=', collection)
        .where((eb) => dialect.idIn(eb, ids))
        .execute()
      return rows.map(toRecord)
    },
    async count(collection, now, tenantIds) {
      let query = db
        .selectFrom('objects')
        .select((eb) => [
          eb.fn.countAll<number>().as('total'),
          eb.fn.count<number>(eb.case().when('expires_at', '<=', now).then(1).end()).as('archived'),
        ])
        .where('collection', '=', collection)
      if (tenantIds !== undefined)
        query = query.where('tenant_id', 'in', tenantIds.length > 0 ? [...tenantIds] : [''])
      const row = await query.executeTakeFirst()
      const total = Number(row?.total ?? 0)
      const archived = Number(row?.archived ?? 0)
      return { active: total - archived, archived }
    },
    async replace(record, expectedVersion) {
      const { collection, id, ...rest } = toRow(record)
      const result = await db
        .updateTable('objects')
        .set(rest)
        .where('collection', '=', collection)
        .where('id', '=', id)
        .where('version', '=', expectedVersion)
        .executeTakeFirst()
      return Number(result.numUpdatedRows) > 0
    },
    async delete(collection, ids) {
      if (ids.length === 0) return 0
      const result = await db
        .deleteFrom('objects')
        .where('collection', '=', collection)
        .where('id', 'in', [...ids])
        .executeTakeFirst()
      return Number(result.numDeletedRows)
    },
    async ownedBy(ownerCollection, ownerId) {
      const rows = await db
        .selectFrom('objects')
        .selectAll()
        .where('owner_collection', '=', ownerCollection)
        .where('owner_id', '=', ownerId)
        .execute()
      return rows.map(toRecord)
    },
    async expired(before, limit) {
      const rows = await db
        .selectFrom('objects')
        .selectAll()
        .where('expires_at', 'is not', null)
        .where('expires_at', '<', before)
        .orderBy('expires_at')
        .limit(limit)
        .execute()
      return rows.map(toRecord)
    },
    async hasAny(collection) {
      const row = await db
        .selectFrom('objects')
        .select('id')
        .where('collection', '=', collection)
        .limit(1)
        .executeTakeFirst()
      return row !== undefined
    },
    async removeProperty(collection, property) {
      const removed = (column: string) => dialect.withoutMember(column, property)
      // A property lives in three JSON columns: plain value, sealed value, digest.
      await db
        .updateTable('objects')
        .set({ fields: removed('fields'), sealed: removed('sealed'), digests: removed('digests') })
        .where('collection', '=', collection)
        .execute()
    },
    async deleteCollection(collection) {
      await db.deleteFrom('objects').where('collection', '=', collection).execute()
    },
  }
}
