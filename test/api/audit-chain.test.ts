// test/api/audit-chain.test.ts: the database sink's hash chain, and the rule for several sinks (all or any)
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { verifyRows } from '../../src/core/audit/verify.ts'
import { describeEngines } from '../helpers/engines.ts'
import { API, type Engine, startTestServer, type TestServer } from '../helpers/server.ts'

const dirPromise = mkdtemp(join(tmpdir(), 'strongroom-audit-chain-'))
afterAll(async () => rm(await dirPromise, { recursive: true, force: true }))

async function chainOf(server: TestServer) {
  const rows = await server.app.store.audit.scan({ afterSeq: 0, limit: 100_000 })
  return verifyRows(rows.map((row) => row.record))
}

/** Sinks `file` (pointed at a directory, so every write fails) and `database`. */
async function withBrokenFile(engine: Engine, require: string) {
  return startTestServer({
    engine,
    env: {
      SVC_LOG_AUDIT_SINK: 'file,database',
      SVC_LOG_AUDIT_FILE: await dirPromise,
      SVC_LOG_AUDIT_REQUIRE: require,
    },
  })
}

describeEngines('audit chain of the database sink', (engine) => {
  it('links the records of plain calls and of writes recorded inside their transaction', async () => {
    const server = await startTestServer({ engine })
    try {
      const created = await server.request('POST', `${API}/ctl/collections`, {
        body: {
          name: 'people',
          type: 'PERSONS',
          properties: [{ name: 'ssn', data_type_name: 'SSN' }],
        },
      })
      expect(created.status).toBe(200)
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          server.request('GET', `${API}/system/info/version?custom_audit=c${i}`),
        ),
      )
      const report = await chainOf(server)
      expect(report.broken).toBeUndefined()
      expect(report).toMatchObject({ records: 22, chainStarts: 1, unchained: 0 })
    } finally {
      await server.close()
    }
  })

  it('with SVC_LOG_AUDIT_REQUIRE=all (default), fails a call one sink could not record', async () => {
    const server = await withBrokenFile(engine, 'all')
    try {
      const res = await server.request('GET', `${API}/system/info/version`)
      expect(res.status).toBe(503)
      expect(await res.json()).toMatchObject({ error_code: 'ERR1014', context: { sink: 'file' } })
      // A write recorded inside its transaction: refused before its row joins the database
      // chain, so the rolled-back transaction leaves no gap there.
      const created = await server.request('POST', `${API}/ctl/collections`, {
        body: { name: 'people', type: 'PERSONS', properties: [] },
      })
      expect(created.status).toBe(503)
      expect((await server.request('GET', `${API}/ctl/collections`)).status).toBe(503)
      expect((await chainOf(server)).broken).toBeUndefined()
    } finally {
      await server.close()
    }
  })

  it('with SVC_LOG_AUDIT_REQUIRE=any, succeeds when another sink recorded the call', async () => {
    const server = await withBrokenFile(engine, 'any')
    try {
      const res = await server.request('GET', `${API}/system/info/version?custom_audit=kept`)
      expect(res.status).toBe(200)
      const records = (await server.app.store.audit.list({ limit: 100 })).map((row) =>
        JSON.parse(row.record),
      )
      expect(records.at(-1)).toMatchObject({ custom_audit: 'kept', outcome: 'success' })
      expect((await chainOf(server)).broken).toBeUndefined()
    } finally {
      await server.close()
    }
  })
})
