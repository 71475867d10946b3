// src/storage/dialects/sqlite.ts: SQLite (node:sqlite): opening a database file, and the SQL that differs from PostgreSQL
import { mkdirSync } from 'node:fs'
import { type FileHandle, open } from 'node:fs/promises'
import { dirname } from 'node:path'
import { DatabaseSync, type StatementSync } from 'node:sqlite'
import type { Driver, SqliteDatabase, SqliteStatement } from 'kysely'
import { CompiledQuery, Kysely, SqliteDialect, sql } from '../kysely.ts'
import { databaseUnavailable, fromSqliteError } from '../outages.ts'
import type { Tables } from '../schema.ts'
import {
  kyselyLog,
  type OpenDatabase,
  type OpenOptions,
  PREPARED,
  type RowsShape,
  type SqlDialect,
} from './dialect.ts'
import { GroupCommitDriver, type SyncWal } from './sqlite-group.ts'

const STATEMENT_CACHE_SIZE = 500
/** The page cache's default limit (SVC_DB_SQLITE_CACHE_BYTES), see openSqlite. */
const CACHE_BYTES = 8 * 1024 * 1024

/**
 * Gives node:sqlite's DatabaseSync the interface Kysely's SqliteDialect expects. Prepared
 * statements are cached by SQL text: preparing is a large share of a small query's cost.
 */
function sqliteAdapter(database: DatabaseSync): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>()
  // A locked, read-only or full file is the operator's problem, not the caller's: 503 ERR1010.
  function guarded<T>(run: () => T): T {
    try {
      return run()
    } catch (error) {
      throw fromSqliteError(error)
    }
  }
  function wrap(statement: StatementSync): SqliteStatement {
    statement.setReadBigInts(false)
    return {
      reader: statement.columns().length > 0,
      all: (parameters) => guarded(() => statement.all(...(parameters as never[]))),
      run: (parameters) => guarded(() => statement.run(...(parameters as never[]))),
      iterate: (parameters) => guarded(() => statement.iterate(...(parameters as never[]))),
    }
  }
  return {
    close: () => database.close(),
    prepare(sql) {
      let statement = cache.get(sql)
      if (statement === undefined) {
        statement = wrap(guarded(() => database.prepare(sql)))
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string)
        cache.set(sql, statement)
      }
      return statement
    },
  }
}

/** Kysely's SQLite dialect with the group-commit driver. */
class GroupCommitDialect extends SqliteDialect {
  readonly #driver: GroupCommitDriver
  constructor(config: ConstructorParameters<typeof SqliteDialect>[0], driver: GroupCommitDriver) {
    super(config)
    this.#driver = driver
  }
  override createDriver(): Driver {
    return this.#driver
  }
}

/**
 * fdatasync of the database's WAL file on libuv's threads. The file stays open: SQLite deletes
 * the WAL only when its last connection closes, and this process holds one until it stops.
 */
function walFileSync(file: string): SyncWal {
  let handle: Promise<FileHandle> | undefined
  return {
    async sync() {
      try {
        handle ??= open(`${file}-wal`, 'r')
        await (await handle).datasync()
      } catch (error) {
        handle = undefined // opened again by the next sync
        // No WAL yet: nothing was ever written to it (a COMMIT of a transaction that read only).
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
        throw databaseUnavailable(
          error,
          'The database could not be synced to disk, so the write may not be durable; check the disk of the data directory.',
        )
      }
    },
    async close() {
      await (await handle?.catch(() => undefined))?.close()
    },
  }
}

