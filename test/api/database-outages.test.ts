// test/api/database-outages.test.ts: a refused, cut or frozen database answers 503 and the service recovers by itself

import { execFileSync } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectError } from '../helpers/collections.ts'
import { findTestPostgres } from '../helpers/postgres.ts'
import {
  API,
  type SharedDatabase,
  sharedPostgres,
  startTestServer,
  type TestResponse,
  type TestServer,
} from '../helpers/server.ts'
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.ts'

const pgUrl = await findTestPostgres()

const COLLECTIONS = `${API}/ctl/collections`
/** Every call fails the test rather than hang: the service must answer on its own well before. */
const NO_HANG = { signal: () => AbortSignal.timeout(15_000) }

function call(server: TestServer, path = COLLECTIONS): Promise<TestResponse> {
  return fetch(`${server.baseUrl}${path}`, {
    headers: { authorization: 'Bearer pvaultauth' },
    signal: NO_HANG.signal(),
  })
}

/** Calls until one answers 200 (the service reconnects by itself); returns the statuses seen. */
async function untilOk(server: TestServer, attempts = 40): Promise<number[]> {
  const statuses: number[] = []
  for (let i = 0; i < attempts; i++) {
    const res = await call(server)
    statuses.push(res.status)
    await res.arrayBuffer()
    if (res.status === 200) return statuses
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  return statuses
}

describe.skipIf(pgUrl === undefined)('database outages on PostgreSQL (through a TCP proxy)', () => {
  let database: SharedDatabase
  let proxy: TcpProxy
  let server: TestServer

  beforeAll(async () => {
    database = await sharedPostgres()
    proxy = await startTcpProxy({
      host: database.env.SVC_DB_HOSTNAME as string,
      port: Number(database.env.SVC_DB_PORT),
    })
    server = await startTestServer({
      env: {
        ...database.env,
        SVC_DB_HOSTNAME: '127.0.0.1',
        SVC_DB_PORT: String(proxy.port),
        SVC_DB_MAX_OPEN_CONNS: '2',
        SVC_SERVICE_TIMEOUT_SECONDS: '3',
        SVC_DB_QUERY_TIMEOUT: '3s',
        // Control calls read the database on every call: no cache hides an outage.
        SVC_SERVICE_CACHE_REFRESH_INTERVAL: '0',
      },
    })
  })
  afterAll(async () => {
    await server?.close()
    await proxy?.close()
    await database?.drop()
  })

  it('answers 503 ERR1010 while connections are refused, then recovers by itself', async () => {
    expect((await untilOk(server)).at(-1)).toBe(200)
    await proxy.refuse()
    for (let i = 0; i < 3; i++) {
      const body = await expectError(await call(server), 503, 'ERR1010')
      expect(body.message).toMatch(/database cannot be reached/)
    }
    await proxy.accept()
    expect((await untilOk(server)).at(-1)).toBe(200)
  })

  it('answers 503 ERR1010 when an open connection is cut under a call, not 500', async () => {
    expect((await untilOk(server)).at(-1)).toBe(200)
    // Cut the pool's idle connections: the next calls get new ones.
    proxy.cut()
    const afterCut = await untilOk(server)
    expect(afterCut.every((status) => status === 200 || status === 503)).toBe(true)
    expect(afterCut.at(-1)).toBe(200)
    // A call whose statement is in flight when its connection is cut.
    proxy.freeze()
    const pending = call(server)
    await new Promise((resolve) => setTimeout(resolve, 300))
    proxy.cut()
    proxy.thawNew()
    const res = await pending
    expect([503]).toContain(res.status)
    expect(['ERR1010', 'ERR1009']).toContain((await res.json()).error_code)
    expect((await untilOk(server)).at(-1)).toBe(200)
  })

  it('answers 503 ERR1009 when the database stops answering, and frees its connections', async () => {
    expect((await untilOk(server)).at(-1)).toBe(200)
    proxy.freeze()
    // More calls than the pool has connections (2): none may wait forever for a connection.
    const calls = await Promise.all([call(server), call(server), call(server)])
    for (const res of calls) {
      const body = await expectError(res, 503, 'ERR1009')
      expect(body.message).toMatch(/timed out|did not answer/)
    }
    // Frozen connections stay frozen for good: only new connections carry bytes again, so the
    // service can answer only if it closed the connections of the abandoned statements.
    proxy.thawNew()
    expect((await untilOk(server)).at(-1)).toBe(200)
    await expect.poll(() => proxy.frozenOpen(), { timeout: 10_000 }).toBe(0)
    // Data calls too (authentication, cache, audit record).
    const res = await call(server, `${API}/system/info/version`)
    expect(res.status).toBe(200)
  })
})

describe('database faults on SQLite', () => {
  let dataDir: string
  let server: TestServer
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'strongroom-outage-'))
    server = await startTestServer({
      env: { SVC_BACKING_STORE: 'sqlite', SVC_DATA_DIR: dataDir, SVC_LOG_AUDIT_SINK: 'none' },
    })
  })
  afterAll(async () => {
    await server?.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('answers 503 ERR1010 while another process holds the write lock, then works again', async () => {
    const other = new DatabaseSync(join(dataDir, 'strongroom.db'))
    other.exec('BEGIN IMMEDIATE')
    try {
      const body = {
        name: 'locked',
        type: 'DATA',
        properties: [{ name: 'p', data_type_name: 'STRING' }],
      }
      const res = await server.request('POST', COLLECTIONS, { body })
      const error = await expectError(res, 503, 'ERR1010')
      expect(error.message).toMatch(/locked by another connection or process/)
    } finally {
      other.exec('ROLLBACK')
      other.close()
    }
    const res = await server.request('POST', COLLECTIONS, {
      body: {
        name: 'unlocked',
        type: 'DATA',
        properties: [{ name: 'p', data_type_name: 'STRING' }],
      },
    })
    expect(res.status).toBe(200)
  })
})

