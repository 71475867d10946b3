// src/storage/repos/rows.ts: INSERTs of one or many rows (objects, entries, tokens, audit), SQL built once per shape
import type { Kysely } from 'kysely'
import { KeyTaken } from '../../core/objects/store.ts'
import { type Dialect, PREPARED } from '../database.ts'
import { CompiledQuery } from '../kysely.ts'
import type { Tables } from '../schema.ts'

/**
 * One INSERT shape: the table, its columns (with their PostgreSQL types) and what follows the
 * rows (`ON CONFLICT …`, `RETURNING …`), identical in both dialects.
 */
export type RowsShape = Readonly<{
  table: keyof Tables
  columns: readonly (readonly [name: string, pgType: string])[]
  tail: string
}>

/** SQLite's limit on parameters per statement is 32,766; rows per statement stay well below it. */
const SQLITE_ROWS = 500

/**
 * Inserts `rows` (values in the shape's column order) and returns what `RETURNING` gives.
 *
 * Bulk writes of objects spent more time in Kysely building and compiling multi-row INSERTs
 * (thousands of value nodes per call) than SQLite spent storing the rows. The SQL text here is
 * built once per shape (and, on SQLite, per row count; the statement cache then holds it
 * prepared). PostgreSQL gets one statement per call whatever the row count: the columns travel
 * as arrays and `unnest` turns them back into rows, so the server parses and plans a statement of
 * a few parameters instead of one with thousands, once per connection (a prepared statement).
 * A single row (every call's audit record) goes as plain VALUES instead.
 */
export function createRowsInserter(db: Kysely<Tables>, dialect: Dialect) {
  return async function insertRows<R>(
    shape: RowsShape,
    rows: readonly (readonly unknown[])[],
  ): Promise<R[]> {
    if (rows.length === 0) return []
    if (dialect === 'postgres') {
      const [first] = rows
      const query =
        rows.length === 1 && first !== undefined
          ? CompiledQuery.raw(postgresRowText(shape), [...first])
          : CompiledQuery.raw(
              postgresText(shape),
              shape.columns.map((_, j) => arrayLiteral(rows, j)),
            )
      const result = await db.executeQuery<R>(query)
      return result.rows as R[]
    }
    const out: R[] = []
    for (let i = 0; i < rows.length; i += SQLITE_ROWS) {
      const chunk = rows.slice(i, i + SQLITE_ROWS)
      const result = await db.executeQuery<R>(
        CompiledQuery.raw(sqliteText(shape, chunk.length), chunk.flat()),
      )
      for (const row of result.rows) out.push(row)
    }
    return out
  }
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

const postgresTexts = new WeakMap<RowsShape, string>()

function postgresText(shape: RowsShape): string {
  return cachedText(postgresTexts, shape, () => {
    const arrays = shape.columns.map(([, type], j) => `$${j + 1}::${type}[]`).join(', ')
    return `${PREPARED}INSERT INTO ${shape.table} (${names(shape)}) SELECT * FROM unnest(${arrays}) ${shape.tail}`
  })
}

const postgresRowTexts = new WeakMap<RowsShape, string>()

/** One row (every call's audit record, a single object): plain VALUES, no arrays to build or parse. */
function postgresRowText(shape: RowsShape): string {
  return cachedText(postgresRowTexts, shape, () => {
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

const sqliteTexts = new WeakMap<RowsShape, Map<number, string>>()

function sqliteText(shape: RowsShape, count: number): string {
  let byCount = sqliteTexts.get(shape)
  if (byCount === undefined) {
    byCount = new Map()
    sqliteTexts.set(shape, byCount)
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

export type RowsInserter = ReturnType<typeof createRowsInserter>

/** SQLite's extended result codes for a broken PRIMARY KEY or UNIQUE constraint. */
const SQLITE_KEY_TAKEN = new Set([1555, 2067])

/** A duplicate key: PostgreSQL's unique_violation, or SQLite's key constraint codes. */
function isKeyTaken(error: unknown): boolean {
  const { code, errcode } = (error ?? {}) as { code?: unknown; errcode?: unknown }
  return code === '23505' || (typeof errcode === 'number' && SQLITE_KEY_TAKEN.has(errcode))
}

/** `insertRows` for rows expected to be new: a duplicate key throws KeyTaken. */
export function newRowsInserter(insertRows: RowsInserter) {
  return async function insertNewRows(shape: RowsShape, rows: readonly (readonly unknown[])[]) {
    try {
      await insertRows(shape, rows)
    } catch (error) {
      if (isKeyTaken(error)) throw new KeyTaken(`a key of ${shape.table} is taken`)
      throw error
    }
  }
}
