// src/storage/statements.ts: hand-written SQL for the hottest statements, run without Kysely's query builder
import type { Kysely } from 'kysely'
import type { SqlDialect } from './dialects/dialect.ts'
import { CompiledQuery } from './kysely.ts'
import type { Tables } from './schema.ts'

/**
 * Building and compiling a query with Kysely costs 10–20 µs, several times what SQLite takes to
 * run a small statement (bench/tokens.ts). The few queries every call runs (key lookup, Admin key)
 * are written once as SQL; inserts use repos/rows.ts. They still run through the Kysely instance
 * or transaction they are given, so connections, transactions and SQL tracing are unchanged.
 */
export type Statements = Readonly<{
  dialect: SqlDialect
  /**
   * Runs `text`, written with `?` placeholders, as the dialect writes it (PostgreSQL: `$1…$n`,
   * run as a named prepared statement). List result columns, never `*`.
   */
  query<Row>(db: Kysely<Tables>, text: string, parameters: readonly unknown[]): Promise<Row[]>
}>

export function createStatements(dialect: SqlDialect): Statements {
  return {
    dialect,
    async query<Row>(db: Kysely<Tables>, text: string, parameters: readonly unknown[]) {
      const query = CompiledQuery.raw(dialect.statementText(text), [...parameters])
      return (await db.executeQuery<Row>(query)).rows as Row[]
    },
  }
}