/** A 16 MiB tmpfs for the data directory (CI runs as root); undefined where mounting is not allowed. */
function smallDisk(): string | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'strongroom-full-'))
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16m', 'tmpfs', dir], { stdio: 'ignore' })
    return dir
  } catch {
    rmSync(dir, { recursive: true, force: true })
    return undefined
  }
}

/** Writes zeros to `file` until the disk is full. */
function fillDisk(file: string): void {
  const fd = openSync(file, 'w')
  const chunk = Buffer.alloc(64 * 1024)
  try {
    for (;;) writeSync(fd, chunk)
  } catch {
    // ENOSPC: full.
  } finally {
    closeSync(fd)
  }
}

const disk = process.getuid?.() === 0 ? smallDisk() : undefined

describe.skipIf(disk === undefined)('a full disk on SQLite', () => {
  const dataDir = disk as string
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({
      env: { SVC_BACKING_STORE: 'sqlite', SVC_DATA_DIR: dataDir, SVC_LOG_AUDIT_SINK: 'none' },
    })
  })
  afterAll(async () => {
    await server?.close()
    execFileSync('umount', [dataDir])
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('answers 503 ERR1010 while the disk is full, then works again once space is freed', async () => {
    const filler = join(dataDir, 'filler')
    fillDisk(filler)
    const body = (name: string) => ({
      name,
      type: 'DATA',
      properties: [{ name: 'p', data_type_name: 'STRING', description: 'x'.repeat(2000) }],
    })
    const res = await server.request('POST', COLLECTIONS, { body: body('full') })
    const error = await expectError(res, 503, 'ERR1010')
    expect(error.message).toMatch(/disk|I\/O/)
    rmSync(filler)
    expect((await server.request('POST', COLLECTIONS, { body: body('freed') })).status).toBe(200)
    const listed = await (await server.request('GET', COLLECTIONS)).json()
    expect(listed.map((c: { name: string }) => c.name)).toEqual(['freed'])
  })
})
