// test/api/http-call.test.ts: the built-in http_call and a bundle's fetch against a local HTTP server (data-model §10.2, §9.4)
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addAction, addBundle, invoke, ok } from '../helpers/bundles.ts'
import { expectError } from '../helpers/collections.ts'
import { describeEngines } from '../helpers/engines.ts'
import { apiKeyOf, setIam } from '../helpers/iam.ts'
import { addCollection, objectsOf } from '../helpers/objects.ts'
import { API, type Json, startTestServer, type TestServer } from '../helpers/server.ts'
import { droppingOrigin, startUpstream, type Upstream } from '../helpers/upstream.ts'

const HTTP_CALL = `${API}/data/actions/http_call?reason=AppFunctionality`

const PEOPLE = {
  name: 'people',
  type: 'PERSONS',
  properties: [
    { name: 'name', data_type_name: 'NAME' },
    { name: 'email', data_type_name: 'EMAIL' },
    { name: 'card', data_type_name: 'CC_NUMBER', is_nullable: true },
  ],
}

const FETCHER = `
exports.get = {
  type: 'action',
  handler: async (context) => {
    try {
      const response = await fetch(context.body.url, { method: 'POST', body: 'ping', headers: { 'x-from': 'bundle' } })
      return { ok: response.ok, status: response.status, json: await response.json() }
    } catch (e) {
      return { refused: e.message }
    }
  },
}
`

