// src/storage/repos/bundles.ts: bundles rows; name clashes and lost races are reported, never thrown
import type { Kysely, Selectable } from 'kysely'
import type { FunctionPrototype } from '../../core/bundles/exports.ts'
import type { BundlesRepo, StoredBundle } from '../../core/bundles/store.ts'
import type { BundlesTable, Tables } from '../schema.ts'

function toBundle(row: Selectable<BundlesTable>): StoredBundle {
  return {
    name: row.name,
    description: row.description,
    source: row.source,
    exports: JSON.parse(row.exports) as FunctionPrototype[],
    createdAt: row.created_at,
    modifiedAt: row.modified_at,
  }
}

function bundleRow(bundle: StoredBundle): Selectable<BundlesTable> {
  return {
    name: bundle.name,
    name_key: bundle.name.toLowerCase(),
    description: bundle.description,
    source: bundle.source,
    exports: JSON.stringify(bundle.exports),
    created_at: bundle.createdAt,
    modified_at: bundle.modifiedAt,
  }
}

export function createBundlesRepo(db: Kysely<Tables>): BundlesRepo {
  return {
    async list() {
      return (await db.selectFrom('bundles').selectAll().execute()).map(toBundle)
    },
    async get(name) {
      const row = await db
        .selectFrom('bundles')
        .selectAll()
        .where('name', '=', name)
        .executeTakeFirst()
      return row && toBundle(row)
    },
    async insert(bundle) {
      const inserted = await db
        .insertInto('bundles')
        .values(bundleRow(bundle))
        .onConflict((oc) => oc.doNothing())
        .returning('name')
        .executeTakeFirst()
      return inserted !== undefined
    },
    async update(bundle, expected) {
      const { description, source, exports, modified_at } = bundleRow(bundle)
      const result = await db
        .updateTable('bundles')
        .set({ description, source, exports, modified_at })
        .where('name', '=', bundle.name)
        .where('modified_at', '=', expected)
        .executeTakeFirst()
      return Number(result.numUpdatedRows) > 0
    },
    async delete(name) {
      const result = await db.deleteFrom('bundles').where('name', '=', name).executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    },
    async hold(name) {
      // An update that changes nothing still takes the row lock on PostgreSQL (SQLite runs one
      // writer at a time anyway).
      const result = await db
        .updateTable('bundles')
        .set((eb) => ({ modified_at: eb.ref('modified_at') }))
        .where('name', '=', name)
        .executeTakeFirst()
      return Number(result.numUpdatedRows) > 0
    },
  }
}
