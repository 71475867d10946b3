// src/storage/statements.ts: hand-written SQL for the hottest statements, run without Kysely's query builder
import type { Kysely } from 'kysely'
import { type Dialect, PREPARED } from './database.ts'
import { CompiledQuery } from './kysely.ts'
import type { Tables } from './schema.ts'

/**
 * Building and compiling a query with Kysely costs 10–20 µs, several times what SQLite takes to
 * run a small statement (bench/tokens.ts). The few queries every call runs (key lookup, Admin key)
 * are written once as SQL; inserts use repos/rows.ts. They still run through the Kysely instance
 * or transaction they are given, so connections, transactions and SQL tracing are unchanged.
 */
export type Statements = Readonly<{
  dialect: Dialect
  /**
   * Runs `text`, written with `?` placeholders (PostgreSQL gets `$1…$n`, converted once, and runs
   * it as a named prepared statement: database.ts PREPARED). List result columns, never `*`.
   */
  query<Row>(db: Kysely<Tables>, text: string, parameters: readonly unknown[]): Promise<Row[]>
}>

export function createStatements(dialect: Dialect): Statements {
  const placeholder = dialect === 'sqlite' ? () => '?' : (n: number) => `$${n}`
  const converted = new Map<string, string>()

  async function run<Row>(db: Kysely<Tables>, text: string, parameters: unknown[]) {
    return (await db.executeQuery<Row>(CompiledQuery.raw(text, parameters))).rows as Row[]
  }

  return {
    dialect,
    query(db, text, parameters) {
      let sqlText = converted.get(text)
      if (sqlText === undefined) {
        let n = 0
        sqlText = text.replace(/\?/g, () => placeholder(++n))
        if (dialect === 'postgres') sqlText = PREPARED + sqlText
        converted.set(text, sqlText)
      }
      return run(db, sqlText, [...parameters])
    },
  }
}
