// bench/raw.ts: the raw engine's own insert rate for the rows the vault wrote (same tables, same indexes)
import { readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync, type StatementSync } from 'node:sqlite'
import pg from 'pg'
import { pgAdmin } from './server.ts'

const TABLES = ['objects', 'object_index', 'object_unique', 'substring_queue'] as const
type Row = Record<string, unknown>
type Rows = Record<(typeof TABLES)[number], Row[][]>

/** The tables the bulk path writes: 0004 (objects, index entries, claims), 0009 (the queue). */
const migration = (dialect: string) =>
  ['0004-objects.sql', '0009-substring-queue.sql']
    .map((file) =>
      readFileSync(
        new URL(`../src/storage/migrations/${dialect}/${file}`, import.meta.url),
        'utf8',
      ),
    )
    .join('\n')

/** The object a row belongs to: its `object_id`, or a queue row's first queued object. */
const objectOf = (row: Row) =>
  (row.object_id as string | undefined) ?? (JSON.parse(row.object_ids as string)[0] as string)

/** The rows of the first `count` objects, and their index, claim and queue rows, per batch of `batch` objects. */
function group(objects: Row[], related: Record<string, Row[]>, batch: number): Rows {
  const batchOf = new Map(objects.map((o, i) => [o.id as string, Math.floor(i / batch)]))
  const batches = Math.ceil(objects.length / batch)
  const split = (rows: Row[]) => {
    const out: Row[][] = Array.from({ length: batches }, () => [])
    for (const row of rows) {
      const b = batchOf.get(objectOf(row))
      if (b !== undefined) out[b]?.push(row)
    }
    return out
  }
  return {
    objects: Array.from({ length: batches }, (_, b) => objects.slice(b * batch, (b + 1) * batch)),
    object_index: split(related.object_index ?? []),
    object_unique: split(related.object_unique ?? []),
    substring_queue: split(related.substring_queue ?? []),
  }
}

function readSqlite(file: string, count: number, batch: number): Rows {
  const source = new DatabaseSync(file, { readOnly: true })
  const objects = source
    .prepare('SELECT * FROM objects ORDER BY created_at, id LIMIT ?')
    .all(count) as Row[]
  const ids = 'SELECT id FROM objects ORDER BY created_at, id LIMIT ?'
  const related: Record<string, Row[]> = {}
  for (const table of TABLES.slice(1, 3))
    related[table] = source
      .prepare(`SELECT * FROM ${table} WHERE object_id IN (${ids})`)
      .all(count) as Row[]
  related.substring_queue = source.prepare('SELECT * FROM substring_queue').all() as Row[]
  source.close()
  return group(objects, related, batch)
}

export type RawMethod = 'single' | 'multi'

/** Rows per multi-row INSERT: the vault's own statement size (src/storage/repos/rows.ts). */
const MULTI_ROWS = 500

/**
 * node:sqlite, WAL, one transaction per batch. `single`: one prepared single-row INSERT per
 * table, run once per row (the textbook way); `multi`: prepared INSERTs of up to 500 rows
 * (what the vault does since issue 4).
 */
export async function rawSqliteRate(
  file: string,
  count: number,
  method: RawMethod,
  batch = 1000,
): Promise<number> {
  const rows = readSqlite(file, count, batch)
  const dir = await mkdtemp(join(tmpdir(), 'strongroom-raw-'))
  const db = new DatabaseSync(join(dir, 'raw.db'))
  // The same settings as the vault's SQLite (src/storage/database.ts).
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;')
  db.exec('PRAGMA cache_size = -65536; PRAGMA wal_autocheckpoint = 10000;')
  db.exec(migration('sqlite'))
  const columnsOf = (table: string) =>
    Object.keys(rows[table as keyof Rows].find((b) => b.length > 0)?.[0] ?? {})
  const statements = new Map<string, StatementSync>()
  const statement = (table: string, columns: string[], count: number) => {
    const key = `${table}:${count}`
    let prepared = statements.get(key)
    if (prepared === undefined) {
      const tuple = `(${columns.map(() => '?').join(',')})`
      const values = Array.from({ length: count }, () => tuple).join(',')
      prepared = db.prepare(`INSERT INTO ${table} (${columns.join(',')}) VALUES ${values}`)
      statements.set(key, prepared)
    }
    return prepared
  }
  const started = performance.now()
  for (let b = 0; b < rows.objects.length; b++) {
    db.exec('BEGIN')
    for (const table of TABLES) {
      const columns = columnsOf(table)
      const all = rows[table][b] ?? []
      const size = method === 'single' ? 1 : MULTI_ROWS
      for (let i = 0; i < all.length; i += size) {
        const chunk = all.slice(i, i + size)
        const values = chunk.flatMap((row) => columns.map((c) => row[c]))
        statement(table, columns, chunk.length).run(...(values as never[]))
      }
    }
    db.exec('COMMIT')
  }
  const seconds = (performance.now() - started) / 1000
  db.close()
  await rm(dir, { recursive: true, force: true })
  return count / seconds
}

