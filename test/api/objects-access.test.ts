// test/api/objects-access.test.ts: data policies and tenants through the real object routes (iam.md §3–4, §10)
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectError } from '../helpers/collections.ts'
import { describeEngines } from '../helpers/engines.ts'
import { apiKeyOf, setIam } from '../helpers/iam.ts'
import { addCollection, addObject, type ObjectsApi, objectsOf, ok } from '../helpers/objects.ts'
import { API, startTestServer, type TestServer } from '../helpers/server.ts'

const PEOPLE = {
  name: 'people',
  type: 'PERSONS',
  properties: [
    { name: 'name', data_type_name: 'NAME', is_index: true },
    { name: 'email', data_type_name: 'EMAIL', is_index: true, is_nullable: true },
    { name: 'ssn', data_type_name: 'SSN', is_unique: true },
  ],
}

const policy = (
  name: string,
  type: string,
  operations: string[],
  reasons: string[],
  resources: string[],
) =>
  `[policies.${name}]\npolicy_type = "${type}"\noperations = ${JSON.stringify(operations)}\nreasons = ${JSON.stringify(reasons)}\nresources = ${JSON.stringify(resources)}\n`

const CONFIG = `
[users.Analyst]
role = "Analyst"
[roles.Analyst]
capabilities = ["CapDataReader", "CapDataWriter", "CapDataSearcher"]
policies = ["*"]
${[
  policy('PolReadEmailAnalytics', 'allow', ['read'], ['Analytics'], ['people/properties/email']),
  policy('PolSsnMask', 'allow', ['read'], ['*'], ['people/properties/ssn.*']),
  policy('PolNameType', 'allow', ['read', 'search'], ['AppFunctionality'], ['*/types/NAME']),
  policy('PolWriteAll', 'allow', ['write'], ['*'], ['*']),
  policy('PolDenyWriteSsn', 'deny', ['write'], ['Analytics'], ['people/properties/ssn']),
  policy('PolSearchEmail', 'allow', ['search'], ['Analytics'], ['people/properties/email']),
  policy('PolDeleteApp', 'allow', ['delete'], ['AppFunctionality'], ['people/*']),
  policy('PolMeta', 'allow', ['read'], ['*'], ['people/properties/id']),
  policy('PolStats', 'allow', ['stats'], ['Analytics'], ['people']),
].join('\n')}
`

/** Written by hand from the policies above: everything not listed must be refused. */
const ALLOWED = new Set([
  'read name AppFunctionality',
  'read email Analytics',
  'read ssn.mask AppFunctionality',
  'read ssn.mask Analytics',
  'write name AppFunctionality',
  'write name Analytics',
  'write email AppFunctionality',
  'write email Analytics',
  'write ssn AppFunctionality',
  'search name AppFunctionality',
  'search email Analytics',
  'delete * AppFunctionality',
])

const REASONS = ['AppFunctionality', 'Analytics']
const MATRIX = [
  ...['name', 'email', 'ssn', 'ssn.mask'].map((p) => `read ${p}`),
  ...['name', 'email', 'ssn'].flatMap((p) => [`write ${p}`, `search ${p}`]),
  'delete *',
].flatMap((entry) => REASONS.map((reason) => `${entry} ${reason}`))

const VALUES: Record<string, () => unknown> = {
  name: () => 'Pat Doe',
  email: () => 'pat@example.com',
  ssn: (() => {
    let n = 1000
    return () => `700-10-${n++}`
  })(),
}

