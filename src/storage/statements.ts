// src/storage/statements.ts: hand-written SQL for the hottest statements, run without Kysely's query builder
import type { Kysely } from 'kysely'
import type { Dialect } from './database.ts'
import { CompiledQuery } from './kysely.ts'
import type { Tables } from './schema.ts'

/**
 * Building and compiling a query with Kysely costs 10–20 µs, several times what SQLite takes to
 * run a small statement (bench/tokens.ts). The few statements every call runs (audit insert, key
 * lookup, token insert) are written once as SQL; they still run through the Kysely instance or
 * transaction they are given, so connections, transactions and SQL tracing are unchanged.
 */
/** An insert's table, columns and optional tail (`on conflict …`); declare it once, as a constant. */
export type InsertShape = Readonly<{
  table: string
  columns: readonly string[]
  suffix?: string
  /** SQL text by dialect and row count, filled as statements are run. */
  texts: Map<string, string>
}>

export function insertShape(table: string, columns: readonly string[], suffix = ''): InsertShape {
  return { table, columns, suffix, texts: new Map() }
}

export type Statements = Readonly<{
  /** Runs `text`, written with `?` placeholders (PostgreSQL gets `$1…$n`, converted once). */
  query<Row>(db: Kysely<Tables>, text: string, parameters: readonly unknown[]): Promise<Row[]>
  /** `insert into table (columns) values (…), (…) suffix` for every row of `values`. */
  insert<Row>(
    db: Kysely<Tables>,
    shape: InsertShape,
    values: readonly (readonly unknown[])[],
  ): Promise<Row[]>
}>

/** Row counts vary with the request: keep at most this many texts per shape. */
const MAX_TEXTS = 500

export function createStatements(dialect: Dialect): Statements {
  const placeholder = dialect === 'sqlite' ? () => '?' : (n: number) => `$${n}`
  const converted = new Map<string, string>()

  function insertText(shape: InsertShape, count: number): string {
    const key = `${dialect}${count}`
    let text = shape.texts.get(key)
    if (text === undefined) {
      const names = shape.columns.map((column) => `"${column}"`).join(', ')
      let n = 0
      const rows = Array.from(
        { length: count },
        () => `(${shape.columns.map(() => placeholder(++n)).join(', ')})`,
      )
      text = `insert into "${shape.table}" (${names}) values ${rows.join(', ')}${shape.suffix ?? ''}`
      if (shape.texts.size >= MAX_TEXTS) shape.texts.clear()
      shape.texts.set(key, text)
    }
    return text
  }

  async function run<Row>(db: Kysely<Tables>, text: string, parameters: unknown[]) {
    return (await db.executeQuery<Row>(CompiledQuery.raw(text, parameters))).rows as Row[]
  }

  return {
    query(db, text, parameters) {
      let sqlText = converted.get(text)
      if (sqlText === undefined) {
        let n = 0
        sqlText = text.replace(/\?/g, () => placeholder(++n))
        converted.set(text, sqlText)
      }
      return run(db, sqlText, [...parameters])
    },
    insert(db, shape, values) {
      return run(db, insertText(shape, values.length), values.flat())
    },
  }
}
