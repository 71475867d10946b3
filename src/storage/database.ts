// src/storage/database.ts: opens SQLite (node:sqlite) or PostgreSQL (pg) and returns a Kysely instance
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { DatabaseSync, type StatementSync } from 'node:sqlite'
import type { LogEvent, SqliteDatabase, SqliteStatement } from 'kysely'
import type pg from 'pg'
import { Kysely, PostgresDialect, SqliteDialect } from './kysely.ts'
import type { Tables } from './schema.ts'

export type DatabaseOptions =
  | { readonly kind: 'sqlite'; readonly file: string }
  | {
      readonly kind: 'postgres'
      readonly host: string
      readonly port: number
      readonly database: string
      readonly user: string
      readonly password: string
      readonly requireTls: boolean
      readonly maxOpenConns: number
      readonly maxIdleConns: number
      readonly connMaxLifetimeMs: number
    }

export type Dialect = 'sqlite' | 'postgres'

/**
 * Called after every statement with its text (placeholders, never parameter values): SQL tracing
 * (SVC_DB_TRACE_SQL, confvar trace_sql), statement spans and error counts.
 */
export type QueryObserver = (sql: string, durationMs: number, error?: unknown) => void

export type OpenOptions = { readonly onQuery?: QueryObserver }

function kyselyLog(options: OpenOptions) {
  const { onQuery } = options
  if (onQuery === undefined) return undefined
  return (event: LogEvent) => {
    if (event.level === 'query') onQuery(event.query.sql, event.queryDurationMillis)
    else onQuery(event.query.sql, event.queryDurationMillis, event.error)
  }
}

/** Connections of the PostgreSQL pool (metrics); undefined before the pool exists. */
export type PoolStats = { readonly total: number; readonly idle: number; readonly waiting: number }

export type OpenDatabase = {
  readonly db: Kysely<Tables>
  readonly dialect: Dialect
  readonly isMemory: boolean
  /** A short description for start-up logs, without secrets. */
  readonly description: string
  /** PostgreSQL's pool counts; SQLite has no pool. */
  readonly poolStats?: () => PoolStats | undefined
}

const STATEMENT_CACHE_SIZE = 500

/**
 * Gives node:sqlite's DatabaseSync the interface Kysely's SqliteDialect expects. Prepared
 * statements are cached by SQL text: preparing is a large share of a small query's cost.
 */
function sqliteAdapter(database: DatabaseSync): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>()
  function wrap(statement: StatementSync): SqliteStatement {
    statement.setReadBigInts(false)
    return {
      reader: statement.columns().length > 0,
      all: (parameters) => statement.all(...(parameters as never[])),
      run: (parameters) => statement.run(...(parameters as never[])),
      iterate: (parameters) => statement.iterate(...(parameters as never[])),
    }
  }
  return {
    close: () => database.close(),
    prepare(sql) {
      let statement = cache.get(sql)
      if (statement === undefined) {
        statement = wrap(database.prepare(sql))
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string)
        cache.set(sql, statement)
      }
      return statement
    },
  }
}

function openSqlite(file: string, options: OpenOptions): OpenDatabase {
  const isMemory = file === ':memory:'
  if (!isMemory) mkdirSync(dirname(file), { recursive: true })
  const database = new DatabaseSync(file)
  database.exec('PRAGMA journal_mode = WAL')
  database.exec('PRAGMA synchronous = NORMAL')
  database.exec('PRAGMA foreign_keys = ON')
  database.exec('PRAGMA busy_timeout = 5000')
  // Index inserts land on random pages (blind-index digests, UUIDs): a 64 MiB page cache and a
  // checkpoint every 10,000 WAL pages (instead of 1,000) raised raw inserts of object rows from
  // ~8,600 to ~12,600 objects/s on the 2-core target (bench/README.md).
  database.exec('PRAGMA cache_size = -65536')
  database.exec('PRAGMA wal_autocheckpoint = 10000')
  const db = new Kysely<Tables>({
    dialect: new SqliteDialect({ database: sqliteAdapter(database) }),
    log: kyselyLog(options),
  })
  return {
    db,
    dialect: 'sqlite',
    isMemory,
    description: isMemory ? 'sqlite (in memory)' : `sqlite ${file}`,
  }
}

/** BIGINT columns hold microsecond times and counters that fit in a double. */
function pgTypes(types: typeof pg.types): pg.CustomTypesConfig {
  return {
    getTypeParser(oid: number, format?: 'text' | 'binary') {
      if (oid === 20 && format !== 'binary') return (value: string) => Number(value)
      return types.getTypeParser(oid, format)
    },
  } as pg.CustomTypesConfig
}

/**
 * SQL texts that begin with this comment run as named prepared statements on PostgreSQL: each
 * connection parses the text once, and the server may keep its plan (`plan_cache_mode` auto).
 * For the few fixed statements every call runs (key lookup, audit insert, row inserts), this
 * halves a round trip (~0.3 → ~0.15 ms on the benchmark machine). Only texts whose plan does not
 * depend on the parameters' values, and whose result columns are listed (a cached `SELECT *`
 * fails once a migration adds a column), may carry it.
 */
export const PREPARED = '/* prepared */ '

type QueryFunction = (config: unknown, values?: unknown, callback?: unknown) => unknown

/**
 * Distinct prepared texts per pool. Search texts vary in shape (e.g. with the number of tenants
 * of a call): past this many, new texts run unnamed, so no caller can make every connection hold
 * an unbounded number of statements.
 */
const MAX_PREPARED_TEXTS = 256

/** Runs texts marked PREPARED under a name per text (one name for all of this pool's clients). */
function prepareMarked(client: { query: QueryFunction }, names: Map<string, string>): void {
  const query = client.query.bind(client)
  client.query = (config, values, callback) => {
    if (typeof config !== 'string' || !config.startsWith(PREPARED))
      return query(config, values, callback)
    let name = names.get(config)
    if (name === undefined) {
      if (names.size >= MAX_PREPARED_TEXTS) return query(config, values, callback)
      name = `strongroom_${names.size + 1}`
      names.set(config, name)
    }
    return query({ name, text: config, values }, callback)
  }
}

function openPostgres(
  options: Extract<DatabaseOptions, { kind: 'postgres' }>,
  openOptions: OpenOptions,
): OpenDatabase {
  // Kysely creates the pool before the first query; pg (~35 modules) loads only then, so a
  // SQLite node never loads it.
  let created: pg.Pool | undefined
  const pool = async () => {
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
    })
    // An idle client's connection error must not crash the process; the pool replaces it.
    created.on('error', () => {})
    const names = new Map<string, string>()
    created.on('connect', (client) => prepareMarked(client as { query: QueryFunction }, names))
    return created
  }
  const db = new Kysely<Tables>({
    dialect: new PostgresDialect({ pool }),
    log: kyselyLog(openOptions),
  })
  const description = `postgres ${options.user}@${options.host}:${options.port}/${options.database}`
  const poolStats = () =>
    created && { total: created.totalCount, idle: created.idleCount, waiting: created.waitingCount }
  return { db, dialect: 'postgres', isMemory: false, description, poolStats }
}

export function openDatabase(
  options: DatabaseOptions,
  openOptions: OpenOptions = {},
): OpenDatabase {
  return options.kind === 'sqlite'
    ? openSqlite(options.file, openOptions)
    : openPostgres(options, openOptions)
}
