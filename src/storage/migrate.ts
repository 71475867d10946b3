// src/storage/migrate.ts: applies migrations/<dialect>/NNNN-*.sql in order, each once, safe when nodes start together
import { readdirSync, readFileSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Kysely } from 'kysely'
import type { DialectName, SqlDialect } from './dialects/dialect.ts'
import { sql } from './kysely.ts'
import type { Tables } from './schema.ts'

export type Migration = { readonly version: number; readonly name: string; readonly sql: string }

export type MigrateOptions = {
  readonly enableRetries: boolean
  readonly initialWaitMs: number
  readonly maxWaitMs: number
  readonly maxRetries: number
  readonly enableCleanDatabaseValidation: boolean
}

export const DEFAULT_MIGRATE_OPTIONS: MigrateOptions = {
  enableRetries: true,
  initialWaitMs: 20,
  maxWaitMs: 5000,
  maxRetries: 25,
  enableCleanDatabaseValidation: true,
}

export class MigrationError extends Error {}

export function loadMigrations(dialect: DialectName): Migration[] {
  const dir = new URL(`./migrations/${dialect}/`, import.meta.url)
  return readdirSync(dir)
    .filter((file) => /^\d{4}-[a-z0-9-]+\.sql$/.test(file))
    .sort()
    .map((file) => ({
      version: Number(file.slice(0, 4)),
      name: file.slice(5, -4),
      sql: readFileSync(new URL(file, dir), 'utf8'),
    }))
}

/** The highest migration version shipped with this build. */
export function latestVersion(dialect: DialectName): number {
  return loadMigrations(dialect).at(-1)?.version ?? 0
}

async function ensureMigrationsTable(
  db: Kysely<Tables>,
  dialect: SqlDialect,
  options: MigrateOptions,
) {
  const tables = (await dialect.listTables.execute(db)).rows.map((row) => row.name)
  if (tables.includes('schema_migrations')) return
  if (options.enableCleanDatabaseValidation && tables.length > 0) {
    throw new MigrationError(
      `the database is not empty and has no schema_migrations table (found ${tables.slice(0, 5).join(', ')}); refusing to migrate it (SVC_DB_MIGRATION_ENABLE_CLEAN_DATABASE_VALIDATION)`,
    )
  }
  await sql`CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`.execute(
    db,
  )
}

/**
 * Applies one migration inside a transaction that first claims its row. On PostgreSQL a second
 * node inserting the same version waits on the first one's uncommitted row and then sees the
 * conflict, so each migration runs exactly once without advisory locks (DESIGN: no advisory locks).
 */
async function applyOne(db: Kysely<Tables>, migration: Migration): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const claimed = await trx
      .insertInto('schema_migrations')
      .values({ version: migration.version, name: migration.name, applied_at: Date.now() * 1000 })
      .onConflict((oc) => oc.column('version').doNothing())
      .returning('version')
      .executeTakeFirst()
    if (claimed === undefined) return false
    for (const statement of splitStatements(migration.sql)) await sql.raw(statement).execute(trx)
    return true
  })
}

/** Splits a migration file into statements; migrations contain no semicolons inside literals. */
export function splitStatements(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('--'))
    .join('\n')
    .split(';')
    .map((statement) => statement.trim())
    .filter((statement) => statement.length > 0)
}

async function migrateOnce(db: Kysely<Tables>, dialect: SqlDialect, options: MigrateOptions) {
  await ensureMigrationsTable(db, dialect, options)
  const applied: number[] = []
  for (const migration of loadMigrations(dialect.name)) {
    if (await applyOne(db, migration)) applied.push(migration.version)
  }
  return applied
}

/**
 * Brings the database to the latest version. Races between nodes (two CREATE TABLE IF NOT EXISTS
 * at once can still collide in the catalogue) are retried with exponential backoff.
 */
export async function migrate(
  db: Kysely<Tables>,
  dialect: SqlDialect,
  options: MigrateOptions = DEFAULT_MIGRATE_OPTIONS,
): Promise<number[]> {
  let wait = options.initialWaitMs
  for (let attempt = 0; ; attempt++) {
    try {
      return await migrateOnce(db, dialect, options)
    } catch (error) {
      if (error instanceof MigrationError) throw error
      if (!options.enableRetries || attempt >= options.maxRetries) throw error
      await sleep(wait * (0.5 + Math.random()))
      wait = Math.min(wait * 2, options.maxWaitMs)
    }
  }
}

export async function currentVersion(db: Kysely<Tables>): Promise<number> {
  const row = await db
    .selectFrom('schema_migrations')
    .select((eb) => eb.fn.max('version').as('version'))
    .executeTakeFirst()
  return Number(row?.version ?? 0)
}
