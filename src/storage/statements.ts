// src/storage/statements.ts: hand-written SQL for the hottest statements, run without Kysely's query builder
import { CompiledQuery, type Kysely } from 'kysely'
import type { Dialect } from './database.ts'
import type { Tables } from './schema.ts'

/**
 * Building and compiling a query with Kysely costs 10–20 µs, several times what SQLite takes to
 * run a small statement (bench/tokens.ts). The few statements every call runs (audit insert, key
 * lookup, token insert) are written once as SQL; they still run through the Kysely instance or
 * transaction they are given, so connections, transactions and SQL tracing are unchanged.
 */
export type Statements = Readonly<{
  /** Runs `text`, written with `?` placeholders (PostgreSQL gets `$1…$n`, converted once). */
  query<Row>(db: Kysely<Tables>, text: string, parameters: readonly unknown[]): Promise<Row[]>
  /** `insert into table (columns) values (…), (…) suffix` for every row of `values`. */
  insert<Row>(
    db: Kysely<Tables>,
    table: string,
    columns: readonly string[],
    values: readonly (readonly unknown[])[],
    suffix?: string,
  ): Promise<Row[]>
}>

/** Distinct insert shapes kept (table × columns × row count × suffix). */
const MAX_CACHED = 1000

export function createStatements(dialect: Dialect): Statements {
  const texts = new Map<string, string>()
  const placeholder = dialect === 'sqlite' ? () => '?' : (n: number) => `$${n}`

  function cached(key: string, build: () => string): string {
    let text = texts.get(key)
    if (text === undefined) {
      text = build()
      if (texts.size >= MAX_CACHED) texts.clear()
      texts.set(key, text)
    }
    return text
  }

  async function run<Row>(db: Kysely<Tables>, text: string, parameters: unknown[]) {
    return (await db.executeQuery<Row>(CompiledQuery.raw(text, parameters))).rows as Row[]
  }

  return {
    query(db, text, parameters) {
      let n = 0
      const converted = cached(text, () => text.replace(/\?/g, () => placeholder(++n)))
      return run(db, converted, [...parameters])
    },
    insert(db, table, columns, values, suffix = '') {
      const key = `${table}\u0000${columns.join(',')}\u0000${values.length}\u0000${suffix}`
      const text = cached(key, () => {
        const names = columns.map((column) => `"${column}"`).join(', ')
        let n = 0
        const rows = values.map(() => `(${columns.map(() => placeholder(++n)).join(', ')})`)
        return `insert into "${table}" (${names}) values ${rows.join(', ')}${suffix}`
      })
      return run(db, text, values.flat())
    },
  }
}
