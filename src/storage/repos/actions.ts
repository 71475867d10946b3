// src/storage/repos/actions.ts: custom actions rows; name clashes are reported, never thrown
import type { Kysely, Selectable } from 'kysely'
import type { ActionsRepo, StoredAction } from '../../core/actions/store.ts'
import type { ActionsTable, Tables } from '../schema.ts'

function toAction(row: Selectable<ActionsTable>): StoredAction {
  return {
    name: row.name,
    description: row.description,
    bundle: row.bundle,
    function: row.function,
    role: row.role,
    createdAt: row.created_at,
    modifiedAt: row.modified_at,
  }
}

export function createActionsRepo(db: Kysely<Tables>): ActionsRepo {
  return {
    async list() {
      return (await db.selectFrom('actions').selectAll().execute()).map(toAction)
    },
    async get(name) {
      const row = await db
        .selectFrom('actions')
        .selectAll()
        .where('name', '=', name)
        .executeTakeFirst()
      return row && toAction(row)
    },
    async insert(action) {
      const inserted = await db
        .insertInto('actions')
        .values({
          name: action.name,
          name_key: action.name.toLowerCase(),
          description: action.description,
          bundle: action.bundle,
          function: action.function,
          role: action.role,
          created_at: action.createdAt,
          modified_at: action.modifiedAt,
        })
        .onConflict((oc) => oc.doNothing())
        .returning('name')
        .executeTakeFirst()
      return inserted !== undefined
    },
    async delete(name) {
      const result = await db.deleteFrom('actions').where('name', '=', name).executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    },
    async listByBundle(bundle) {
      const rows = await db
        .selectFrom('actions')
        .select('name')
        .where('bundle', '=', bundle)
        .orderBy('name')
        .execute()
      return rows.map((row) => row.name)
    },
  }
}