/** Opens (creating it if needed) a database file in WAL mode, or `:memory:` for in-memory mode. */
export function openSqlite(
  file: string,
  options: OpenOptions,
  settings: Readonly<{ synchronous?: 'full' | 'normal'; cacheBytes?: number }> = {},
  syncWal: (file: string) => SyncWal = walFileSync,
): OpenDatabase {
  const synchronous = settings.synchronous ?? 'full'
  // Negative: a limit in KiB rather than in pages.
  const cacheSize = -Math.ceil((settings.cacheBytes ?? CACHE_BYTES) / 1024)
  const isMemory = file === ':memory:'
  if (!isMemory) mkdirSync(dirname(file), { recursive: true })
  const database = new DatabaseSync(file)
  database.exec('PRAGMA journal_mode = WAL')
  // Durable by default: the WAL is synced after every commit before its callers get their
  // results, so an acknowledged write survives power loss; the commits of concurrent calls are
  // grouped (sqlite-group.ts), one sync per group. SQLite itself runs with NORMAL and the group
  // driver makes the sync FULL would make, off the event loop (ADR 0019).
  // SVC_DB_SQLITE_SYNCHRONOUS=normal makes no such sync: the WAL reaches the disk only at
  // checkpoints, so the last acknowledged writes before a power loss or OS crash may be lost
  // (never on a crash of the process alone).
  const isSynced = synchronous === 'full' && !isMemory
  database.exec(`PRAGMA synchronous = ${isMemory ? 'FULL' : 'NORMAL'}`)
  database.exec('PRAGMA foreign_keys = ON')
  database.exec('PRAGMA busy_timeout = 5000')
  // Index inserts land on random pages (blind-index digests, UUIDs): a larger page cache and a
  // checkpoint every 10,000 WAL pages (instead of 1,000) raised raw inserts of object rows from
  // ~8,600 to ~12,600 objects/s on the 2-core target; 8 MiB of cache did as well as 64 MiB in
  // the vault's bulk adds, and holds less memory after it is freed (bench/README.md).
  database.exec(`PRAGMA cache_size = ${cacheSize}`)
  database.exec('PRAGMA wal_autocheckpoint = 10000')
  const adapter = sqliteAdapter(database)
  const driver = new GroupCommitDriver(
    adapter,
    () => database.isTransaction,
    isSynced ? syncWal(file) : undefined,
  )
  const db = new Kysely<Tables>({
    dialect: new GroupCommitDialect({ database: adapter }, driver),
    log: kyselyLog(options),
  })
  return {
    db,
    dialect: sqliteDialect,
    isMemory,
    description: isMemory ? 'sqlite (in memory)' : `sqlite ${file}`,
    synced: isSynced ? () => driver.synced() : undefined,
    // An in-memory database lives in its page cache: nothing there may be freed.
    releaseMemory: isMemory
      ? undefined
      : async () => {
          if (!database.isOpen) return
          // shrink_memory alone freed nothing measurable; with the cache limit at 0 first it
          // drops the cached pages (14 of 45 MB in a test; the rest is the allocator's).
          database.exec('PRAGMA cache_size = 0')
          database.exec('PRAGMA shrink_memory')
          database.exec(`PRAGMA cache_size = ${cacheSize}`)
        },
  }
}

/** SQLite's limit on parameters per statement is 32,766; rows per statement stay well below it. */
const SQLITE_ROWS = 500

const names = (shape: RowsShape) => shape.columns.map(([name]) => name).join(', ')
const rowTexts = new WeakMap<RowsShape, Map<number, string>>()

/** A multi-row INSERT of `count` rows, built once per shape and count (then cached prepared). */
function rowsText(shape: RowsShape, count: number): string {
  let byCount = rowTexts.get(shape)
  if (byCount === undefined) {
    byCount = new Map()
    rowTexts.set(shape, byCount)
  }
  let text = byCount.get(count)
  if (text === undefined) {
    const tuple = `(${shape.columns.map(() => '?').join(', ')})`
    const values = new Array<string>(count).fill(tuple).join(', ')
    text = `${PREPARED}INSERT INTO ${shape.table} (${names(shape)}) VALUES ${values} ${shape.tail}`
    byCount.set(count, text)
  }
  return text
}

/** SQLite's extended result codes for a broken PRIMARY KEY or UNIQUE constraint. */
const SQLITE_KEY_TAKEN = new Set([1555, 2067])

export const sqliteDialect: SqlDialect = {
  name: 'sqlite',
  statementText: (text) => text,
  insertQueries(shape, rows) {
    const queries: ReturnType<SqlDialect['insertQueries']> = []
    for (let i = 0; i < rows.length; i += SQLITE_ROWS) {
      const chunk = rows.slice(i, i + SQLITE_ROWS)
      queries.push(CompiledQuery.raw(rowsText(shape, chunk.length), chunk.flat()))
    }
    return queries
  },
  isKeyTaken(error) {
    const { errcode } = (error ?? {}) as { errcode?: unknown }
    return typeof errcode === 'number' && SQLITE_KEY_TAKEN.has(errcode)
  },
  prepared: (query) => query,
  idIn: (eb, ids) => eb('objects.id', 'in', ids.length > 0 ? [...ids] : ['']),
  plainValue: (property) => sql<string | null>`(objects.fields -> ${`$."${property}"`})`,
  sealedValue: (property) => sql<string | null>`(objects.sealed ->> ${`$."${property}"`})`,
  plainValues: (values) => values,
  withoutMember: (column, member) =>
    sql<string>`json_remove(${sql.ref(column)}, ${`$."${member}"`})`,
  indexConditions: 'resolved-first',
  // SQLite's planner walks `objects_page` for ORDER BY … LIMIT without statistics.
  walkInOrder: (db, walk) => walk(db),
  idsInAll: (query, subqueries) =>
    subqueries.reduce((q, ids) => q.where('objects.id', 'in', ids), query),
  listTables: sql<{
    name: string
  }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`,
  maintainSearchTables: async () => {},
}
