// test/storage/pgbouncer.test.ts: named prepared statements behind a real PgBouncer 1.18 in transaction pooling
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PREPARED } from '../../src/storage/dialects/dialect.ts'
import { createPreparedStatements, isPoolerStatementError } from '../../src/storage/pg-prepared.ts'
import { type Bouncer, findPgbouncer, startPgbouncer } from '../helpers/pgbouncer.ts'
import {
  createTestDatabase,
  findTestPostgres,
  type PgDatabaseOptions,
} from '../helpers/postgres.ts'
import { openTestStore } from '../helpers/store.ts'

const url = await findTestPostgres()
const binary = url === undefined ? undefined : findPgbouncer()
const LOOKUP = `${PREPARED}SELECT $1::text AS echo`

describe.skipIf(binary === undefined)('PostgreSQL behind PgBouncer (transaction pooling)', () => {
  let database: PgDatabaseOptions
  let drop: () => Promise<void>
  // One server connection: every client's statements meet on it, so the collisions are certain.
  let bouncer: Bouncer
  const pools: pg.Pool[] = []

  beforeAll(async () => {
    ;({ options: database, drop } = await createTestDatabase(url as string))
    bouncer = await startPgbouncer({
      binary: binary as string,
      target: { ...database, database: database.database },
      poolSize: 1,
    })
  })
  afterAll(async () => {
    for (const pool of pools) await pool.end()
    await bouncer?.stop()
    await drop?.()
  })

  const poolThrough = (port: number) => {
    const pool = new pg.Pool({ ...database, port, max: 4 })
    pools.push(pool)
    return pool
  }
  /** A pool whose clients go through a fresh named-statements switch, probed as a node's is. */
  const probedPool = async (port: number) => {
    const warnings: string[] = []
    const prepared = createPreparedStatements({
      isEnabled: true,
      onWarning: (line) => warnings.push(line),
    })
    const pool = poolThrough(port)
    pool.on('connect', (client) => prepared.attach(client))
    await prepared.probe(pool)
    return { warnings, prepared, pool }
  }

  it('refuses a name prepared by one client and used by another (no detection)', async () => {
    const pool = poolThrough(bouncer.port)
    const [first, second] = [await pool.connect(), await pool.connect()]
    try {
      const named = { name: 'strongroom_plain', text: 'SELECT 1 AS one' }
      await first.query(named)
      const error = await second.query(named).then(
        () => undefined,
        (failure: unknown) => failure,
      )
      expect((error as { code?: string }).code).toBe('42P05')
      expect(isPoolerStatementError(error)).toBe(true)
    } finally {
      first.release()
      second.release()
    }
  })

  it('finds the pooler at the first checkout, warns once and goes on unnamed', async () => {
    const { warnings, prepared, pool } = await probedPool(bouncer.port)
    expect(prepared.isNamed()).toBe(false)
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain('SVC_DB_PREPARED_STATEMENTS=false')
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => pool.query(LOOKUP, [`v${i}`])),
    )
    expect(answers.map((answer) => answer.rows[0].echo)).toEqual(
      Array.from({ length: 20 }, (_, i) => `v${i}`),
    )
  })

  it('switches without the probe on the first refusal, retrying a statement of its own', async () => {
    const warnings: string[] = []
    const prepared = createPreparedStatements({
      isEnabled: true,
      onWarning: (line) => warnings.push(line),
    })
    const pool = poolThrough(bouncer.port)
    pool.on('connect', (client) => prepared.attach(client))
    const [first, second] = [await pool.connect(), await pool.connect()]
    try {
      expect((await first.query(LOOKUP, ['a'])).rows).toEqual([{ echo: 'a' }])
      // The same name again, from a client that did not parse it: 42P05, then unnamed.
      expect((await second.query(LOOKUP, ['b'])).rows).toEqual([{ echo: 'b' }])
      expect(prepared.isNamed()).toBe(false)
      expect(warnings).toHaveLength(1)
    } finally {
      first.release()
      second.release()
    }
  })

  it('fails a transaction hit by the refusal once, and runs the next ones unnamed', async () => {
    const prepared = createPreparedStatements({ isEnabled: true })
    const pool = poolThrough(bouncer.port)
    pool.on('connect', (client) => prepared.attach(client))
    const [first, second] = [await pool.connect(), await pool.connect()]
    const text = `${PREPARED}SELECT $1::int + 1 AS next`
    try {
      await first.query(text, [1])
      await second.query('begin')
      const error = await second.query(text, [2]).catch((failure: unknown) => failure)
      expect(isPoolerStatementError(error)).toBe(true)
      await second.query('rollback')
      await second.query('begin')
      expect((await second.query(text, [3])).rows).toEqual([{ next: 4 }])
      await second.query('commit')
    } finally {
      first.release()
      second.release()
    }
  })

  it('keeps named statements on a direct connection (no false alarm)', async () => {
    const { warnings, prepared, pool } = await probedPool(database.port)
    await Promise.all(Array.from({ length: 8 }, (_, i) => pool.query(LOOKUP, [`d${i}`])))
    expect(prepared.isNamed()).toBe(true)
    expect(warnings).toEqual([])
  })

  it('runs the store through PgBouncer with named statements turned off', async () => {
    const { store, close } = await openTestStore({
      ...database,
      port: bouncer.port,
      maxOpenConns: 4,
      preparedStatements: false,
    })
    try {
      // The key lookup is a marked (PREPARED) text: four clients run it on the one server.
      const lookups = await Promise.all(
        Array.from({ length: 16 }, () =>
          store.iam.findCredential(new Uint8Array(32), 'admin_api_key_sha256'),
        ),
      )
      expect(lookups.every((found) => found.key === undefined)).toBe(true)
      expect(await store.schemaVersion()).toBeGreaterThan(0)
    } finally {
      await close()
    }
  })
})
