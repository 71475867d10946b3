// src/storage/dialects/dialect.ts: what differs between SQLite and PostgreSQL, as one object per engine (sqlite.ts, postgres.ts)
import type {
  CompiledQuery,
  Expression,
  ExpressionBuilder,
  Kysely,
  LogEvent,
  RawBuilder,
  SelectQueryBuilder,
  SqlBool,
} from 'kysely'
import type { Tables } from '../schema.ts'

export type DialectName = 'sqlite' | 'postgres'

/**
 * SQL texts that begin with this comment run as named prepared statements on PostgreSQL (unless
 * SVC_DB_PREPARED_STATEMENTS=false or a pooler was found, pg-prepared.ts): each connection
 * parses the text once, and the server may keep its plan (`plan_cache_mode` auto).
 * For the few fixed statements every call runs (key lookup, audit insert, row inserts), this
 * halves a round trip (~0.3 → ~0.15 ms on the benchmark machine). Only texts whose plan does not
 * depend on the parameters' values, and whose result columns are listed (a cached `SELECT *`
 * fails once a migration adds a column), may carry it. SQLite prepares every text anyway.
 */
export const PREPARED = '/* prepared */ '

/**
 * One INSERT shape: the table, its columns (with their PostgreSQL types) and what follows the
 * rows (`ON CONFLICT …`, `RETURNING …`), identical in both dialects.
 */
export type RowsShape = Readonly<{
  table: keyof Tables
  columns: readonly (readonly [name: string, pgType: string])[]
  tail: string
}>

type ObjectsQuery = SelectQueryBuilder<Tables, 'objects', object>

/**
 * Everything the repositories do differently per engine. Repositories hold no engine tests of
 * their own: they ask this object, chosen once by storage/database.ts.
 */
export type SqlDialect = Readonly<{
  name: DialectName
  /** A hand-written statement (`?` placeholders, statements.ts) as this engine runs it. */
  statementText(text: string): string
  /** The statements that insert `rows` (values in the shape's column order), in order. */
  insertQueries(shape: RowsShape, rows: readonly (readonly unknown[])[]): CompiledQuery[]
  /** Whether a driver error reports a taken primary key or unique value. */
  isKeyTaken(error: unknown): boolean
  /** A search statement whose plan does not depend on its values (PostgreSQL prepares it). */
  prepared<R>(query: CompiledQuery<R>): CompiledQuery<R>
  /** `objects.id` among `ids`. */
  idIn(eb: ExpressionBuilder<Tables, 'objects'>, ids: readonly string[]): Expression<SqlBool>
  /** A plain property's value in `objects.fields`, as JSON text; SQL null when absent. */
  plainValue(property: string): RawBuilder<string | null>
  /** An encrypted property's sealed value (base64) in `objects.sealed`; SQL null when absent. */
  sealedValue(property: string): RawBuilder<string | null>
  /** Equality values (JSON texts) in the form `plainValue` answers them. */
  plainValues(values: readonly string[]): readonly string[]
  /** A JSON object column without one of its members. */
  withoutMember(column: string, member: string): RawBuilder<string>
  /**
   * How a search uses its index conditions (blind-index digests, n-grams). `resolved-first`
   * (SQLite): their ids are read and intersected in code before the search, so it starts from
   * its few matches instead of walking the collection in creation order, and a small id set is
   * ordered in code. `intersected-in-sql` (PostgreSQL): one statement, the conditions
   * intersected in a subquery (`idsInAll`).
   */
  indexConditions: 'resolved-first' | 'intersected-in-sql'
  /** Narrows a search to the rows whose id every subquery selects (`intersected-in-sql`). */
  idsInAll(query: ObjectsQuery, subqueries: readonly IdQuery[]): ObjectsQuery
  /**
   * Runs a keyset walk (rows in creation order after a position, no index condition) so that it
   * reads the page index in order whatever the engine's statistics say (PostgreSQL: sorts are
   * disabled for the walk's own statements; see postgres.ts).
   */
  walkInOrder<T>(db: Kysely<Tables>, walk: (db: Kysely<Tables>) => Promise<T>): Promise<T>
  /** The tables of the current schema (the migrator's clean-database check). */
  listTables: RawBuilder<{ name: string }>
  /**
   * After many objects were (re)indexed for substring search: lets the engine catch up on what
   * its query plans and index-only scans rely on. Nothing it does changes what a query returns.
   */
  maintainSearchTables(db: Kysely<Tables>): Promise<void>
}>

/** A subquery selecting object ids (`object_id` of the index tables). */
export type IdQuery = SelectQueryBuilder<
  Tables,
  'object_index' | 'object_ngrams',
  { object_id: string }
>

/**
 * Called after every statement, with its error when it failed: SQL tracing (SVC_DB_TRACE_SQL,
 * confvar trace_sql), statement spans, error counts and the tests of the SQL each engine runs.
 * `parameters` hold values: tracing, spans and metrics never use them.
 */
export type QueryObserver = (
  sql: string,
  durationMs: number,
  parameters: readonly unknown[],
  error?: unknown,
) => void

export type OpenOptions = {
  readonly onQuery?: QueryObserver
  /** What the operator should know about the database connection (a pooler found, …). */
  readonly onWarning?: (message: string) => void
}

/** Kysely's `log` option for an observer. */
export function kyselyLog(options: OpenOptions) {
  const { onQuery } = options
  if (onQuery === undefined) return undefined
  return (event: LogEvent) => {
    if (event.level === 'query')
      onQuery(event.query.sql, event.queryDurationMillis, event.query.parameters)
    else onQuery(event.query.sql, event.queryDurationMillis, event.query.parameters, event.error)
  }
}

export type OpenDatabase = {
  readonly db: Kysely<Tables>
  readonly dialect: SqlDialect
  readonly isMemory: boolean
  /** A short description for start-up logs, without secrets. */
  readonly description: string
  /** PostgreSQL's pool counts (metrics); SQLite has no pool. */
  readonly poolStats?: () => PoolStats | undefined
  /** Frees what the engine caches in this process (SQLite's page cache); refilled on demand. */
  readonly releaseMemory?: () => Promise<void>
  /** Resolves once every commit so far is durable; absent where a commit is durable at once. */
  readonly synced?: () => Promise<void>
}

/** Connections of the PostgreSQL pool; undefined before the pool exists. */
export type PoolStats = { readonly total: number; readonly idle: number; readonly waiting: number }