async function readPostgres(url: string, count: number, batch: number): Promise<Rows> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  const objects = (
    await client.query('SELECT * FROM objects ORDER BY created_at, id LIMIT $1', [count])
  ).rows
  const ids = 'SELECT id FROM objects ORDER BY created_at, id LIMIT $1'
  const related: Record<string, Row[]> = {}
  for (const table of TABLES.slice(1, 3))
    related[table] = (
      await client.query(`SELECT * FROM ${table} WHERE object_id IN (${ids})`, [count])
    ).rows
  related.substring_queue = (await client.query('SELECT * FROM substring_queue')).rows
  await client.end()
  return group(objects, related, batch)
}

/** PostgreSQL types of the columns, for unnest. */
const PG_TYPES: Record<string, string> = {
  created_at: 'bigint',
  modified_at: 'bigint',
  expires_at: 'bigint',
  queued_at: 'bigint',
  object_count: 'integer',
  version: 'integer',
  digest: 'bytea',
}

/** `multi`: INSERTs of 500 rows of VALUES; `unnest`: one INSERT per table, columns as arrays. */
export type RawPgMethod = 'multi' | 'unnest'

async function insertMany(
  client: pg.Client,
  table: string,
  rows: Row[],
  method: RawPgMethod,
): Promise<void> {
  const columns = Object.keys(rows[0] ?? {})
  if (columns.length === 0) return
  if (method === 'unnest') {
    const arrays = columns.map((c, j) => `$${j + 1}::${PG_TYPES[c] ?? 'text'}[]`)
    await client.query(
      `INSERT INTO ${table} (${columns.join(',')}) SELECT * FROM unnest(${arrays.join(',')})`,
      columns.map((c) => rows.map((row) => row[c])),
    )
    return
  }
  for (let i = 0; i < rows.length; i += MULTI_ROWS) {
    const chunk = rows.slice(i, i + MULTI_ROWS)
    const values: unknown[] = []
    const tuples = chunk.map(
      (row) => `(${columns.map((c) => `$${values.push(row[c])}`).join(',')})`,
    )
    await client.query(
      `INSERT INTO ${table} (${columns.join(',')}) VALUES ${tuples.join(',')}`,
      values,
    )
  }
}

/** pg, one transaction per batch, rows inserted by `method` per table. */
export async function rawPostgresRate(
  sourceUrl: string,
  count: number,
  method: RawPgMethod,
  batch = 1000,
): Promise<number> {
  const rows = await readPostgres(sourceUrl, count, batch)
  const name = `strongroom_raw_${Date.now()}`
  await pgAdmin(`CREATE DATABASE ${name}`)
  const client = new pg.Client({ connectionString: sourceUrl.replace(/\/[^/]*$/, `/${name}`) })
  await client.connect()
  await client.query(migration('postgres'))
  const started = performance.now()
  for (let b = 0; b < rows.objects.length; b++) {
    await client.query('BEGIN')
    for (const table of TABLES) await insertMany(client, table, rows[table][b] ?? [], method)
    await client.query('COMMIT')
  }
  const seconds = (performance.now() - started) / 1000
  await client.end()
  await pgAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  return count / seconds
}
