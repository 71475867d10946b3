// test/api/iam-policies.test.ts: data policies and tenants through HTTP, using stand-in data routes
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { describeEngines } from '../helpers/engines.ts'
import { apiKeyOf, setIam } from '../helpers/iam.ts'
import { policyRoutes, TEST_DATA } from '../helpers/policy-routes.ts'
import { startTestServer, type TestServer } from '../helpers/server.ts'

const policy = (
  name: string,
  type: string,
  operations: string[],
  reasons: string[],
  resources: string[],
) =>
  `[policies.${name}]\npolicy_type = "${type}"\noperations = ${JSON.stringify(operations)}\nreasons = ${JSON.stringify(reasons)}\nresources = ${JSON.stringify(resources)}\n`

const ANALYST_POLICIES = [
  policy('PolReadEmailAnalytics', 'allow', ['read'], ['Analytics'], ['people/properties/email']),
  policy('PolSsnMask', 'allow', ['read'], ['*'], ['people/properties/ssn.*']),
  policy('PolNameType', 'allow', ['read', 'search'], ['AppFunctionality'], ['*/types/NAME']),
  policy('PolWriteAll', 'allow', ['write', 'tokenize'], ['*'], ['*']),
  policy('PolDenySsnTokenize', 'deny', ['tokenize'], ['*'], ['people/types/SSN']),
  policy('PolDetokenizeEmail', 'allow', ['detokenize'], ['*'], ['people/properties/email']),
  policy('PolDeleteApp', 'allow', ['delete'], ['AppFunctionality'], ['people/*']),
  policy('PolDenyDeleteSsn', 'deny', ['delete'], ['Analytics'], ['people/properties/ssn']),
  policy('PolOther', 'allow', ['read'], ['Other'], ['people/properties/ssn']),
  policy('PolStats', 'allow', ['stats'], ['*'], ['people']),
  policy('PolTokens', 'allow', ['read'], ['*'], ['*/tokens']),
]

const CONFIG = `
[users.Analyst]
role = "Analyst"
[users.Bare]
role = "Bare"
[roles.Analyst]
capabilities = ["CapDataReader", "CapDataWriter", "CapDataSearcher", "CapTokensWriter", "CapTokensDetokenizer", "CapTokensReader"]
policies = ["*"]
[roles.Bare]
capabilities = ["CapDataReader"]
${ANALYST_POLICIES.join('\n')}
`

/** Written by hand from the policies above: everything not listed must be refused. */
const ALLOWED = new Set([
  'read email Analytics',
  'read ssn.mask AppFunctionality',
  'read ssn.mask Analytics',
  'read name AppFunctionality',
  'write email AppFunctionality',
  'write email Analytics',
  'write ssn AppFunctionality',
  'write ssn Analytics',
  'write name AppFunctionality',
  'write name Analytics',
  'delete email AppFunctionality',
  'delete ssn AppFunctionality',
  'delete name AppFunctionality',
  'search name AppFunctionality',
  'tokenize email AppFunctionality',
  'tokenize email Analytics',
  'tokenize name AppFunctionality',
  'tokenize name Analytics',
  'detokenize email Analytics',
])

const MATRIX = ['read', 'write', 'delete', 'search', 'tokenize', 'detokenize'].flatMap((op) =>
  (op === 'read' || op === 'detokenize'
    ? ['email', 'ssn', 'ssn.mask', 'name']
    : ['email', 'ssn', 'name']
  ).flatMap((prop) => ['AppFunctionality', 'Analytics'].map((reason) => `${op} ${prop} ${reason}`)),
)

