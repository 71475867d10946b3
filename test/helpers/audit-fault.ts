// test/helpers/audit-fault.ts: makes the audit_events insert fail (a trigger that raises) and snapshots every other table
import { DatabaseSync } from 'node:sqlite'
import pg from 'pg'
import type { DatabaseOptions } from '../../src/storage/database.ts'

/** Tables that change without any call (heartbeats, job leases) or hold the records themselves. */
const UNWATCHED = new Set(['audit_events', 'workers', 'leases'])

export type AuditFault = {
  /** From now on every insert into audit_events fails, in whatever transaction it runs. */
  arm(): Promise<void>
  disarm(): Promise<void>
  /** Every row of every watched table, in a stable order. */
  snapshot(): Promise<Record<string, string[]>>
  close(): Promise<void>
}

function rowText(row: Record<string, unknown>): string {
  return JSON.stringify(row, (_key, value) =>
    value instanceof Uint8Array
      ? Buffer.from(value).toString('hex')
      : typeof value === 'bigint'
        ? String(value)
        : value,
  )
}

/**
 * Runs `sql` on the test's own connection, retrying while the server's connection holds the write
 * lock. The server runs in this process and commits its group of writes on a later event-loop
 * turn, so a blocking wait (busy_timeout) here would keep it from ever committing.
 */
async function execWhenFree(db: DatabaseSync, sql: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      db.exec(sql)
      return
    } catch (error) {
      if (!/database is locked/.test(String(error)) || attempt >= 500) throw error
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
  }
}

function sqliteFault(file: string): AuditFault {
  const db = new DatabaseSync(file)
  db.exec('PRAGMA busy_timeout = 0')
  return {
    async arm() {
      await execWhenFree(
        db,
        "CREATE TRIGGER audit_fault BEFORE INSERT ON audit_events BEGIN SELECT RAISE(ABORT, 'audit insert refused by the test'); END",
      )
    },
    async disarm() {
      await execWhenFree(db, 'DROP TRIGGER IF EXISTS audit_fault')
    },
    async snapshot() {
      const tables = db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .all()
        .map((row) => String(row.name))
        .filter((name) => !UNWATCHED.has(name) && !name.startsWith('sqlite_'))
      return Object.fromEntries(
        tables.map((name) => [
          name,
          db
            .prepare(`SELECT * FROM "${name}"`)
            .all()
            .map((row) => rowText(row as Record<string, unknown>))
            .sort(),
        ]),
      )
    },
    async close() {
      db.close()
    },
  }
}

async function postgresFault(
  options: Extract<DatabaseOptions, { kind: 'postgres' }>,
): Promise<AuditFault> {
  const client = new pg.Client({
    host: options.host,
    port: options.port,
    database: options.database,
    user: options.user,
    password: options.password,
  })
  await client.connect()
  await client.query(
    `CREATE OR REPLACE FUNCTION audit_fault() RETURNS trigger LANGUAGE plpgsql AS
     $$ BEGIN RAISE EXCEPTION 'audit insert refused by the test'; END $$`,
  )
  return {
    async arm() {
      await client.query(
        'CREATE TRIGGER audit_fault BEFORE INSERT ON audit_events FOR EACH ROW EXECUTE FUNCTION audit_fault()',
      )
    },
    async disarm() {
      await client.query('DROP TRIGGER IF EXISTS audit_fault ON audit_events')
    },
    async snapshot() {
      const tables = (
        await client.query<{ name: string }>(
          'SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() ORDER BY 1',
        )
      ).rows
        .map((row) => row.name)
        .filter((name) => !UNWATCHED.has(name))
      const entries: [string, string[]][] = []
      for (const name of tables) {
        const { rows } = await client.query(`SELECT * FROM "${name}"`)
        entries.push([name, rows.map((row) => rowText(row)).sort()])
      }
      return Object.fromEntries(entries)
    },
    async close() {
      await client.end()
    },
  }
}

/** Opens a second connection to the server's database to make its audit inserts fail on demand. */
export async function openAuditFault(
  database: DatabaseOptions | { readonly kind: 'none' },
): Promise<AuditFault> {
  if (database.kind === 'sqlite') return sqliteFault(database.file)
  if (database.kind === 'postgres') return postgresFault(database)
  throw new Error('The audit fault needs a database')
}