describeEngines('http_call', (engine) => {
  let server: TestServer
  let upstream: Upstream
  let other: Upstream
  let dropping: Awaited<ReturnType<typeof droppingOrigin>>
  let closed: string
  let id: string
  const call = (body: unknown, token?: string) => server.request('POST', HTTP_CALL, { body, token })
  const read = (property: string) => `pvlt:read_object:people:${property}:${id}:`

  beforeAll(async () => {
    upstream = await startUpstream()
    other = await startUpstream()
    dropping = await droppingOrigin()
    closed = dropping.origin
    server = await startTestServer({
      engine,
      env: {
        SVC_SERVICE_ALLOWED_HTTP_DESTINATIONS: `${upstream.origin}/allowed,${closed}/`,
        SVC_SERVICE_ALLOWED_PCI_HTTP_DESTINATIONS: `${upstream.origin}/allowed/pci`,
        SVC_SERVICE_TIMEOUT_SECONDS: '3',
        SVC_SANDBOX_MAX_RESULT_BYTES: '1048576',
      },
    })
    await addCollection(server, PEOPLE)
    const body = { name: 'Ann "The" O\\Hara', email: 'ann@example.com', card: '4111111111111111' }
    id = (await ok(objectsOf(server, 'people').add(body))).id
  })
  afterAll(async () => {
    await server.close()
    await upstream.close()
    await other.close()
    await dropping.close()
  })

  it('renders url, headers and body from global identifiers and sends the request', async () => {
    const result = await ok(
      call({
        template_variables: {
          name: read('name'),
          email: read('email'),
          id: `pvlt:read_object:people:id:${id}:`,
        },
        request: {
          url: `${upstream.origin}/allowed/people/{{ .id }}`,
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-email': '{{.email}}' },
          body: '{"name": "{{ .name }}"}',
        },
      }),
    )
    expect(result).toEqual({
      status_code: 200,
      headers: expect.objectContaining({ 'content-type': 'application/json', 'x-upstream': 'yes' }),
    })
    const sent = upstream.seen.at(-1) as Json
    expect(sent.method).toBe('POST')
    expect(sent.path).toBe(`/allowed/people/${id}`)
    expect(sent.headers['x-email']).toBe('ann@example.com')
    // String values are escaped (" and \), so the body stays JSON.
    expect(JSON.parse(sent.body)).toEqual({ name: 'Ann "The" O\\Hara' })
  })

  it('returns the response body only with include_response_body, and the first value of each header', async () => {
    const plain = await ok(call({ request: { url: `${upstream.origin}/allowed/status/404` } }))
    expect(plain).toEqual({ status_code: 404, headers: expect.any(Object) })
    const withBody = await ok(
      call({ request: { url: `${upstream.origin}/allowed/x?q=1` }, include_response_body: true }),
    )
    expect(JSON.parse(withBody.body)).toEqual({ method: 'GET', path: '/allowed/x?q=1', body: '' })
    const cookies = await ok(call({ request: { url: `${upstream.origin}/allowed/cookies` } }))
    expect(cookies.headers['set-cookie']).toBe('a=1')
  })

  it('prints objects as JSON, reads their properties, and pipes through escape_quotes', async () => {
    await ok(
      call({
        template_variables: { person: `pvlt:read_object:people::${id}:` },
        request: {
          // The whole object holds a card number: the PCI list must allow the URL too.
          url: `${upstream.origin}/allowed/pci/echo`,
          method: 'PUT',
          body: '{{ .person.email }}|{{ .person.name | escape_quotes }}|{"raw": "{{ .person | escape_quotes }}"}',
        },
      }),
    )
    const [email, name, raw] = (upstream.seen.at(-1) as Json).body.split('|')
    expect(email).toBe('ann@example.com')
    expect(name).toBe('Ann \\"The\\" O\\\\Hara')
    expect(JSON.parse(JSON.parse(raw).raw)).toMatchObject({ id, email: 'ann@example.com' })
  })

  it('refuses bad templates and identifiers with 400 ERR1012, sending nothing', async () => {
    const before = upstream.seen.length
    const url = `${upstream.origin}/allowed/x`
    const unknownVariable = await expectError(
      await call({ request: { url: `${url}/{{ .who }}` } }),
      400,
      'ERR1012',
    )
    expect(unknownVariable.context).toEqual({ variable: 'who' })
    const unknownFunction = await expectError(
      await call({
        template_variables: { e: read('email') },
        request: { url, body: '{{ .e | upper }}' },
      }),
      400,
      'ERR1012',
    )
    expect(unknownFunction.message).toContain('the function "upper" is unknown')
    await expectError(await call({ request: { url: `${url}/{{ .e ` } }), 400, 'ERR1012')
    await expectError(await call({ request: { url: `${url}/{{ e }}` } }), 400, 'ERR1012')
    await expectError(
      await call({ template_variables: { e: 'pvlt:read_object:people' }, request: { url } }),
      400,
      'ERR1012',
    )
    await expectError(
      await call({
        template_variables: { p: `pvlt:read_object:people::${id}:` },
        request: { url, body: '{{ .p.nope }}' },
      }),
      400,
      'ERR1012',
    )
    await expectError(await call({ request: { url: 'not a url' } }), 400, 'ERR1012')
    await expectError(await call({ request: { url, method: 'FETCH' } }), 400, 'ERR1012')
    await expectError(await call({ request: {} }), 400, 'ERR1012')
    expect(upstream.seen.length).toBe(before)
  })

  it('refuses a header value a variable broke with a line break (400)', async () => {
    const withBreak = (
      await ok(
        objectsOf(server, 'people').add({ name: 'Eve\r\nX-Evil: 1', email: 'e@example.com' }),
      )
    ).id
    await expectError(
      await call({
        template_variables: { n: `pvlt:read_object:people:name:${withBreak}:` },
        request: { url: `${upstream.origin}/allowed/x`, headers: { 'x-name': '{{ .n }}' } },
      }),
      400,
      'ERR1012',
    )
  })

  it('refuses destinations off the allow-list with 403 ERR1006, sending nothing', async () => {
    const before = other.seen.length + upstream.seen.length
    for (const url of [
      `${other.origin}/allowed/x`,
      `${upstream.origin}/allowedx`,
      `${upstream.origin}/`,
      'file:///etc/passwd',
    ]) {
      const body = await expectError(await call({ request: { url } }), 403, 'ERR1006')
      expect(body.context).toEqual({ field: 'request.url' })
    }
    expect(other.seen.length + upstream.seen.length).toBe(before)
  })

  it('follows redirects only to allowed destinations', async () => {
    const target = encodeURIComponent(`${upstream.origin}/allowed/landed`)
    const followed = await ok(
      call({
        request: { url: `${upstream.origin}/allowed/redirect?to=${target}` },
        include_response_body: true,
      }),
    )
    expect(JSON.parse(followed.body).path).toBe('/allowed/landed')
    const before = other.seen.length
    const away = encodeURIComponent(`${other.origin}/allowed/x`)
    const refused = await expectError(
      await call({ request: { url: `${upstream.origin}/allowed/redirect?to=${away}&status=307` } }),
      403,
      'ERR1006',
    )
    expect(refused.message).toContain('redirected to a URL that is not allowed')
    expect(other.seen.length).toBe(before)
  })

  it('needs the PCI allow-list too when a variable carries card data', async () => {
    const request = (url: string) => ({
      template_variables: { card: read('card') },
      request: { url, method: 'POST', body: '{{ .card }}' },
    })
    await expectError(await call(request(`${upstream.origin}/allowed/x`)), 403, 'ERR1006')
    await ok(call(request(`${upstream.origin}/allowed/pci/charge`)))
    expect((upstream.seen.at(-1) as Json).body).toBe('4111111111111111')
    // A masked card number is not card data.
    await ok(
      call({
        template_variables: { c: read('card.mask') },
        request: { url: `${upstream.origin}/allowed/x`, body: '{{ .c }}' },
      }),
    )
  })

  it('answers 503 ERR1009 when the destination fails upstream', async () => {
    const refused = await expectError(
      await call({ request: { url: `${closed}/x` } }),
      503,
      'ERR1009',
    )
    expect(refused.message).toContain('cannot be reached')
    await expectError(
      await call({ request: { url: `${upstream.origin}/allowed/slow` } }),
      503,
      'ERR1009',
    )
    const big = await expectError(
      await call({ request: { url: `${upstream.origin}/allowed/big` } }),
      503,
      'ERR1009',
    )
    expect(big.message).toContain('larger than 1048576 bytes')
  })

  it('lets a bundle fetch only the PCI allow-list destinations, redirects included', async () => {
    await addBundle(server, 'fetcher', FETCHER)
    await addAction(server, { name: 'fetchit', function: 'fetcher.get', role: 'PrivilegedService' })
    const fetched = await ok(
      invoke(server, 'fetchit', { url: `${upstream.origin}/allowed/pci/hook` }),
    )
    expect(fetched).toEqual({
      ok: true,
      status: 200,
      json: { method: 'POST', path: '/allowed/pci/hook', body: 'ping' },
    })
    expect((upstream.seen.at(-1) as Json).headers['x-from']).toBe('bundle')
    const before = other.seen.length
    const refused = await ok(invoke(server, 'fetchit', { url: `${upstream.origin}/allowed/x` }))
    expect(refused).toEqual({ refused: 'The destination is not allowed.' })
    const away = encodeURIComponent(`${other.origin}/x`)
    const redirected = await ok(
      invoke(server, 'fetchit', { url: `${upstream.origin}/allowed/pci/redirect?to=${away}` }),
    )
    expect(redirected.refused).toContain('redirected to a URL that is not allowed')
    expect(other.seen.length).toBe(before)
  })

  describe('access', () => {
    it('needs an invoke policy on actions/http_call (403 ERR1006) and CapActionInvoker (403 ERR1007)', async () => {
      await setIam(
        server,
        `[users.NoInvoke]
role = "NoInvoke"
[roles.NoInvoke]
capabilities = ["CapActionInvoker", "CapDataReader"]
policies = ["ReadAll"]
[users.NoCap]
role = "NoCap"
[roles.NoCap]
capabilities = ["CapDataReader"]
policies = ["All"]
[policies.ReadAll]
policy_type = "allow"
operations = ["read"]
reasons = ["*"]
resources = ["*"]
[policies.All]
policy_type = "allow"
operations = ["*"]
reasons = ["*"]
resources = ["*"]
`,
      )
      const body = { request: { url: `${upstream.origin}/allowed/x` } }
      const denied = await expectError(
        await call(body, await apiKeyOf(server, 'NoInvoke')),
        403,
        'ERR1006',
      )
      expect(denied.context).toMatchObject({ operation: 'invoke', resource: 'actions/http_call' })
      await expectError(await call(body, await apiKeyOf(server, 'NoCap')), 403, 'ERR1007')
    })
  })
})