describeEngines('data policies', (engine) => {
  let server: TestServer
  const keys: Record<string, string> = {}
  beforeAll(async () => {
    server = await startTestServer({ engine, routes: policyRoutes })
    await setIam(server, CONFIG)
    keys.Analyst = await apiKeyOf(server, 'Analyst')
    keys.Bare = await apiKeyOf(server, 'Bare')
  })
  afterAll(() => server.close())

  const get = (path: string, user = 'Analyst', headers: Record<string, string> = {}) =>
    server.request('GET', `${TEST_DATA}/${path}`, { token: keys[user], headers })

  it('allows exactly the (operation, property, reason) triples the policies grant', async () => {
    const outcomes: string[] = []
    for (const entry of MATRIX) {
      const [op, prop, reason] = entry.split(' ')
      const res = await get(`${op}?props=${prop}&reason=${reason}`)
      const body = await res.json()
      if (res.status === 200) {
        expect(body).toEqual({ props: [prop] })
        outcomes.push(`${entry} allowed`)
      } else {
        expect(res.status).toBe(403)
        expect(body).toMatchObject({ error_code: 'ERR1006', context: { username: 'Analyst' } })
        outcomes.push(`${entry} refused`)
      }
    }
    expect(outcomes).toEqual(
      MATRIX.map((entry) => `${entry} ${ALLOWED.has(entry) ? 'allowed' : 'refused'}`),
    )
  })

  it('refuses the whole request when one property is refused (no partial success)', async () => {
    const res = await get('read?props=email,ssn&reason=Analytics')
    expect(await res.json()).toMatchObject({
      error_code: 'ERR1006',
      context: { username: 'Analyst', operation: 'read', resource: 'people/properties/ssn' },
    })
  })

  it('matches policies restricted to Other, whatever the ad hoc reason', async () => {
    expect((await get('read?props=ssn&reason=Other&adhoc_reason=ticket-1')).status).toBe(200)
    expect((await get('read?props=ssn&reason=Other')).status).toBe(400)
  })

  it('checks stats on the collection and reads of token metadata', async () => {
    expect((await get('count?reason=Analytics')).status).toBe(200)
    expect((await get('tokens?reason=Analytics')).status).toBe(200)
    expect((await get('count?reason=Analytics', 'Bare')).status).toBe(403)
  })

  it('denies by default a role without policies', async () => {
    const res = await get('read?props=id&reason=AppFunctionality', 'Bare')
    expect(await res.json()).toMatchObject({ error_code: 'ERR1006', context: { username: 'Bare' } })
  })

  it('applies a policy change at once', async () => {
    await setIam(server, CONFIG.replace('policies = ["*"]', 'policies = ["PolStats"]'))
    expect((await get('read?props=email&reason=Analytics')).status).toBe(403)
    await setIam(server, CONFIG)
    expect((await get('read?props=email&reason=Analytics')).status).toBe(200)
  })

  it('lets Admin read data in dev mode (SVC_SERVICE_ADMIN_MAY_READ_DATA defaults to true)', async () => {
    const res = await server.request('GET', `${TEST_DATA}/read?props=ssn&reason=Analytics`)
    expect(res.status).toBe(200)
  })

  describe('tenants', () => {
    it('refuse resources outside X-Tenant-Id, and those without a tenant', async () => {
      const t1 = { 'x-tenant-id': 't1,t2' }
      expect((await get('tenants/t2?reason=Analytics', 'Analyst', t1)).status).toBe(200)
      for (const tenant of ['t3', 'none']) {
        const res = await get(`tenants/${tenant}?reason=Analytics`, 'Analyst', t1)
        expect(res.status).toBe(403)
        expect((await res.json()).error_code).toBe('ERR1006')
      }
      expect((await get('tenants/none?reason=Analytics')).status).toBe(200)
    })

    it('give new objects the only tenant of the request, and refuse other body tenants', async () => {
      const one = { 'x-tenant-id': 't1' }
      expect(await (await get('create?reason=Analytics', 'Analyst', one)).json()).toEqual({
        tenant: 't1',
      })
      expect((await get('create?reason=Analytics&_tenant_id=t2', 'Analyst', one)).status).toBe(403)
      expect(
        await (await get('create?reason=Analytics', 'Analyst', { 'x-tenant-id': 't1,t2' })).json(),
      ).toEqual({ tenant: null })
    })
  })
})

describe('policy switches', () => {
  it('deny every data operation of Admin when Admin may not read data', async () => {
    const server = await startTestServer({
      env: { SVC_SERVICE_ADMIN_MAY_READ_DATA: 'false' },
      routes: policyRoutes,
    })
    const res = await server.request('GET', `${TEST_DATA}/write?props=email&reason=Analytics`)
    expect(await res.json()).toMatchObject({
      error_code: 'ERR1006',
      context: { username: 'Admin' },
    })
    await server.close()
  })

  it('skip policies with SVC_FEATURES_POLICY_ENFORCEMENT=false, but not capabilities', async () => {
    const server = await startTestServer({
      env: { SVC_FEATURES_POLICY_ENFORCEMENT: 'false' },
      routes: policyRoutes,
    })
    await setIam(server, CONFIG)
    const bare = await apiKeyOf(server, 'Bare')
    const read = await server.request('GET', `${TEST_DATA}/read?props=ssn&reason=Analytics`, {
      token: bare,
    })
    expect(read.status).toBe(200)
    const write = await server.request('GET', `${TEST_DATA}/write?props=ssn&reason=Analytics`, {
      token: bare,
    })
    expect((await write.json()).error_code).toBe('ERR1007')
    await server.close()
  })

  it('evaluate policies with the default reason when reasons are not forced', async () => {
    const server = await startTestServer({
      env: { SVC_SERVICE_FORCE_ACCESS_REASON: 'false' },
      routes: policyRoutes,
    })
    await setIam(server, CONFIG)
    const analyst = await apiKeyOf(server, 'Analyst')
    // PolNameType applies to AppFunctionality only, the default reason.
    expect(
      (await server.request('GET', `${TEST_DATA}/read?props=name`, { token: analyst })).status,
    ).toBe(200)
    expect(
      (await server.request('GET', `${TEST_DATA}/read?props=email`, { token: analyst })).status,
    ).toBe(403)
    await server.close()
  })

  it('follow the tiers of the default configuration', async () => {
    const server = await startTestServer({ routes: policyRoutes })
    const webapp = await apiKeyOf(server, 'Webapp')
    const support = await apiKeyOf(server, 'SupportApp')
    const security = await apiKeyOf(server, 'SecurityAdmin')
    const call = async (path: string, token: string) =>
      (await server.request('GET', `${TEST_DATA}/${path}&reason=AppFunctionality`, { token }))
        .status
    expect(await call('write?props=ssn,email,name', webapp)).toBe(200)
    expect(await call('read?props=ssn.mask,id,_tenant_id', webapp)).toBe(200)
    expect(await call('read?props=ssn', webapp)).toBe(403)
    expect(await call('read?props=ssn,email,name', support)).toBe(200)
    expect(await call('read?props=id', security)).toBe(403)
    await server.close()
  })
})
