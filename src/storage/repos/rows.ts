// src/storage/repos/rows.ts: INSERTs of one or many rows (objects, entries, tokens, audit), SQL built once per shape
import type { Kysely } from 'kysely'
import { KeyTaken } from '../../core/objects/store.ts'
import type { RowsShape, SqlDialect } from '../dialects/dialect.ts'
import type { Tables } from '../schema.ts'

/**
 * Inserts `rows` (values in the shape's column order) and returns what `RETURNING` gives.
 *
 * Bulk writes of objects spent more time in Kysely building and compiling multi-row INSERTs
 * (thousands of value nodes per call) than SQLite spent storing the rows. The dialect builds the
 * SQL text once per shape (SQLite: per row count too, then cached prepared; PostgreSQL: one
 * statement whatever the row count, the columns as arrays).
 */
export function createRowsInserter(db: Kysely<Tables>, dialect: SqlDialect) {
  return async function insertRows<R>(
    shape: RowsShape,
    rows: readonly (readonly unknown[])[],
  ): Promise<R[]> {
    const out: R[] = []
    for (const query of dialect.insertQueries(shape, rows)) {
      const result = await db.executeQuery<R>(query)
      for (const row of result.rows) out.push(row)
    }
    return out
  }
}

export type RowsInserter = ReturnType<typeof createRowsInserter>

/** `insertRows` for rows expected to be new: a duplicate key throws KeyTaken. */
export function newRowsInserter(insertRows: RowsInserter, dialect: SqlDialect) {
  return async function insertNewRows(shape: RowsShape, rows: readonly (readonly unknown[])[]) {
    try {
      await insertRows(shape, rows)
    } catch (error) {
      if (dialect.isKeyTaken(error)) throw new KeyTaken(`a key of ${shape.table} is taken`)
      throw error
    }
  }
}