describeEngines('object access', (engine) => {
  let server: TestServer
  let people: ObjectsApi
  let analyst: string
  const base = `${API}/data/collections/people`
  beforeAll(async () => {
    server = await startTestServer({ engine })
    await addCollection(server, PEOPLE)
    await setIam(server, CONFIG)
    analyst = await apiKeyOf(server, 'Analyst')
    people = objectsOf(server, 'people')
  })
  afterAll(() => server.close())

  /** Runs one matrix entry as the Analyst; true when allowed, false on 403 ERR1006. */
  async function attempt(entry: string): Promise<boolean> {
    const [operation, prop = '', reason] = entry.split(' ')
    const id = await addObject(people, {
      name: 'Pat Doe',
      ssn: VALUES.ssn?.(),
      email: 'pat@example.com',
    })
    const as = (method: string, path: string, body?: unknown) =>
      server.request(method, `${base}${path}${path.includes('?') ? '&' : '?'}reason=${reason}`, {
        token: analyst,
        body,
      })
    const res =
      operation === 'read'
        ? await as('GET', `/objects/${id}?props=${prop}`)
        : operation === 'write'
          ? await as('PATCH', `/objects/${id}`, { [prop]: VALUES[prop]?.() })
          : operation === 'search'
            ? await as('POST', '/query/objects?props=id', { match: { [prop]: VALUES[prop]?.() } })
            : await as('DELETE', `/objects/${id}`)
    if (res.status === 200) return true
    expect(await res.json()).toMatchObject({
      error_code: 'ERR1006',
      context: { username: 'Analyst' },
    })
    return false
  }

  it('allows exactly the (operation, property, reason) triples the policies grant', async () => {
    const outcomes: string[] = []
    for (const entry of MATRIX)
      outcomes.push(`${entry} ${(await attempt(entry)) ? 'allowed' : 'refused'}`)
    expect(outcomes).toEqual(MATRIX.map((e) => `${e} ${ALLOWED.has(e) ? 'allowed' : 'refused'}`))
  })

  it('refuses the whole request when one property is refused, and unsafe needs every property', async () => {
    const id = await addObject(people, { name: 'Al', ssn: '701-10-0001' })
    const get = (query: string) =>
      server.request('GET', `${base}/objects/${id}?reason=AppFunctionality&${query}`, {
        token: analyst,
      })
    expect(await ok(get('props=name,ssn.mask'))).toEqual({ name: 'Al', 'ssn.mask': '***-**-0001' })
    const partial = await expectError(await get('props=name,email'), 403, 'ERR1006')
    expect(partial.context).toMatchObject({
      operation: 'read',
      resource: 'people/properties/email',
    })
    await expectError(await get('options=unsafe'), 403, 'ERR1006')
  })

  it('checks archived objects against archived/ resources', async () => {
    const id = await addObject(people, { name: 'Ar', ssn: '701-10-0002', email: 'ar@example.com' })
    await ok(people.remove(id))
    const get = (query: string) =>
      server.request('GET', `${base}/objects/${id}?options=archived&${query}`, { token: analyst })
    expect(await ok(get('props=name&reason=AppFunctionality'))).toEqual({ name: 'Ar' })
    await expectError(await get('props=email&reason=Analytics'), 403, 'ERR1006')
  })

  it('checks stats on the collection for counts', async () => {
    const count = (reason: string) =>
      server.request('GET', `${base}/count/objects?reason=${reason}`, { token: analyst })
    await ok(count('Analytics'))
    await expectError(await count('AppFunctionality'), 403, 'ERR1006')
  })

  describe('tenants', () => {
    const t = (ids: string) => ({ headers: { 'x-tenant-id': ids } })
    let t1: string
    let t2: string
    beforeAll(async () => {
      await addCollection(server, {
        name: 'accounts',
        type: 'DATA',
        properties: [{ name: 'label', data_type_name: 'STRING', is_index: true }],
      })
      const accounts = objectsOf(server, 'accounts')
      t1 = (await ok(accounts.add({ label: 'one' }, '', t('t1')))).id
      t2 = (await ok(accounts.add({ label: 'two', _tenant_id: 't2' }))).id
      await ok(accounts.add({ label: 'none' }))
    })

    it('give a new object the only tenant of the request, and refuse other body tenants', async () => {
      const accounts = objectsOf(server, 'accounts')
      expect(await ok(accounts.get(t1, 'props=_tenant_id'))).toEqual({ _tenant_id: 't1' })
      await expectError(
        await accounts.add({ label: 'x', _tenant_id: 't2' }, '', t('t1')),
        403,
        'ERR1006',
      )
      const both = (await ok(accounts.add({ label: 'both' }, '', t('t1,t2')))).id
      expect(await ok(accounts.get(both, 'props=_tenant_id'))).toEqual({ _tenant_id: null })
    })

    it('refuse reads and writes of objects outside the request tenants', async () => {
      const accounts = objectsOf(server, 'accounts')
      await expectError(await accounts.get(t1, 'props=label', t('t2')), 403, 'ERR1006')
      expect(await ok(accounts.get(t1, 'props=label', t('t1,t2')))).toEqual({ label: 'one' })
      await expectError(await accounts.update(t1, { label: 'x' }, '', t('t2')), 403, 'ERR1006')
      await expectError(await accounts.remove(t1, '', t('t2')), 403, 'ERR1006')
      await expectError(
        await accounts.update(t1, { _tenant_id: 't3' }, '', t('t1')),
        403,
        'ERR1006',
      )
      const bulk = await accounts.updateMany(
        [
          { id: t1, label: 'a' },
          { id: t2, label: 'b' },
        ],
        '',
        t('t1'),
      )
      await expectError(bulk, 403, 'ERR1006')
      expect(await ok(accounts.get(t2, 'props=label'))).toEqual({ label: 'two' })
    })

    it('filter listings, searches and counts to the request tenants', async () => {
      const accounts = objectsOf(server, 'accounts')
      const labels = (page: { results: { label: string }[] }) => page.results.map((r) => r.label)
      expect(labels(await ok(accounts.list('props=label', t('t1'))))).toEqual(['one'])
      expect(labels(await ok(accounts.list('props=label', t('t1,t2'))))).toEqual(['one', 'two'])
      expect(labels(await ok(accounts.search({}, 'props=label', t('t2'))))).toEqual(['two'])
      expect(
        labels(await ok(accounts.search({ match: { label: 'one' } }, 'props=label', t('t2')))),
      ).toEqual([])
      expect(await ok(accounts.count(t('t1')))).toEqual({ active: 1, archived: 0, total: 1 })
      await expectError(await accounts.list(`props=label&ids=${t1},${t2}`, t('t1')), 404, 'ERR3005')
    })
  })
})

describe('Admin and data', () => {
  it('refuses every object operation of Admin when Admin may not read data', async () => {
    const server = await startTestServer({ env: { SVC_SERVICE_ADMIN_MAY_READ_DATA: 'false' } })
    await addCollection(server, PEOPLE)
    const people = objectsOf(server, 'people')
    const refused = await expectError(
      await people.add({ name: 'A', ssn: '702-10-0001' }),
      403,
      'ERR1006',
    )
    expect(refused.context).toMatchObject({ username: 'Admin' })
    await expectError(await people.list(), 403, 'ERR1006')
    await expectError(await people.count(), 403, 'ERR1006')
    await server.close()
  })

  it('answers 403 ERR1007 to a role without the capability, before anything else', async () => {
    const server = await startTestServer()
    const developer = await apiKeyOf(server, 'Developer')
    const res = await objectsOf(server, 'nowhere').list('options=unsafe', { token: developer })
    await expectError(res, 403, 'ERR1007')
    await server.close()
  })
})
