// src/storage/dialects/postgres.ts: PostgreSQL (pg): the connection pool, and the SQL that differs from SQLite
import type pg from 'pg'
import type { DatabaseOptions } from '../database.ts'
import { CompiledQuery, Kysely, PostgresDialect, sql } from '../kysely.ts'
import { guardedPool } from '../pg-guard.ts'
import { createPreparedStatements } from '../pg-prepared.ts'
import type { Tables } from '../schema.ts'
import {
  kyselyLog,
  type OpenDatabase,
  type OpenOptions,
  PREPARED,
  type RowsShape,
  type SqlDialect,
} from './dialect.ts'

/** BIGINT columns hold microsecond times and counters that fit in a double. */
function pgTypes(types: typeof pg.types): pg.CustomTypesConfig {
  return {
    getTypeParser(oid: number, format?: 'text' | 'binary') {
      if (oid === 20 && format !== 'binary') return (value: string) => Number(value)
      return types.getTypeParser(oid, format)
    },
  } as pg.CustomTypesConfig
}

export function openPostgres(
  options: Extract<DatabaseOptions, { kind: 'postgres' }>,
  openOptions: OpenOptions,
): OpenDatabase {
  // Kysely creates the pool before the first query; pg (~35 modules) loads only then, so a
  // SQLite node never loads it.
  let created: pg.Pool | undefined
  const prepared = createPreparedStatements({
    isEnabled: options.preparedStatements ?? true,
    onWarning: openOptions.onWarning,
  })
  const queryTimeoutMs = options.queryTimeoutMs ?? 60_000
  // A new connection (or a free one in a full pool) within the call's time, at least a second.
  const connectTimeoutMs = Math.min(queryTimeoutMs, Math.max(options.callTimeoutMs ?? 30_000, 1000))
  const makePool = async () => {
    const { default: pg } = await import('pg')
    created = new pg.Pool({
      host: options.host,
      port: options.port,
      database: options.database,
      user: options.user,
      password: options.password,
      ssl: options.requireTls ? { rejectUnauthorized: true } : undefined,
      max: options.maxOpenConns,
      idleTimeoutMillis: 30_000,
      maxLifetimeSeconds: Math.max(1, Math.round(options.connMaxLifetimeMs / 1000)),
      types: pgTypes(pg.types),
      connectionTimeoutMillis: connectTimeoutMs,
      keepAlive: true,
    })
    // An idle client's connection error must not crash the process; the pool replaces it.
    created.on('error', () => {})
    const pool = created
    created.on('connect', (client) => {
      // Nor a checked-out client's: its statement fails and the guard closes it (pg-guard.ts).
      client.on('error', () => {})
      prepared.attach(client)
    })
    return guardedPool(created, queryTimeoutMs, () => prepared.probe(pool))
  }
  const db = new Kysely<Tables>({
    dialect: new PostgresDialect({ pool: makePool }),
    log: kyselyLog(openOptions),
  })
  const description = `postgres ${options.user}@${options.host}:${options.port}/${options.database}`
  const poolStats = () =>
    created && { total: created.totalCount, idle: created.idleCount, waiting: created.waitingCount }
  return { db, dialect: postgresDialect, isMemory: false, description, poolStats }
}

const names = (shape: RowsShape) => shape.columns.map(([name]) => name).join(', ')

/** The text `build` makes for a shape, made once per shape. */
function cachedText(
  cache: WeakMap<RowsShape, string>,
  shape: RowsShape,
  build: () => string,
): string {
  let text = cache.get(shape)
  if (text === undefined) {
    text = build()
    cache.set(shape, text)
  }
  return text
}

const arraysTexts = new WeakMap<RowsShape, string>()

/**
 * Many rows: one statement whatever the row count. The columns travel as arrays and `unnest`
 * turns them back into rows, so the server parses and plans a statement of a few parameters
 * instead of one with thousands, once per connection (a prepared statement).
 */
function arraysText(shape: RowsShape): string {
  return cachedText(arraysTexts, shape, () => {
    const arrays = shape.columns.map(([, type], j) => `$${j + 1}::${type}[]`).join(', ')
    return `${PREPARED}INSERT INTO ${shape.table} (${names(shape)}) SELECT * FROM unnest(${arrays}) ${shape.tail}`
  })
}

const rowTexts = new WeakMap<RowsShape, string>()

/** One row (every call's audit record, a single object): plain VALUES, no arrays to build or parse. */
function rowText(shape: RowsShape): string {
  return cachedText(rowTexts, shape, () => {
    const values = shape.columns.map(([, type], j) => `$${j + 1}::${type}`).join(', ')
    return `${PREPARED}INSERT INTO ${shape.table} (${names(shape)}) VALUES (${values}) ${shape.tail}`
  })
}

