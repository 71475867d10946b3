// test/api/iam.test.ts: the IAM configuration, users' API keys and the Admin key over HTTP, on both engines
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { describeEngines } from '../helpers/engines.ts'
import { apiKeyOf, setIam } from '../helpers/iam.ts'
import {
  ADMIN_KEY,
  API,
  startTestServer,
  type TestResponse,
  type TestServer,
} from '../helpers/server.ts'

const CONF = `${API}/ctl/iam/conf`
const TOML = { 'content-type': 'application/toml' }

const CONFIG = `
[users.Reader]
role = "IamReader"
[users.Writer]
role = "IamWriter"
[users.Nobody]
role = "Nothing"
[users.Off]
role = "Nothing"
disabled = true

[roles.IamReader]
capabilities = ["CapIAMReader"]
[roles.IamWriter]
capabilities = ["CapIAMWriter", "CapIAMReader"]
[roles.Nothing]
capabilities = []

[policies]
`

async function errorOf(res: TestResponse) {
  const body = await res.json()
  expect(body.message).toMatch(/\.$/)
  return { status: res.status, ...body }
}

describeEngines('IAM API', (engine) => {
  let server: TestServer
  const keys: Record<string, string> = {}
  beforeAll(async () => {
    server = await startTestServer({ engine })
  })
  afterAll(() => server.close())

  const as = (user: string) => keys[user] as string

  it('serves the default configuration as TOML on first start', async () => {
    const res = await server.request('GET', CONF)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/toml/)
    const text = await res.text()
    for (const role of ['SecurityAdmin', 'ExternalApplication', 'TokenConsumerService'])
      expect(text).toContain(`[roles.${role}]`)
  })

  it('sets a configuration and returns it normalized, with keys sorted', async () => {
    const res = await server.request('POST', CONF, { headers: TOML, body: `# users\n${CONFIG}` })
    expect(res.status).toBe(200)
    expect(await res.text()).toBe('')
    const text = await (await server.request('GET', CONF)).text()
    expect(text).not.toContain('#')
    expect(text.indexOf('[roles.IamReader]')).toBeLessThan(text.indexOf('[users.Nobody]'))
    expect(text.indexOf('[users.Nobody]')).toBeLessThan(text.indexOf('[users.Off]'))
    for (const user of ['Reader', 'Writer', 'Nobody', 'Off'])
      keys[user] = await apiKeyOf(server, user)
  })

  it('accepts the configuration as a JSON string, and refuses other JSON', async () => {
    expect(
      (
        await server.request('POST', CONF, {
          body: JSON.stringify(CONFIG),
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(200)
    const object = await server.request('POST', CONF, { body: { users: {} } })
    expect(await errorOf(object)).toMatchObject({ status: 400, error_code: 'ERR1012' })
    const none = await server.request('POST', CONF, { headers: TOML })
    expect(await errorOf(none)).toMatchObject({ status: 400, error_code: 'ERR1012' })
  })

  it('refuses malformed TOML with line and column, changing nothing', async () => {
    const before = await (await server.request('GET', CONF)).text()
    const res = await server.request('POST', CONF, {
      headers: TOML,
      body: '[users.A]\nrole = "R\n[roles',
    })
    const error = await errorOf(res)
    expect(error).toMatchObject({ status: 400, error_code: 'ERR1012', context: { line: '2' } })
    expect(error.message).toMatch(/line 2, column \d+\.$/)
    expect(await (await server.request('GET', CONF)).text()).toBe(before)
  })

  it.each([
    [
      'an unknown role',
      CONFIG.replace('role = "IamReader"', 'role = "Ghost"'),
      'users.Reader.role',
    ],
    [
      'an unknown capability',
      CONFIG.replace('"CapIAMReader"]', '"CapGhost"]'),
      'roles.IamReader.capabilities',
    ],
    [
      'an unknown policy',
      CONFIG.replace('capabilities = []', 'capabilities = []\npolicies = ["PolGhost"]'),
      'roles.Nothing.policies',
    ],
    [
      'a bad policy type',
      `${CONFIG}\n[policies.P]\npolicy_type = "maybe"\noperations = ["read"]\nreasons = ["*"]\nresources = ["*"]`,
      'policies.P.policy_type',
    ],
    [
      'an unknown operation',
      `${CONFIG}\n[policies.P]\npolicy_type = "allow"\noperations = ["peek"]\nreasons = ["*"]\nresources = ["*"]`,
      'policies.P.operations',
    ],
    [
      'a bad resource',
      `${CONFIG}\n[policies.P]\npolicy_type = "allow"\noperations = ["read"]\nreasons = ["*"]\nresources = ["a//b"]`,
      'policies.P.resources',
    ],
    ['an Admin user', `${CONFIG}\n[users.Admin]\nrole = "Nothing"`, 'users.Admin'],
  ])(
    'refuses %s with 400 ERR1012 naming the entry, changing nothing',
    async (_what, text, entry) => {
      const before = await (await server.request('GET', CONF)).text()
      const error = await errorOf(await server.request('POST', CONF, { headers: TOML, body: text }))
      expect(error).toMatchObject({ status: 400, error_code: 'ERR1012', context: { entry } })
      expect(await (await server.request('GET', CONF)).text()).toBe(before)
      expect(
        (await server.request('GET', `${API}/ctl/iam/user/Reader`, { token: as('Reader') })).status,
      ).toBe(200)
    },
  )

  it('needs CapIAMReader to read and CapIAMWriter to write the configuration', async () => {
    expect((await server.request('GET', CONF, { token: as('Reader') })).status).toBe(200)
    const read = await server.request('GET', CONF, { token: as('Nobody') })
    expect(await errorOf(read)).toMatchObject({
      status: 403,
      error_code: 'ERR1007',
      context: { username: 'Nobody' },
    })
    const write = await server.request('POST', CONF, {
      token: as('Reader'),
      headers: TOML,
      body: CONFIG,
    })
    expect(await errorOf(write)).toMatchObject({
      status: 403,
      error_code: 'ERR1007',
      context: { username: 'Reader' },
    })
    expect(
      (await server.request('POST', CONF, { token: as('Writer'), headers: TOML, body: CONFIG }))
        .status,
    ).toBe(200)
  })

  describe('regenerate user API key', () => {
    it('returns a new random key and its expiry, a year from now by default', async () => {
      const res = await server.request('POST', `${API}/ctl/iam/user/regen`, {
        token: as('Writer'),
        body: { name: 'Nobody' },
      })
      expect(res.status).toBe(200)
      const body = await res.json()
      expect(Object.keys(body).sort()).toEqual(['api_key', 'api_key_expiry'])
      expect(body.api_key).toMatch(/^[A-Za-z0-9_-]{43}$/)
      const expiry = Date.parse(body.api_key_expiry)
      expect(Math.abs(expiry - Date.now() - 365 * 86_400_000)).toBeLessThan(60_000)
      expect(body.api_key_expiry).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
      keys.Nobody = body.api_key
    })

    it('invalidates the previous key at once', async () => {
      const old = as('Nobody')
      const fresh = await apiKeyOf(server, 'Nobody')
      const res = await server.request('GET', `${API}/system/info/version`, { token: old })
      expect(await errorOf(res)).toMatchObject({ status: 401, error_code: 'ERR1005' })
      expect(
        (await server.request('GET', `${API}/system/info/version`, { token: fresh })).status,
      ).toBe(200)
      keys.Nobody = fresh
    })

    it('answers 403 ERR2021 for Admin, 404 ERR9007 for an unknown user, 400 for a bad body', async () => {
      const admin = await server.request('POST', `${API}/ctl/iam/user/regen`, {
        body: { name: 'Admin' },
      })
      expect(await errorOf(admin)).toMatchObject({ status: 403, error_code: 'ERR2021' })
      const ghost = await server.request('POST', `${API}/ctl/iam/user/regen`, {
        body: { name: 'Ghost' },
      })
      expect(await errorOf(ghost)).toMatchObject({
        status: 404,
        error_code: 'ERR9007',
        context: { user: 'Ghost' },
      })
      const bad = await server.request('POST', `${API}/ctl/iam/user/regen`, { body: {} })
      expect(await errorOf(bad)).toMatchObject({ status: 400, error_code: 'ERR1012' })
    })

    it('needs CapIAMWriter, checked before the user is looked up', async () => {
      const res = await server.request('POST', `${API}/ctl/iam/user/regen`, {
        token: as('Reader'),
        body: { name: 'Ghost' },
      })
      expect(await errorOf(res)).toMatchObject({ status: 403, error_code: 'ERR1007' })
    })
  })

  describe('update user API key expiration', () => {
    it('sets a new expiry, and a key past it is refused with 401 ERR1005', async () => {
      const res = await server.request('POST', `${API}/ctl/iam/user/update-expiration`, {
        token: as('Writer'),
        body: { name: 'Reader', expiration_secs: 7200 },
      })
      expect(res.status).toBe(200)
      const body = await res.json()
      expect(body.name).toBe('Reader')
      expect(Math.abs(Date.parse(body.api_key_expiry) - Date.now() - 7_200_000)).toBeLessThan(
        60_000,
      )
      const user = await (await server.request('GET', `${API}/ctl/iam/user/Reader`)).json()
      expect(user).toEqual({ name: 'Reader', api_key: { expiry: body.api_key_expiry } })
      await server.request('POST', `${API}/ctl/iam/user/update-expiration`, {
        body: { name: 'Reader', expiration_secs: 0 },
      })
      const expired = await server.request('GET', `${API}/system/info/version`, {
        token: as('Reader'),
      })
      expect(await errorOf(expired)).toMatchObject({ status: 401, error_code: 'ERR1005' })
      keys.Reader = await apiKeyOf(server, 'Reader')
    })

    it.each([
      [{ name: 'Admin', expiration_secs: 10 }, 403, 'ERR2021'],
      [{ name: 'Ghost', expiration_secs: 10 }, 404, 'ERR9007'],
      [{ name: 'Reader', expiration_secs: -1 }, 400, 'ERR1012'],
      [{ name: 'Reader', expiration_secs: 'soon' }, 400, 'ERR1012'],
      [{ name: 'Reader' }, 400, 'ERR1012'],
    ])('answers %j with %i %s', async (body, status, code) => {
      const res = await server.request('POST', `${API}/ctl/iam/user/update-expiration`, { body })
      expect(await errorOf(res)).toMatchObject({ status, error_code: code })
    })

    it('answers 404 for a user without a key', async () => {
      await setIam(server, `${CONFIG}\n[users.Keyless]\nrole = "Nothing"`)
      const res = await server.request('POST', `${API}/ctl/iam/user/update-expiration`, {
        body: { name: 'Keyless', expiration_secs: 10 },
      })
      expect(await errorOf(res)).toMatchObject({ status: 404, error_code: 'ERR9007' })
    })
  })

  describe('get user', () => {
    it('returns name and key expiry with CapIAMReader', async () => {
      const res = await server.request('GET', `${API}/ctl/iam/user/Writer`, { token: as('Reader') })
      expect(res.status).toBe(200)
      const body = await res.json()
      expect(body.name).toBe('Writer')
      expect(Date.parse(body.api_key.expiry)).toBeGreaterThan(Date.now())
    })

    it('lets any caller read its own user, and only that', async () => {
      expect(
        (await server.request('GET', `${API}/ctl/iam/user/Nobody`, { token: as('Nobody') })).status,
      ).toBe(200)
      const other = await server.request('GET', `${API}/ctl/iam/user/Writer`, {
        token: as('Nobody'),
      })
      expect(await errorOf(other)).toMatchObject({
        status: 403,
        error_code: 'ERR1007',
        context: { username: 'Nobody' },
      })
    })

    it('answers for Admin, a user without a key, and 404 for an unknown user', async () => {
      expect(await (await server.request('GET', `${API}/ctl/iam/user/Admin`)).json()).toEqual({
        name: 'Admin',
        api_key: { expiry: '' },
      })
      expect(await (await server.request('GET', `${API}/ctl/iam/user/Keyless`)).json()).toEqual({
        name: 'Keyless',
        api_key: { expiry: '' },
      })
      const res = await server.request('GET', `${API}/ctl/iam/user/Ghost`)
      expect(await errorOf(res)).toMatchObject({ status: 404, error_code: 'ERR9007' })
    })
  })

  describe('users across configuration changes', () => {
    it('refuses disabled users with 401 ERR1011', async () => {
      const res = await server.request('GET', `${API}/system/info/version`, { token: as('Off') })
      expect(await errorOf(res)).toMatchObject({
        status: 401,
        error_code: 'ERR1011',
        context: { username: 'Off' },
      })
    })

    it('keeps the key of a user whose role changes and drops the key of a user who leaves', async () => {
      const changed = CONFIG.replace(
        '[users.Nobody]\nrole = "Nothing"',
        '[users.Nobody]\nrole = "IamReader"',
      ).replace('[users.Off]\nrole = "Nothing"\ndisabled = true', '')
      await setIam(server, changed)
      expect((await server.request('GET', CONF, { token: as('Nobody') })).status).toBe(200)
      await setIam(server, `${changed}\n[users.Off]\nrole = "Nothing"`)
      const res = await server.request('GET', `${API}/system/info/version`, { token: as('Off') })
      expect(await errorOf(res)).toMatchObject({ status: 401, error_code: 'ERR1005' })
    })
  })
})

describeEngines('Admin API key', (engine) => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ engine, env: { SVC_SERVICE_API_KEY_EXPIRATION_SECS: '60' } })
    await setIam(server, CONFIG.replace('capabilities = []', 'capabilities = ["*"]'))
  })
  afterAll(() => server.close())

  it('uses SVC_SERVICE_API_KEY_EXPIRATION_SECS for new keys', async () => {
    const res = await server.request('POST', `${API}/ctl/iam/user/regen`, {
      body: { name: 'Writer' },
    })
    expect(
      Math.abs(Date.parse((await res.json()).api_key_expiry) - Date.now() - 60_000),
    ).toBeLessThan(5_000)
  })

  it.each(['short1Aa', 'alllowercase12345', 'ALLUPPERCASE12345', 'NoDigitsAtAllHere'])(
    'refuses the weak key %j with 400 ERR1012',
    async (key) => {
      const res = await server.request('POST', `${API}/ctl/iam/admin/set-api-key`, {
        body: { key },
      })
      const error = await errorOf(res)
      expect(error).toMatchObject({ status: 400, error_code: 'ERR1012', context: { field: 'key' } })
      expect(error.message).not.toContain(key)
    },
  )

  it.each([
    'Str0ng-Admin-Key-X\n',
    'Str0ng Admin Key X',
    'Str0ng-Admin-Key-\tX',
    'Str0ng-Admin-Key-\u0000X',
    'Str0ng-Admin-Key-\u007fX',
    'Str0ng-Admin-Key-é',
    'Str0ng-Admin-Key-\u2028',
    'Str0ng-Admin-Key-\ud800',
  ])('refuses the unprintable key %j with 400 ERR1012 and keeps the key', async (key) => {
    const res = await server.request('POST', `${API}/ctl/iam/admin/set-api-key`, {
      body: { key },
    })
    const error = await errorOf(res)
    expect(error).toMatchObject({ status: 400, error_code: 'ERR1012', context: { field: 'key' } })
    expect(error.message).toMatch(/printable ASCII/)
    expect((await server.request('GET', CONF, { token: ADMIN_KEY })).status).toBe(200)
  })

  it('refuses every caller but Admin with 403 ERR2021, even with every capability', async () => {
    const key = await apiKeyOf(server, 'Nobody')
    const res = await server.request('POST', `${API}/ctl/iam/admin/set-api-key`, {
      token: key,
      body: { key: 'Str0ng-Admin-Key-X' },
    })
    expect(await errorOf(res)).toMatchObject({
      status: 403,
      error_code: 'ERR2021',
      context: { username: 'Nobody' },
    })
  })

  it('replaces the Admin key at once', async () => {
    const res = await server.request('POST', `${API}/ctl/iam/admin/set-api-key`, {
      body: { key: 'Str0ng-Admin-Key-X' },
    })
    expect(res.status).toBe(200)
    const old = await server.request('GET', CONF, { token: ADMIN_KEY })
    expect(await errorOf(old)).toMatchObject({ status: 401, error_code: 'ERR1005' })
    expect((await server.request('GET', CONF, { token: 'Str0ng-Admin-Key-X' })).status).toBe(200)
  })
})

describe('IAM set on start only', () => {
  it('answers 405 ERR1003 to set IAM configuration', async () => {
    const server = await startTestServer({ env: { SVC_SERVICE_SET_IAM_ON_START_ONLY: 'true' } })
    const res = await server.request('POST', CONF, { headers: TOML, body: CONFIG })
    expect(await errorOf(res)).toMatchObject({ status: 405, error_code: 'ERR1003' })
    await server.close()
  })
})
