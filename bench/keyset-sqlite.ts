// bench/keyset-sqlite.ts: raw node:sqlite, the two forms of the page condition a scan's batches use (see bench/README.md)
import { randomUUID } from 'node:crypto'
import { DatabaseSync } from 'node:sqlite'

const COUNT = Number(process.argv[2] ?? 100_000)
const BATCH = 500

const db = new DatabaseSync(':memory:')
db.exec(`CREATE TABLE objects (collection TEXT NOT NULL, id TEXT NOT NULL, created_at INTEGER NOT NULL,
  expires_at INTEGER, sealed TEXT NOT NULL, PRIMARY KEY (collection, id));
CREATE INDEX objects_page ON objects (collection, created_at, id);`)
const insert = db.prepare('INSERT INTO objects VALUES (?, ?, ?, NULL, ?)')
const sealed = JSON.stringify({ email: 'e'.repeat(80), ssn: 's'.repeat(60), name: 'n'.repeat(60) })
db.exec('BEGIN')
// 1,000 objects per creation time, as bulk adds write them.
for (let i = 0; i < COUNT; i++) insert.run('people', randomUUID(), Math.floor(i / 1000), sealed)
db.exec('COMMIT')

const FORMS = {
  'created_at > ? OR (created_at = ? AND id > ?)': (at: number, id: string) => [at, at, id],
  '(created_at, id) > (?, ?)': (at: number, id: string) => [at, id],
}
const head = `SELECT id, created_at, sealed ->> '$."email"' AS v FROM objects
  WHERE collection = 'people' AND (expires_at IS NULL OR expires_at > 0)`
const tail = `ORDER BY created_at, id LIMIT ${BATCH}`
type Row = { id: string; created_at: number }
for (const [condition, params] of Object.entries(FORMS)) {
  const first = db.prepare(`${head} ${tail}`)
  const next = db.prepare(`${head} AND (${condition}) ${tail}`)
  const started = performance.now()
  let rows = first.all() as Row[]
  let read = rows.length
  while (rows.length === BATCH) {
    const last = rows.at(-1) as Row
    rows = next.all(...params(last.created_at, last.id)) as Row[]
    read += rows.length
  }
  const ms = Math.round(performance.now() - started)
  console.log(`${condition}: ${read} rows in batches of ${BATCH}, ${ms} ms`)
}
