// test/api/fuzz.test.ts: a short run of the OpenAPI-driven fuzzer (the long one is `npm run fuzz`)
import { afterAll, beforeAll, expect, it } from 'vitest'
import { describeFinding, runFuzz } from '../fuzz/run-fuzz.ts'
import { describeEngines } from '../helpers/engines.ts'
import { ADMIN_KEY, API, startTestServer, type TestServer } from '../helpers/server.ts'

const RUN = { sqlite: { requests: 1_200, seconds: 12 }, postgres: { requests: 600, seconds: 8 } }

describeEngines('fuzzing every operation of /openapi.json', (engine) => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ engine })
  })
  afterAll(() => server.close())

  it('answers no 5xx and only spec error bodies, and stays healthy', {
    timeout: 60_000,
  }, async () => {
    const { requests, seconds } = RUN[engine]
    const stats = await runFuzz({
      baseUrl: server.baseUrl,
      adminKey: ADMIN_KEY,
      requests,
      deadline: Date.now() + seconds * 1000,
      seed: Date.UTC(2026, 10, 25) + new Date().getUTCDate(),
      concurrency: 8,
      heavyLimit: 2,
    })
    expect(stats.findings.map(describeFinding)).toEqual([])
    expect(stats).toMatchObject({ serverErrors: 0, malformedBodies: 0, hangs: 0 })
    // Every operation was called at least once.
    expect(stats.requests).toBeGreaterThanOrEqual(stats.operations)
    const health = await server.request('GET', `${API}/data/info/health`, { token: null })
    expect(health.status).toBe(200)
  })
})
