// test/api/metrics.test.ts: GET /metrics (Prometheus text) on the main port and on its own listener
import { randomUUID } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectError } from '../helpers/collections.ts'
import { describeEngines } from '../helpers/engines.ts'
import { addCollection, addObject, objectsOf, PEOPLE } from '../helpers/objects.ts'
import { API, startTestServer, type TestServer } from '../helpers/server.ts'

const TOKEN = 'scrape-token-7f3a9c'
const SECRET_VALUE = 'Zelda Quixotica-Metrics'
const SSN = '123-45-6789'

/** The value of one sample line (`name{labels} value`), or undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}

describeEngines('metrics', (engine) => {
  let server: TestServer
  let text: string
  const scrape = (token: string | null = TOKEN) => server.request('GET', '/metrics', { token })

  beforeAll(async () => {
    server = await startTestServer({
      engine,
      env: { SVC_METRICS_TOKEN: TOKEN, SVC_METRICS_LISTEN_ADDR: '127.0.0.1:0' },
    })
    await addCollection(server, PEOPLE)
    const people = objectsOf(server, 'people')
    const id = randomUUID()
    await addObject(people, { id, name: SECRET_VALUE, ssn: SSN })
    // A taken id: the plain insert fails in the database, then the call answers 409.
    expect((await people.add({ id, name: 'Other', ssn: '987-65-4321' })).status).toBe(409)
    expect((await people.get(randomUUID())).status).toBe(404)
    const res = await scrape()
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/)
    text = await res.text()
  })
  afterAll(() => server.close())

  it('asks for the metrics token on the main port', async () => {
    await expectError(await scrape(null), 401, 'ERR1005')
    await expectError(await scrape('wrong-token'), 401, 'ERR1005')
    await expectError(await scrape('pvaultauth'), 401, 'ERR1005')
  })

  it('counts requests by operation and status, with latency histograms', () => {
    const added = 'strongroom_http_requests_total{operation="objects.addObject",status="200"}'
    expect(sample(text, added)).toBe(1)
    expect(
      sample(text, 'strongroom_http_requests_total{operation="objects.addObject",status="409"}'),
    ).toBe(1)
    expect(
      sample(
        text,
        'strongroom_http_requests_total{operation="objects.getObjectById",status="404"}',
      ),
    ).toBe(1)
    expect(
      sample(text, 'strongroom_http_request_duration_seconds_count{operation="objects.addObject"}'),
    ).toBe(2)
    expect(text).toContain(
      'strongroom_http_request_duration_seconds_bucket{le="0.005",operation="objects.addObject"}',
    )
  })

  it('reports database statement errors, the pool, audit writes and background work', () => {
    expect(sample(text, 'strongroom_db_statement_errors_total')).toBeGreaterThanOrEqual(1)
    if (engine === 'postgres')
      expect(sample(text, 'strongroom_db_pool_connections{state="total"}')).toBeGreaterThan(0)
    else expect(text).not.toContain('strongroom_db_pool_connections{')
    expect(
      sample(text, 'strongroom_audit_records_total{sink="database",outcome="written"}'),
    ).toBeGreaterThanOrEqual(4)
    expect(sample(text, 'strongroom_substring_index_queue_objects')).toEqual(expect.any(Number))
    expect(sample(text, 'strongroom_reencryption_running')).toBe(0)
  })

  it('reports event-loop delay and garbage collection', () => {
    expect(text).toContain('# TYPE nodejs_eventloop_lag_p99_seconds gauge')
    expect(text).toContain('# TYPE nodejs_gc_duration_seconds histogram')
  })

  it('never exposes values, IDs or credentials', () => {
    for (const secret of [SECRET_VALUE, SSN, TOKEN, 'pvaultauth', 'people'])
      expect(text).not.toContain(secret)
  })

  it('serves /metrics on its own listener and nothing else there', async () => {
    const address = server.app.metricsAddress
    expect(address).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    const res = await fetch(`${address}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })
    expect(res.status).toBe(200)
    expect(await res.text()).toContain('strongroom_http_requests_total')
    expect((await fetch(`${address}/metrics`)).status).toBe(401)
    const other = await fetch(`${address}${API}/system/info/version`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    })
    await expectError(other as never, 404, 'ERR1012')
  })
})

describe('metrics switched off or listener-only', () => {
  it('keeps no metrics and answers 404 without SVC_METRICS_* settings', async () => {
    const server = await startTestServer()
    try {
      await expectError(await server.request('GET', '/metrics'), 404, 'ERR1012')
      expect(server.app.metricsAddress).toBeUndefined()
    } finally {
      await server.close()
    }
  })

  it('serves an open listener, and no /metrics on the main port, without a token', async () => {
    const server = await startTestServer({ env: { SVC_METRICS_LISTEN_ADDR: '127.0.0.1:0' } })
    try {
      await expectError(await server.request('GET', '/metrics'), 404, 'ERR1012')
      const res = await fetch(`${server.app.metricsAddress}/metrics`)
      expect(res.status).toBe(200)
    } finally {
      await server.close()
    }
  })

  it('counts the records of a file audit sink', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'strongroom-metrics-'))
    const server = await startTestServer({
      env: {
        SVC_METRICS_TOKEN: TOKEN,
        SVC_LOG_AUDIT_SINK: 'file',
        SVC_LOG_AUDIT_FILE: join(dir, 'audit.log'),
      },
    })
    try {
      expect((await server.request('GET', `${API}/system/info/version`)).status).toBe(200)
      const text = await (await server.request('GET', '/metrics', { token: TOKEN })).text()
      // The chain start record of this start, then the call's record.
      expect(sample(text, 'strongroom_audit_records_total{sink="file",outcome="written"}')).toBe(2)
    } finally {
      await server.close()
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('counts audit sink failures by sink and reason', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'strongroom-metrics-'))
    // A directory cannot be opened for appending: every write of the file sink fails.
    const server = await startTestServer({
      env: { SVC_METRICS_TOKEN: TOKEN, SVC_LOG_AUDIT_SINK: 'file', SVC_LOG_AUDIT_FILE: dir },
    })
    try {
      expect((await server.request('GET', `${API}/system/info/version`)).status).toBe(503)
      const text = await (await server.request('GET', '/metrics', { token: TOKEN })).text()
      // The call's record failed before it was answered (its failure record is written, and
      // fails, after the answer: the call does not wait for it).
      expect(
        sample(text, 'strongroom_audit_sink_failures_total{sink="file",reason="error"}'),
      ).toBeGreaterThanOrEqual(1)
    } finally {
      await server.close()
      await rm(dir, { recursive: true, force: true })
    }
  })
})