describe('http_call with SVC_SERVICE_ACTIONS_HTTP_CALL_ROLE and a * allow-list', () => {
  let server: TestServer
  let upstream: Upstream
  let id: string
  beforeAll(async () => {
    upstream = await startUpstream()
    server = await startTestServer({
      env: {
        SVC_SERVICE_ALLOWED_HTTP_DESTINATIONS: '*',
        SVC_SERVICE_ACTIONS_HTTP_CALL_ROLE: 'Resolver',
      },
    })
    await setIam(
      server,
      `[users.Caller]
role = "Caller"
[roles.Caller]
capabilities = ["CapActionInvoker", "CapDataReader"]
policies = ["All"]
[roles.Resolver]
capabilities = ["CapDataReader"]
policies = ["Email"]
[policies.All]
policy_type = "allow"
operations = ["*"]
reasons = ["*"]
resources = ["*"]
[policies.Email]
policy_type = "allow"
operations = ["read"]
reasons = ["*"]
resources = ["people/properties/email"]
`,
    )
    await addCollection(server, PEOPLE)
    id = (await ok(objectsOf(server, 'people').add({ name: 'Ann', email: 'ann@example.com' }))).id
  })
  afterAll(async () => {
    await server.close()
    await upstream.close()
  })

  it('resolves variables with the configured role, whatever the caller may read', async () => {
    const caller = await apiKeyOf(server, 'Caller')
    const body = (property: string) => ({
      template_variables: { v: `pvlt:read_object:people:${property}:${id}:` },
      request: { url: 'http://203.0.113.1/x', body: '{{ .v }}' },
    })
    const denied = await expectError(
      await server.request('POST', HTTP_CALL, { token: caller, body: body('name') }),
      403,
      'ERR1006',
    )
    expect(denied.message).toContain('people/properties/name')
  })

  it('does not let * reach loopback or private addresses, by IP or by name', async () => {
    const port = new URL(upstream.origin).port
    for (const url of [
      upstream.origin,
      `http://localhost:${port}/`,
      'http://[::1]/',
      'http://169.254.169.254/latest',
      'http://10.1.2.3/',
    ]) {
      const body = await expectError(
        await server.request('POST', HTTP_CALL, { body: { request: { url } } }),
        403,
        'ERR1006',
      )
      expect(body.message).toContain('not allowed')
    }
    expect(upstream.seen).toEqual([])
  })
})
