// test/helpers/server.ts: starts the real service on 127.0.0.1, an ephemeral port and in-memory SQLite
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type App, createApp } from '../../src/app.ts'
import { type Config, loadConfig } from '../../src/config.ts'
import type { Clock } from '../../src/core/time.ts'
import { createTestDatabase, findTestPostgres } from './postgres.ts'

export const ADMIN_KEY = 'pvaultauth'
export const API = '/api/pvlt/1.0'

/** Response bodies in tests are examined by assertions, not by the type checker. */
// biome-ignore lint/suspicious/noExplicitAny: see above; keeps API tests free of casts
export type Json = any

export type TestResponse = Omit<Response, 'json'> & { json(): Promise<Json> }

/** `fetch` with the body typed for assertions. */
export function fetchJson(url: string, init?: RequestInit): Promise<TestResponse> {
  return fetch(url, init)
}

export type TestServer = {
  readonly app: App
  readonly baseUrl: string
  /** `fetch` against the server; sends the Admin key unless `token` says otherwise (null: none). */
  request(method: string, path: string, init?: RequestOptions): Promise<TestResponse>
  close(): Promise<void>
}

export type RequestOptions = {
  readonly body?: unknown
  readonly token?: string | null
  readonly headers?: Record<string, string>
}

export type TestServerOptions = {
  /** SVC_* variables on top of the test defaults (dev mode, memory store, audit off stdout). */
  readonly env?: Record<string, string>
  readonly clock?: Clock
  /** `postgres` runs on a fresh database of the test PostgreSQL (dropped on close). */
  readonly engine?: Engine
  /** Extra routes for tests of cross-cutting behaviour (timeouts, reasons), added before listening. */
  readonly routes?: (app: App) => void
}

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig(
    {
      SVC_BACKING_STORE: 'memory',
      SVC_SERVICE_LISTEN_ADDR: '127.0.0.1:0',
      SVC_LOG_LEVEL: 'error',
      SVC_LOG_AUDIT_SINK: 'database',
      ...env,
    },
    { devmode: true, files: false },
  )
}

function bodyInit(body: unknown, headers: Record<string, string>): RequestInit['body'] {
  if (body === undefined) return undefined
  if (typeof body === 'string' || body instanceof Uint8Array) return body as RequestInit['body']
  headers['content-type'] ??= 'application/json'
  return JSON.stringify(body)
}

export type Engine = 'sqlite' | 'postgres'

export type SharedDatabase = { readonly env: Record<string, string>; drop(): Promise<void> }

/**
 * A fresh database on the test PostgreSQL and the SVC_* variables that point a server at it;
 * several servers started with the same `env` share it (cluster tests).
 */
export async function sharedPostgres(): Promise<SharedDatabase> {
  const url = await findTestPostgres()
  if (url === undefined)
    throw new Error('PostgreSQL is not reachable; guard the suite with describeEngines or skipIf')
  const { options, drop } = await createTestDatabase(url)
  const env = {
    SVC_BACKING_STORE: 'postgres',
    SVC_DB_HOSTNAME: options.host,
    SVC_DB_PORT: String(options.port),
    SVC_DB_NAME: options.database,
    SVC_DB_USER: options.user,
    SVC_DB_PASSWORD: options.password,
  }
  return { env, drop }
}

/** A database that outlives one server: a SQLite file in a temporary directory, or as above. */
export async function sharedDatabase(engine: Engine): Promise<SharedDatabase> {
  if (engine === 'postgres') return sharedPostgres()
  const dir = await mkdtemp(join(tmpdir(), 'strongroom-test-'))
  return {
    env: { SVC_BACKING_STORE: 'sqlite', SVC_DATA_DIR: dir },
    drop: () => rm(dir, { recursive: true, force: true }),
  }
}

async function engineEnv(
  engine: Engine,
): Promise<{ env: Record<string, string>; drop?: () => Promise<void> }> {
  return engine === 'sqlite' ? { env: {} } : sharedPostgres()
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const database = await engineEnv(options.engine ?? 'sqlite')
  const app = await createApp(testConfig({ ...database.env, ...options.env }), {
    clock: options.clock,
    isLogSilent: process.env.SVC_TEST_LOGS !== 'true',
  })
  options.routes?.(app)
  const baseUrl = await app.listen()
  return {
    app,
    baseUrl,
    request(method, path, init = {}) {
      const headers: Record<string, string> = { ...init.headers }
      const token = init.token === undefined ? ADMIN_KEY : init.token
      if (token !== null) headers.authorization = `Bearer ${token}`
      return fetch(`${baseUrl}${path}`, { method, headers, body: bodyInit(init.body, headers) })
    },
    async close() {
      await app.close()
      await database.drop?.()
    },
  }
}
