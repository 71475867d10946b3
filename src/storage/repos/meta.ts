// src/storage/repos/meta.ts: vault_meta rows: the control-data generation counter and small settings
import type { Kysely } from 'kysely'
import type { MetaRepo } from '../../core/store.ts'
import type { Tables } from '../schema.ts'
import type { Statements } from '../statements.ts'

const GENERATION = 'generation'

export function createMetaRepo(db: Kysely<Tables>, statements: Statements): MetaRepo {
  // Read on every authenticated call (the Admin key in force): hand-written SQL.
  async function get(key: string) {
    const [row] = await statements.query<{ value: string }>(
      db,
      'select "value" from "vault_meta" where "key" = ?',
      [key],
    )
    return row?.value
  }

  async function set(key: string, value: string, now: number) {
    await db
      .insertInto('vault_meta')
      .values({ key, value, updated_at: now })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at: now }))
      .execute()
  }

  return {
    get,
    set,
    async delete(key) {
      await db.deleteFrom('vault_meta').where('key', '=', key).execute()
    },
    async getGeneration() {
      const row = await db
        .selectFrom('vault_meta')
        .select(['value', 'updated_at'])
        .where('key', '=', GENERATION)
        .executeTakeFirst()
      return { generation: Number(row?.value ?? 0), modifiedAt: row?.updated_at ?? 0 }
    },
    async bumpGeneration(now) {
      // One statement, so concurrent bumps on PostgreSQL serialize on the row and none is lost.
      const row = await db
        .insertInto('vault_meta')
        .values({ key: GENERATION, value: '1', updated_at: now })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet((eb) => ({
            value: eb.cast<string>(
              eb(eb.cast<number>('vault_meta.value', 'bigint'), '+', 1),
              'text',
            ),
            updated_at: now,
          })),
        )
        .returning('value')
        .executeTakeFirstOrThrow()
      return Number(row.value)
    },
  }
}
