// test/api/error-codes.test.ts: SVC_SERVICE_ERROR_CODE_PREFIX and SVC_SERVICE_ERROR_URL_BASE in every error body
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { describeEngines } from '../helpers/engines.ts'
import { API, startTestServer, type TestServer } from '../helpers/server.ts'

const URL_BASE = 'https://docs.example.com/errors'
const R = 'reason=AppFunctionality'

describeEngines('error codes with a prefix', (engine) => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({
      engine,
      env: { SVC_SERVICE_ERROR_CODE_PREFIX: 'PV', SVC_SERVICE_ERROR_URL_BASE: URL_BASE },
    })
    const created = await server.request('POST', `${API}/ctl/collections`, {
      body: {
        name: 'people',
        type: 'PERSONS',
        properties: [{ name: 'ssn', data_type_name: 'SSN', is_unique: true }],
      },
    })
    expect(created.status).toBe(200)
  })
  afterAll(() => server.close())

  it.each([
    ['a domain error', 'GET', `${API}/ctl/collections/nobody`, undefined, 404, 'PV1004'],
    ['a schema error', 'POST', `${API}/ctl/collections`, { name: 1 }, 400, 'PV1012'],
    ['an unknown path', 'GET', `${API}/nowhere`, undefined, 404, 'PV1012'],
    ['a missing reason', 'GET', `${API}/data/collections/people/objects`, undefined, 400, 'PV1001'],
  ])('names %s PVnnnn and links it', async (_what, method, path, body, status, code) => {
    const res = await server.request(method, path, { body })
    expect(res.status).toBe(status)
    expect(await res.json()).toMatchObject({
      error_code: code,
      error_url: `${URL_BASE}#${code}`,
      context: expect.any(Object),
    })
  })

  it('names an authentication failure PV1005', async () => {
    const res = await server.request('GET', `${API}/ctl/collections`, { token: 'wrong' })
    expect(res.status).toBe(401)
    expect((await res.json()).error_code).toBe('PV1005')
  })

  it('names the per-item errors of bulk answers with the prefix too', async () => {
    const res = await server.request('POST', `${API}/data/collections/people/bulk/objects?${R}`, {
      body: [{ ssn: '123-45-6789' }, { ssn: 'not an ssn' }],
    })
    const body = await res.json()
    expect(body.ok).toBe(false)
    const failed = body.results.find((item: { ok: boolean }) => !item.ok)
    expect(failed.error).toMatchObject({
      error_code: 'PV3002',
      error_url: `${URL_BASE}#PV3002`,
    })
  })
})

describe('error codes by default', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(() => server.close())

  it('are ERRnnnn without error_url (errors.md §1)', async () => {
    const res = await server.request('GET', `${API}/ctl/collections/nobody`)
    const body = await res.json()
    expect(body.error_code).toBe('ERR1004')
    expect(body).not.toHaveProperty('error_url')
  })

  it('refuses a prefix that is not upper-case letters, digits or _', async () => {
    await expect(
      startTestServer({ env: { SVC_SERVICE_ERROR_CODE_PREFIX: 'pv-' } }),
    ).rejects.toThrow(/SVC_SERVICE_ERROR_CODE_PREFIX: "pv-" is not an upper-case prefix/)
  })
})
