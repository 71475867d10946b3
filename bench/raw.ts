// bench/raw.ts: the raw engine's own insert rate for the rows the vault wrote (same tables, same indexes)
import { readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import pg from 'pg'
import { pgAdmin } from './server.ts'

const TABLES = ['objects', 'object_index', 'object_unique', 'substring_pending'] as const
type Row = Record<string, unknown>
type Rows = Record<(typeof TABLES)[number], Row[][]>

const migration = (dialect: string) =>
  readFileSync(
    new URL(`../src/storage/migrations/${dialect}/0004-objects.sql`, import.meta.url),
    'utf8',
  )

/** The rows of the first `count` objects, and their index, claim and queue rows, per batch of `batch` objects. */
function group(objects: Row[], related: Record<string, Row[]>, batch: number): Rows {
  const batchOf = new Map(objects.map((o, i) => [o.id as string, Math.floor(i / batch)]))
  const batches = Math.ceil(objects.length / batch)
  const split = (rows: Row[]) => {
    const out: Row[][] = Array.from({ length: batches }, () => [])
    for (const row of rows) out[batchOf.get(row.object_id as string) ?? 0]?.push(row)
    return out
  }
  return {
    objects: Array.from({ length: batches }, (_, b) => objects.slice(b * batch, (b + 1) * batch)),
    object_index: split(related.object_index ?? []),
    object_unique: split(related.object_unique ?? []),
    substring_pending: split(related.substring_pending ?? []),
  }
}

function readSqlite(file: string, count: number, batch: number): Rows {
  const source = new DatabaseSync(file, { readOnly: true })
  const objects = source
    .prepare('SELECT * FROM objects ORDER BY created_at, id LIMIT ?')
    .all(count) as Row[]
  const ids = 'SELECT id FROM objects ORDER BY created_at, id LIMIT ?'
  const related: Record<string, Row[]> = {}
  for (const table of TABLES.slice(1))
    related[table] = source
      .prepare(`SELECT * FROM ${table} WHERE object_id IN (${ids})`)
      .all(count) as Row[]
  source.close()
  return group(objects, related, batch)
}

/** node:sqlite, WAL, one prepared single-row INSERT per table, one transaction per batch. */
export async function rawSqliteRate(file: string, count: number, batch = 1000): Promise<number> {
  const rows = readSqlite(file, count, batch)
  const dir = await mkdtemp(join(tmpdir(), 'strongroom-raw-'))
  const db = new DatabaseSync(join(dir, 'raw.db'))
  // The same settings as the vault's SQLite (src/storage/database.ts).
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;')
  db.exec('PRAGMA cache_size = -65536; PRAGMA wal_autocheckpoint = 10000;')
  db.exec(migration('sqlite'))
  const statements = Object.fromEntries(
    TABLES.map((table) => {
      const columns = Object.keys(rows[table].find((b) => b.length > 0)?.[0] ?? {})
      const sql = `INSERT INTO ${table} (${columns.join(',')}) VALUES (${columns.map(() => '?').join(',')})`
      return [table, { columns, statement: columns.length ? db.prepare(sql) : undefined }]
    }),
  )
  const started = performance.now()
  for (let b = 0; b < rows.objects.length; b++) {
    db.exec('BEGIN')
    for (const table of TABLES) {
      const { columns, statement } = statements[table] ?? { columns: [] }
      for (const row of rows[table][b] ?? []) statement?.run(...columns.map((c) => row[c] as never))
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
  for (const table of TABLES.slice(1))
    related[table] = (
      await client.query(`SELECT * FROM ${table} WHERE object_id IN (${ids})`, [count])
    ).rows
  await client.end()
  return group(objects, related, batch)
}

async function insertMany(client: pg.Client, table: string, rows: Row[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) {
    const chunk = rows.slice(i, i + 500)
    const columns = Object.keys(chunk[0] ?? {})
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

/** pg, multi-row INSERTs of 500 rows per table, one transaction per batch. */
export async function rawPostgresRate(
  sourceUrl: string,
  count: number,
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
    for (const table of TABLES) await insertMany(client, table, rows[table][b] ?? [])
    await client.query('COMMIT')
  }
  const seconds = (performance.now() - started) / 1000
  await client.end()
  await pgAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  return count / seconds
}
