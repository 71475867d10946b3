// test/storage/pg-plans.test.ts: PostgreSQL search plans right after a bulk load, without ANALYZE (issue 19)
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ObjectFilter, SearchCondition } from '../../src/core/objects/store.ts'
import { openDatabase } from '../../src/storage/database.ts'
import type { OpenDatabase } from '../../src/storage/dialects/dialect.ts'
import { PREPARED } from '../../src/storage/dialects/dialect.ts'
import { sql } from '../../src/storage/kysely.ts'
import { migrate } from '../../src/storage/migrate.ts'
import { createObjectSearch } from '../../src/storage/repos/object-search.ts'
import { createTestDatabase, findTestPostgres } from '../helpers/postgres.ts'

const url = await findTestPostgres()
const OBJECTS = 50_000
const T0 = 1_700_000_000_000_000

type Captured = { sql: string; parameters: readonly unknown[] }

describe.skipIf(url === undefined)('PostgreSQL plans without statistics', () => {
  let drop: () => Promise<void> = async () => {}
  let database: OpenDatabase
  const captured: Captured[] = []

  beforeAll(async () => {
    const created = await createTestDatabase(url as string)
    drop = created.drop
    database = openDatabase(created.options, {
      onQuery: (text, _ms, parameters) => captured.push({ sql: text, parameters }),
    })
    await migrate(database.db, database.dialect)
    // A bulk load as the service's is (rows only, no ANALYZE; autovacuum may be off).
    await sql`INSERT INTO objects (collection, id, created_at, modified_at, version, fields, sealed, digests)
      SELECT 'people', 'o' || lpad(g::text, 6, '0'), ${T0}::bigint + g, ${T0}::bigint + g, 1,
        '{"city":"c' || (g % 8) || '"}', '{"email":"' || repeat('x', 400) || '"}', '{}'
      FROM generate_series(1, ${OBJECTS}) g`.execute(database.db)
    await sql`INSERT INTO object_index (collection, property, digest, object_id)
      SELECT 'people', 'ssn', decode(lpad(to_hex(g), 32, '0'), 'hex'), 'o' || lpad(g::text, 6, '0')
      FROM generate_series(1, ${OBJECTS}) g`.execute(database.db)
  }, 60_000)

  afterAll(async () => {
    await database?.db.destroy()
    await drop()
  })

  const filter = (): ObjectFilter => ({ collection: 'people', state: 'active', now: T0 * 2 })
  const middle = { createdAt: T0 + OBJECTS / 2, id: `o${String(OBJECTS / 2).padStart(6, '0')}` }
  const digest = (n: number): SearchCondition => ({
    kind: 'digests',
    property: 'ssn',
    digests: [Buffer.from(n.toString(16).padStart(32, '0'), 'hex')],
  })

  /**
   * The plan of the last statement `run` sent that reads `objects`, as a prepared statement runs
   * it, under the settings `run` gave it (the walk's `set_config`s, replayed in a transaction).
   */
  async function planOf(run: () => Promise<unknown>, mode: 'custom' | 'generic'): Promise<string> {
    captured.length = 0
    await run()
    const at = captured.findLastIndex((c) => c.sql.includes('"objects"'))
    const statement = captured[at]
    if (statement === undefined) throw new Error('no statement read objects')
    const settings = captured.slice(0, at).filter((c) => c.sql.includes('set_config('))
    return database.db.transaction().execute(async (db) => {
      for (const setting of settings) await sql.raw(setting.sql).execute(db)
      const cache = mode === 'custom' ? 'force_custom_plan' : 'force_generic_plan'
      await sql.raw(`SET LOCAL plan_cache_mode = ${cache}`).execute(db)
      await sql.raw(`PREPARE probe AS ${statement.sql.replace(PREPARED, '')}`).execute(db)
      const values = statement.parameters.map(literal).join(', ')
      const { rows } = await sql
        .raw<{ 'QUERY PLAN': string }>(`EXPLAIN (COSTS OFF) EXECUTE probe(${values})`)
        .execute(db)
      await sql`DEALLOCATE probe`.execute(db)
      return rows.map((r) => r['QUERY PLAN']).join('\n')
    })
  }

  it('has no statistics: the tables were never analyzed', async () => {
    const { rows } = await sql<{ analyzed: number }>`SELECT count(*)::int AS analyzed
      FROM pg_stat_user_tables WHERE relname IN ('objects', 'object_index')
      AND (last_analyze IS NOT NULL OR last_autoanalyze IS NOT NULL)`.execute(database.db)
    expect(rows[0]?.analyzed).toBe(0)
  })

  for (const mode of ['custom', 'generic'] as const) {
    it(`probes the blind index and the primary key for an exact match (${mode} plan)`, async () => {
      const search = createObjectSearch(database.db, database.dialect)
      const found = await search.search(filter(), [digest(123)], undefined, 100)
      expect(found.map((r) => r.id)).toEqual(['o000123'])
      const plan = await planOf(() => search.search(filter(), [digest(123)], undefined, 100), mode)
      expect(plan).toMatch(/Index Only Scan using object_index_pkey/)
      expect(plan).toMatch(/Index Cond: .*id = ANY/)
      expect(plan).not.toMatch(/Seq Scan|objects_page/)
    })

    it(`walks the page index in order for a list page after a cursor (${mode} plan)`, async () => {
      const search = createObjectSearch(database.db, database.dialect)
      const page = await search.search(filter(), [], middle, 100)
      expect(page[0]?.id).toBe('o025001')
      expect(page).toHaveLength(100)
      const plan = await planOf(() => search.search(filter(), [], middle, 100), mode)
      expect(plan).toMatch(/Index Scan using objects_page/)
      expect(plan).not.toMatch(/Sort|Bitmap|Seq Scan/)
    })

    it(`walks the page index in order for a scan batch with a plain condition (${mode} plan)`, async () => {
      const search = createObjectSearch(database.db, database.dialect)
      const city: SearchCondition = { kind: 'plain', property: 'city', values: ['"c3"'] }
      const run = () => search.scan(filter(), [city], middle, 500, ['email'])
      expect(await run()).toHaveLength(500)
      const plan = await planOf(run, mode)
      expect(plan).toMatch(/Index Scan using objects_page/)
      expect(plan).not.toMatch(/Sort|Bitmap|Seq Scan/)
    })
  }

  it('counts what follows a page along the page index, up to the cap', async () => {
    const search = createObjectSearch(database.db, database.dialect)
    const run = () => search.countAfter(filter(), [], middle, 1000)
    expect(await run()).toBe(1000)
    const plan = await planOf(run, 'custom')
    expect(plan).toMatch(/Index (Only )?Scan using objects_page/)
    expect(plan).not.toMatch(/Sort|Bitmap|Seq Scan/)
  })

  it('restores the settings after a walk inside a caller transaction', async () => {
    const rows = await database.db.transaction().execute(async (trx) => {
      const search = createObjectSearch(trx, database.dialect)
      await search.search(filter(), [], middle, 100)
      const { rows: settings } = await sql<{ sort: string; bitmap: string }>`SELECT
        current_setting('enable_sort') AS sort, current_setting('enable_bitmapscan') AS bitmap`.execute(
        trx,
      )
      const found = await search.search(filter(), [digest(7)], undefined, 100)
      return settings.map((s) => ({ ...s, found: found.map((r) => r.id) }))
    })
    expect(rows).toEqual([{ sort: 'on', bitmap: 'on', found: ['o000007'] }])
  })
})

/** A parameter as an SQL literal of unknown type (the prepared statement gives it its type). */
function literal(value: unknown): string {
  if (value === null || value === undefined) return 'NULL'
  if (typeof value === 'number') return String(value)
  if (value instanceof Uint8Array) return `'\\x${Buffer.from(value).toString('hex')}'`
  const text = Array.isArray(value) ? `{${value.map((v) => `"${v}"`).join(',')}}` : String(value)
  return `'${text.replaceAll("'", "''")}'`
}
