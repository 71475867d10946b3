// test/api/auth.test.ts: credentials (401), the capability gate (403 ERR1007) and access reasons (400)
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sha256 } from '../../src/core/crypto/hash.ts'
import { API, startTestServer, type TestResponse, type TestServer } from '../helpers/server.ts'

const DATA_PATH = `${API}/data/test/reasoned`

async function errorOf(res: TestResponse) {
  return { status: res.status, ...(await res.json()) }
}

describe('authentication and capability gate', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({
      env: { SVC_SERVICE_ADMIN_API_KEY: 'Custom-Admin-Key-1' },
      routes(app) {
        app.server.get(DATA_PATH, { config: { operation: 'count_objects' } }, async (req) => ({
          reason: req.ctx.reason,
        }))
      },
    })
    const { store, services } = server.app
    const clock = services.clock
    const conf = await server.request('POST', `${API}/ctl/iam/conf`, {
      token: 'Custom-Admin-Key-1',
      headers: { 'content-type': 'application/toml' },
      body: [
        '[users.reader]',
        'role = "Readers"',
        '[users.off]',
        'role = "Readers"',
        'disabled = true',
        '[roles.Readers]',
        'capabilities = ["CapCollectionsReader"]',
        '[policies]',
      ].join('\n'),
    })
    expect(conf.status).toBe(200)
    const createdAt = clock()
    await store.iam.setApiKey({
      username: 'reader',
      keyHash: sha256('reader-key'),
      expiresAt: undefined,
      createdAt,
    })
    await store.iam.setApiKey({
      username: 'off',
      keyHash: sha256('off-key'),
      expiresAt: undefined,
      createdAt,
    })
    await store.iam.setApiKey({
      username: 'ghost',
      keyHash: sha256('ghost-key'),
      expiresAt: undefined,
      createdAt,
    })
    await store.iam.setApiKey({
      username: 'old',
      keyHash: sha256('old-key'),
      expiresAt: createdAt - 1,
      createdAt,
    })
  })
  afterAll(() => server.close())

  it.each([
    ['no Authorization header', null, undefined],
    ['an unknown key', 'wrong', undefined],
    ['the dev key when another Admin key is configured', 'pvaultauth', undefined],
    ['an expired key', 'old-key', undefined],
    ['a key of a user missing from the IAM configuration', 'ghost-key', undefined],
    ['a Basic credential', null, { authorization: 'Basic cmVhZGVyOng=' }],
    ['an empty Bearer credential', null, { authorization: 'Bearer ' }],
  ])('answers 401 ERR1005 for %s', async (_what, token, headers) => {
    const res = await server.request('GET', `${API}/system/info/version`, { token, headers })
    expect(await errorOf(res)).toMatchObject({ status: 401, error_code: 'ERR1005', context: {} })
  })

  it('accepts the configured Admin key, with any case of "Bearer"', async () => {
    const res = await server.request('GET', `${API}/system/info/version`, {
      token: null,
      headers: { authorization: 'bearer Custom-Admin-Key-1' },
    })
    expect(res.status).toBe(200)
  })

  it('answers 401 ERR1011 for a disabled user', async () => {
    const res = await server.request('GET', `${API}/system/info/version`, { token: 'off-key' })
    expect(await errorOf(res)).toMatchObject({ status: 401, error_code: 'ERR1011' })
  })

  it('lets a user call an operation that needs only authentication', async () => {
    expect(
      (await server.request('GET', `${API}/system/info/version`, { token: 'reader-key' })).status,
    ).toBe(200)
  })

  it('answers 403 ERR1007 with the username when the role lacks the capability', async () => {
    const res = await server.request('GET', `${API}/system/info/configuration`, {
      token: 'reader-key',
    })
    expect(await errorOf(res)).toMatchObject({
      status: 403,
      error_code: 'ERR1007',
      context: { username: 'reader' },
    })
  })

  it('checks the capability before the request shape or the reason', async () => {
    const res = await server.request('POST', `${API}/system/confvar/log_level`, {
      token: 'reader-key',
      body: { value: 7 },
    })
    expect((await errorOf(res)).error_code).toBe('ERR1007')
    const data = await server.request('GET', DATA_PATH, { token: 'reader-key' })
    expect((await errorOf(data)).error_code).toBe('ERR1007')
  })

  it('answers 403 ERR2021 when a non-Admin calls an Admin-only operation', async () => {
    const res = await server.request('POST', `${API}/system/info/license`, {
      token: 'reader-key',
      body: { key: 'x' },
    })
    expect(await errorOf(res)).toMatchObject({
      status: 403,
      error_code: 'ERR2021',
      context: { username: 'reader' },
    })
  })

  describe('access reasons on data operations', () => {
    it('answers 400 ERR1001 when the reason is missing', async () => {
      expect(
        await errorOf(await server.request('GET', DATA_PATH, { token: 'Custom-Admin-Key-1' })),
      ).toMatchObject({
        status: 400,
        error_code: 'ERR1001',
      })
    })

    it.each(['appfunctionality', 'Whatever', ''])(
      'answers 400 ERR1002 for the unknown reason %j',
      async (reason) => {
        const res = await server.request('GET', `${DATA_PATH}?reason=${reason}x`, {
          token: 'Custom-Admin-Key-1',
        })
        expect(await errorOf(res)).toMatchObject({ status: 400, error_code: 'ERR1002' })
      },
    )

    it('answers 400 ERR1002 for Other without a non-empty adhoc_reason', async () => {
      for (const query of [
        'reason=Other',
        'reason=Other&adhoc_reason=',
        'reason=Other&adhoc_reason=%20',
      ]) {
        const res = await server.request('GET', `${DATA_PATH}?${query}`, {
          token: 'Custom-Admin-Key-1',
        })
        expect(await errorOf(res)).toMatchObject({ status: 400, error_code: 'ERR1002' })
      }
    })

    it('accepts every listed reason, and Other with an ad hoc reason', async () => {
      for (const reason of [
        'AppFunctionality',
        'Analytics',
        'Marketing',
        'DataSubjectRequest',
        'Maintenance',
      ]) {
        const res = await server.request('GET', `${DATA_PATH}?reason=${reason}`, {
          token: 'Custom-Admin-Key-1',
        })
        expect((await res.json()).reason).toEqual({ reason, isDefaulted: false })
      }
      const other = await server.request(
        'GET',
        `${DATA_PATH}?reason=Other&adhoc_reason=ticket%2042`,
        { token: 'Custom-Admin-Key-1' },
      )
      expect((await other.json()).reason).toEqual({
        reason: 'Other',
        adhocReason: 'ticket 42',
        isDefaulted: false,
      })
    })
  })
})

describe('access reasons when not forced', () => {
  it('uses AppFunctionality and marks it defaulted', async () => {
    const server = await startTestServer({
      env: { SVC_SERVICE_FORCE_ACCESS_REASON: 'false' },
      routes(app) {
        app.server.get(DATA_PATH, { config: { operation: 'count_objects' } }, async (req) => ({
          reason: req.ctx.reason,
        }))
      },
    })
    const res = await server.request('GET', DATA_PATH)
    expect((await res.json()).reason).toEqual({ reason: 'AppFunctionality', isDefaulted: true })
    const bad = await server.request('GET', `${DATA_PATH}?reason=Nope`)
    expect(bad.status).toBe(400)
    await server.close()
  })
})
