// src/storage/database.ts: opens SQLite (node:sqlite) or PostgreSQL (pg) as a Kysely instance with its dialect object
import type { OpenDatabase, OpenOptions } from './dialects/dialect.ts'
import { openPostgres } from './dialects/postgres.ts'
import { openSqlite } from './dialects/sqlite.ts'

export type DatabaseOptions =
  | {
      readonly kind: 'sqlite'
      readonly file: string // ':memory:' for in-memory mode
      /** FULL (default) syncs the WAL at every commit; NORMAL may lose the last commits on power loss. */
      readonly synchronous?: 'full' | 'normal'
      /** The page cache's limit in bytes (8 MiB when not given). */
      readonly cacheBytes?: number
    }
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
      /** A statement unanswered this long fails and its connection is closed. */
      readonly queryTimeoutMs?: number
      /** The call timeout: how long a call may wait for a connection. */
      readonly callTimeoutMs?: number
      /**
       * Named prepared statements for the hot texts (default true). False for a pooler that does
       * not keep them across transactions (PgBouncer before 1.21 in transaction mode); with true,
       * such a pooler is detected and the pool switches to unnamed statements (pg-prepared.ts).
       */
      readonly preparedStatements?: boolean
    }

/**
 * The one place that knows which engine is in use: everything else works on the Kysely instance
 * and asks the dialect object (dialects/sqlite.ts, dialects/postgres.ts) what differs.
 */
export function openDatabase(
  options: DatabaseOptions,
  openOptions: OpenOptions = {},
): OpenDatabase {
  return options.kind === 'sqlite'
    ? openSqlite(options.file, openOptions, options)
    : openPostgres(options, openOptions)
}
