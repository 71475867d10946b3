// test/api/audit.test.ts: one audit record per call, never values, written to the configured sink, fail closed
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { audited } from '../../src/http/audited.ts'
import { API, startTestServer, type TestServer } from '../helpers/server.ts'

const DATA_PATH = `${API}/data/test/collections/people/objects`

function dataRoute(server: { app: TestServer['app'] }) {
  // A read (search): the HTTP layer records it; writes are recorded by their service.
  server.app.server.post(DATA_PATH, { config: { operation: 'search_objects' } }, async (req) =>
    audited({
      value: {
        id: '0b6f3c1e-0000-4000-8000-000000000001',
        secret: (req.body as { ssn: string }).ssn,
      },
      audit: {
        collection: 'people',
        properties: ['ssn'],
        objectIds: ['0b6f3c1e-0000-4000-8000-000000000001'],
        tokenIds: [],
      },
    }),
  )
}

async function records(server: TestServer) {
  const rows = await server.app.store.audit.list({ limit: 1000 })
  return rows.map((row) => JSON.parse(row.record))
}

describe('audit records in the database sink', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ routes: (app) => dataRoute({ app }) })
  })
  afterAll(() => server.close())

  it('records who, what, where, why and the outcome of a data call, without values', async () => {
    const res = await server.request(
      'POST',
      `${DATA_PATH}?reason=Other&adhoc_reason=ticket-7&custom_audit=batch-9`,
      {
        body: { ssn: '123-45-6789' },
        headers: { 'x-tenant-id': 't1,t2' },
      },
    )
    expect(res.status).toBe(200)
    const event = (await records(server)).at(-1)
    expect(event).toMatchObject({
      request_id: res.headers.get('x-request-id'),
      user: 'Admin',
      role: 'Admin',
      auth_kind: 'api_key',
      operation: 'search_objects',
      method: 'POST',
      path: DATA_PATH,
      collection: 'people',
      properties: ['ssn'],
      object_ids: ['0b6f3c1e-0000-4000-8000-000000000001'],
      reason: 'Other',
      adhoc_reason: 'ticket-7',
      custom_audit: 'batch-9',
      tenant_ids: ['t1', 't2'],
      outcome: 'success',
      status: 200,
    })
    expect(event.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/)
    expect(JSON.stringify(await records(server))).not.toContain('123-45-6789')
  })

  it('records failures with their status and error code, including 401s', async () => {
    await server.request('POST', `${DATA_PATH}?reason=Nope`, { body: {} })
    await server.request('GET', `${API}/system/info/version`, { token: 'bad-key' })
    const [denied, unauthorized] = (await records(server)).slice(-2)
    expect(denied).toMatchObject({
      operation: 'search_objects',
      outcome: 'failure',
      status: 400,
      error_code: 'ERR1002',
    })
    expect(unauthorized).toMatchObject({
      operation: 'get_version',
      user: '',
      outcome: 'failure',
      status: 401,
      error_code: 'ERR1005',
    })
    expect(JSON.stringify(unauthorized)).not.toContain('bad-key')
  })

  it('writes exactly one record per call and none for health checks', async () => {
    const before = (await records(server)).length
    await server.request('GET', `${API}/data/info/health`, { token: null })
    await server.request('GET', `${API}/system/info/version`)
    expect((await records(server)).length).toBe(before + 1)
  })
})

describe('audit records in a file', () => {
  const dirPromise = mkdtemp(join(tmpdir(), 'strongroom-audit-'))
  afterAll(async () => rm(await dirPromise, { recursive: true, force: true }))

  it('appends one JSON line per call', async () => {
    const file = join(await dirPromise, 'audit.log')
    const server = await startTestServer({
      env: { SVC_LOG_AUDIT_SINK: 'file', SVC_LOG_AUDIT_FILE: file },
    })
    await server.request('GET', `${API}/system/info/version?custom_audit=first`)
    await server.request('GET', `${API}/system/info/version?custom_audit=second`)
    await server.close()
    const lines = (await readFile(file, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(lines.map((line) => line.custom_audit ?? line.type)).toEqual([
      'chain_start',
      'first',
      'second',
    ])
  })

  it('fails a data call with 503 ERR1014 and returns no data when its record cannot be written', async () => {
    const server = await startTestServer({
      env: { SVC_LOG_AUDIT_SINK: 'file', SVC_LOG_AUDIT_FILE: await dirPromise },
      routes: (app) => dataRoute({ app }),
    })
    const res = await server.request('POST', `${DATA_PATH}?reason=AppFunctionality`, {
      body: { ssn: '123-45-6789' },
    })
    expect(res.status).toBe(503)
    const text = await res.text()
    expect(JSON.parse(text)).toMatchObject({ error_code: 'ERR1014', context: { sink: 'file' } })
    expect(text).not.toContain('123-45-6789')
    await server.close()
  })

  it('writes nothing when audit is disabled', async () => {
    const file = join(await dirPromise, 'disabled.log')
    const server = await startTestServer({
      env: { SVC_LOG_AUDIT_SINK: 'file', SVC_LOG_AUDIT_FILE: file, SVC_LOG_AUDIT_ENABLE: 'false' },
    })
    await server.request('GET', `${API}/system/info/version`)
    await server.close()
    expect(await readFile(file, 'utf8').catch(() => '')).toBe('')
  })
})