const NEEDS_ESCAPE = /["\\]/
const ESCAPED = /["\\]/g

/**
 * Column `j` of `rows` as a PostgreSQL array literal (`{"a",NULL,7,\\x0a}`), the text form
 * `$n::text[]` (or bigint[], bytea[]…) parses. pg's own conversion runs two regular-expression
 * replacements on every element, numbers and UUIDs included; here only strings that hold a quote
 * or a backslash are escaped. Values are strings, numbers, booleans, bytes or null.
 */
function arrayLiteral(rows: readonly (readonly unknown[])[], j: number): string {
  let out = '{'
  for (let i = 0; i < rows.length; i++) {
    if (i > 0) out += ','
    const value = (rows[i] as readonly unknown[])[j]
    if (value === null || value === undefined) out += 'NULL'
    else if (typeof value === 'string')
      out += `"${NEEDS_ESCAPE.test(value) ? value.replace(ESCAPED, '\\$&') : value}"`
    else if (typeof value === 'number' || typeof value === 'boolean') out += String(value)
    else if (value instanceof Uint8Array)
      out += `\\\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}`
    else throw new TypeError(`column ${j} holds a ${typeof value}, which no array literal takes`)
  }
  return `${out}}`
}

/** The settings of a keyset walk, for the rest of the transaction (`walkInOrder`). */
const ORDERED_WALK = sql`SELECT set_config('enable_sort', 'off', true), set_config('enable_bitmapscan', 'off', true)`

const placeholders = new Map<string, string>()

export const postgresDialect: SqlDialect = {
  name: 'postgres',
  statementText(text) {
    let converted = placeholders.get(text)
    if (converted === undefined) {
      let n = 0
      converted = PREPARED + text.replace(/\?/g, () => `$${++n}`)
      placeholders.set(text, converted)
    }
    return converted
  },
  insertQueries(shape, rows) {
    const [first] = rows
    if (first === undefined) return []
    if (rows.length === 1) return [CompiledQuery.raw(rowText(shape), [...first])]
    const arrays = shape.columns.map((_, j) => arrayLiteral(rows, j))
    return [CompiledQuery.raw(arraysText(shape), arrays)]
  },
  isKeyTaken: (error) => (error as { code?: unknown } | undefined)?.code === '23505',
  prepared: (query) => ({ ...query, sql: PREPARED + query.sql }),
  // One array parameter (`= any($1::text[])`): a list of a thousand placeholders took PostgreSQL
  // 12–16 ms to parse and plan, three times in a substring search over 30,000 objects.
  idIn: (eb, ids) => eb(eb.ref('objects.id'), '=', sql<string>`any(${[...ids]}::text[])`),
  plainValue: (property) => sql<string | null>`((objects.fields::jsonb -> ${property})::text)`,
  sealedValue: (property) => sql<string | null>`(objects.sealed::jsonb ->> ${property})`,
  plainValues: (values) => values.map((v) => JSON.stringify(JSON.parse(v))),
  withoutMember: (column, member) => sql<string>`(${sql.ref(column)}::jsonb - ${member})::text`,
  indexConditions: 'intersected-in-sql',
  /**
   * Every index condition of a search intersected in one subquery, the rows probed by primary
   * key with its result as an array (`objects.id = any(array(…))`): one statement, the ids never
   * travel to the node and back in chunks (four id-list queries of 30–56 ms per substring search
   * over 100,000 objects, each after a separate intersection). An array from a subquery is
   * estimated small, so the planner probes the key (index-only, migration 0008) instead of
   * walking the collection in creation order or hashing all of it.
   */
  idsInAll(query, subqueries) {
    const [first, ...rest] = subqueries
    if (first === undefined) return query
    const ids = rest.reduce((all, next) => all.intersect(next), first)
    return query.where((eb) => eb(eb.ref('objects.id'), '=', sql<string>`any(array(${ids}))`))
  },
  /**
   * Without statistics (right after a bulk load, with autovacuum off or not yet run) PostgreSQL
   * takes `collection = $1` for 0.5% of the table and `(created_at, id) > (…)` for a third of
   * that: some 160 rows of 100,000, fewer than a page or a scan batch, so it reads every row after
   * the position through a bitmap and sorts them (30–40 ms a list page, 0.2–0.35 s a scan batch of
   * 500, instead of 0.1 and 1.3 ms), and counts what follows a page the same way. With sorts and
   * bitmaps disabled for the walk's statements, the plan left is the ordered walk of
   * `objects_page`, which stops at the LIMIT. The settings are transaction-local (`set_config(…,
   * true)`); inside a caller's transaction the previous values come back after the walk, so its
   * other statements (exact searches probe keys and sort their few matches) keep their plans.
   */
  async walkInOrder(db, walk) {
    if (!db.isTransaction) {
      // Outside a transaction the settings would not outlive their own statement: take one.
      return db.transaction().execute(async (trx) => {
        await ORDERED_WALK.execute(trx)
        return walk(trx)
      })
    }
    const { rows } = await sql<{ sort: string; bitmap: string }>`SELECT
      current_setting('enable_sort') AS sort, current_setting('enable_bitmapscan') AS bitmap,
      set_config('enable_sort', 'off', true), set_config('enable_bitmapscan', 'off', true)`.execute(
      db,
    )
    const [previous] = rows
    const reset = () =>
      sql`SELECT set_config('enable_sort', ${previous?.sort ?? 'on'}, true),
        set_config('enable_bitmapscan', ${previous?.bitmap ?? 'on'}, true)`.execute(db)
    // A failed statement aborts the transaction, which discards the settings with it.
    const result = await walk(db).catch(async (error) => {
      await reset().catch(() => {})
      throw error
    })
    await reset()
    return result
  },
  listTables: sql<{
    name: string
  }>`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()`,
  // Autovacuum gets to these only after its own thresholds and naptime (or never, where it is
  // off): until then the drained queue is a run of dead rows every like search walks, and the
  // n-gram and key probes of a search read a heap page per row (bench/README.md).
  async maintainSearchTables(db) {
    await sql`VACUUM (ANALYZE, SKIP_LOCKED) substring_queue, object_ngrams, objects`.execute(db)
  },
}
