// test/helpers/postgres.ts: finds the test PostgreSQL and makes a fresh database per test file
import { randomBytes } from 'node:crypto'
import pg from 'pg'

export type PgTarget = {
  readonly host: string
  readonly port: number
  readonly user: string
  readonly password: string
}

export type PgDatabaseOptions = PgTarget & {
  readonly kind: 'postgres'
  readonly database: string
  readonly requireTls: false
  readonly maxOpenConns: number
  readonly maxIdleConns: number
  readonly connMaxLifetimeMs: number
}

const DEFAULT_URL = 'postgres://postgres@127.0.0.1:5432/postgres'

function parseTarget(url: string): PgTarget & { database: string } {
  const parsed = new URL(url)
  return {
    host: parsed.hostname,
    port: Number(parsed.port || 5432),
    user: decodeURIComponent(parsed.username || 'postgres'),
    password: decodeURIComponent(parsed.password),
    database: parsed.pathname.slice(1) || 'postgres',
  }
}

async function adminQuery<Row>(
  url: string,
  text: string,
  values: readonly unknown[] = [],
): Promise<Row[]> {
  const client = new pg.Client({ ...parseTarget(url), connectionTimeoutMillis: 3000 })
  await client.connect()
  try {
    return (await client.query(text, [...values])).rows
  } finally {
    await client.end()
  }
}

/**
 * Deadlocks PostgreSQL has detected in a database so far (`pg_stat_database`). Its counters are
 * flushed when a backend goes idle, at most once a second: wait that long after the work.
 */
export async function deadlocksIn(database: string): Promise<number> {
  const rows = await adminQuery<{ deadlocks: string }>(
    process.env.SVC_TEST_DATABASE_URL ?? DEFAULT_URL,
    'SELECT deadlocks FROM pg_stat_database WHERE datname = $1',
    [database],
  )
  return Number(rows[0]?.deadlocks ?? 0)
}

/**
 * Resolves to the test server's URL, or undefined (with the reason printed) when it cannot be
 * reached on a developer machine. In CI an unreachable PostgreSQL fails the run loudly.
 */
export async function findTestPostgres(): Promise<string | undefined> {
  const url = process.env.SVC_TEST_DATABASE_URL ?? DEFAULT_URL
  try {
    await adminQuery(url, 'SELECT 1')
    return url
  } catch (error) {
    const reason = `PostgreSQL at ${url.replace(/\/\/[^@]*@/, '//')} is not reachable: ${(error as Error).message}`
    if (process.env.CI) throw new Error(`${reason} (CI requires PostgreSQL)`)
    console.warn(`Skipping PostgreSQL tests: ${reason}`)
    return undefined
  }
}

/** Creates an empty database for one test file; `drop` removes it. */
export async function createTestDatabase(
  url: string,
): Promise<{ options: PgDatabaseOptions; drop: () => Promise<void> }> {
  const name = `strongroom_test_${randomBytes(6).toString('hex')}`
  await adminQuery(url, `CREATE DATABASE ${name}`)
  const target = parseTarget(url)
  const options: PgDatabaseOptions = {
    kind: 'postgres',
    host: target.host,
    port: target.port,
    user: target.user,
    password: target.password,
    database: name,
    requireTls: false,
    maxOpenConns: 8,
    maxIdleConns: 8,
    connMaxLifetimeMs: 300_000,
  }
  return {
    options,
    drop: async () => {
      await adminQuery(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    },
  }
}
