// test/api/readiness.test.ts: readiness (database, audit sinks, KMS) apart from liveness, without credentials
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { describeEngines } from '../helpers/engines.ts'
import { API, startTestServer, type TestServer } from '../helpers/server.ts'

const READY = ['/data/info/ready', '/ctl/info/ready']

describeEngines('readiness', (engine) => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ engine })
  })
  afterAll(() => server.close())

  it.each(READY)('answers %s 200 pass with each check, without credentials', async (path) => {
    const res = await server.request('GET', `${API}${path}`, { token: null })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      status: 'pass',
      checks: { database: 'pass', kms: 'pass', audit_database: 'pass' },
    })
  })

  it('is not audited', async () => {
    const before = await server.app.store.audit.list({ limit: 10_000 })
    await server.request('GET', `${API}/ctl/info/ready`, { token: null })
    expect(await server.app.store.audit.list({ limit: 10_000 })).toEqual(before)
  })

  it('answers 503 with the database check failed when the database is gone', async () => {
    const broken = await startTestServer({ engine })
    await broken.app.store.close()
    for (const path of READY) {
      const res = await broken.request('GET', `${API}${path}`, { token: null })
      expect(res.status).toBe(503)
      expect(await res.json()).toMatchObject({ status: 'fail', checks: { database: 'fail' } })
    }
    await broken.app.server.close()
  })

  it('answers 503 while an audit sink cannot record, and liveness stays 200', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'strongroom-ready-'))
    // A directory where the audit file should be: the file sink cannot write.
    const broken = await startTestServer({
      engine,
      env: { SVC_LOG_AUDIT_SINK: 'file,database', SVC_LOG_AUDIT_FILE: dir },
    })
    try {
      const res = await broken.request('GET', `${API}/data/info/ready`, { token: null })
      expect(res.status).toBe(503)
      expect(await res.json()).toEqual({
        status: 'fail',
        checks: { database: 'pass', kms: 'pass', audit_file: 'fail', audit_database: 'pass' },
      })
      const health = await broken.request('GET', `${API}/data/info/health`, { token: null })
      expect(health.status).toBe(200)
    } finally {
      await broken.close()
      await rm(dir, { recursive: true, force: true })
    }
  })
})
