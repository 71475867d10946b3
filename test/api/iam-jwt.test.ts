// test/api/iam-jwt.test.ts: JWT identity providers, role delegation and JWT tenants over HTTP
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type CryptoKey, exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { describeEngines } from '../helpers/engines.ts'
import { apiKeyOf, setIam } from '../helpers/iam.ts'
import { policyRoutes, TEST_DATA } from '../helpers/policy-routes.ts'
import { API, startTestServer, type TestServer } from '../helpers/server.ts'

const ISS = 'https://issuer.example'
const SECRET = Buffer.from('another-shared-secret-32-bytes!!')
const SECRET_JWK = { kty: 'oct', k: SECRET.toString('base64url'), alg: 'HS256' }
const VERSION = `${API}/system/info/version`

type Keys = { rsa: CryptoKey; jwksUrl: string; server: Server }

async function startJwks(): Promise<Keys> {
  const { privateKey, publicKey } = await generateKeyPair('RS256')
  const jwks = JSON.stringify({
    keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256' }],
  })
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(jwks)
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const { port } = server.address() as AddressInfo
  return { rsa: privateKey, jwksUrl: `http://127.0.0.1:${port}/jwks.json`, server }
}

function config(jwksUrl: string): string {
  return `
[users.Worker]
role = "Worker"
[users.Stranger]
role = "Stranger"
[roles.Worker]
capabilities = []
[roles.Stranger]
capabilities = ["CapIAMReader"]
[roles.Reader]
capabilities = ["CapIAMReader", "CapDataReader"]
policies = ["PolAll"]
[roles.Boss]
capabilities = ["CapIAMReader"]
trusted_roles = ["Worker"]
[policies.PolAll]
policy_type = "allow"
operations = ["*"]
reasons = ["*"]
resources = ["*"]

[idps.corp]
type = "direct-jwt"
allowed_roles = ["Reader", "Boss"]
[idps.corp.conf]
iss = "${ISS}"
aud = "vault"
jwks_uri = "${jwksUrl}"
bound_claims = { org = "acme" }
namespace_top_claim = "vault"
[idps.corp.roles_map]
"robot@acme.example" = "Reader"

[idps.shared]
type = "direct-jwt"
[idps.shared.conf]
iss = "https://shared.example"
aud = ["vault", "other"]
keys = '${JSON.stringify({ keys: [SECRET_JWK] })}'

[idps.off]
type = "direct-jwt"
disabled = true
[idps.off.conf]
iss = "https://off.example"
aud = "vault"
keys = '${JSON.stringify({ keys: [SECRET_JWK] })}'
`
}

describeEngines('JWT identity providers', (engine) => {
  let server: TestServer
  let keys: Keys
  const apiKeys: Record<string, string> = {}
  beforeAll(async () => {
    keys = await startJwks()
    server = await startTestServer({ engine, routes: policyRoutes })
    await setIam(server, config(keys.jwksUrl))
    apiKeys.Worker = await apiKeyOf(server, 'Worker')
    apiKeys.Stranger = await apiKeyOf(server, 'Stranger')
  })
  afterAll(async () => {
    await server.close()
    keys.server.close()
  })

  const now = () => Math.floor(Date.now() / 1000)
  const corp = (claims: JWTPayload = {}) =>
    new SignJWT({
      iss: ISS,
      aud: 'vault',
      sub: 'alice',
      org: 'acme',
      exp: now() + 300,
      roles: ['Reader'],
      ...claims,
    })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .sign(keys.rsa)
  const shared = (claims: JWTPayload = {}) =>
    new SignJWT({
      iss: 'https://shared.example',
      aud: 'vault',
      sub: 'bob',
      exp: now() + 300,
      roles: 'Reader',
      ...claims,
    })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(SECRET)

  const status = async (token: string, path = VERSION, headers: Record<string, string> = {}) => {
    const res = await server.request('GET', path, { token, headers })
    return res.status === 200 ? 200 : `${res.status} ${(await res.json()).error_code}`
  }

  it('accepts a token verified against the JWKS URI, with the role from the roles claim', async () => {
    expect(await status(await corp(), `${API}/ctl/iam/conf`)).toBe(200)
  })

  it('names the JWT caller <idp>:<sub>', async () => {
    const res = await server.request('POST', `${API}/ctl/iam/user/regen`, {
      token: await corp(),
      body: { name: 'Worker' },
    })
    expect(await res.json()).toMatchObject({
      error_code: 'ERR1007',
      context: { username: 'corp:alice' },
    })
  })

  it('maps a subject to a role through roles_map', async () => {
    expect(
      await status(await corp({ sub: 'robot@acme.example', roles: [] }), `${API}/ctl/iam/conf`),
    ).toBe(200)
  })

  it('accepts HS256 tokens with an inline key and an audience list', async () => {
    expect(await status(await shared())).toBe(200)
  })

  it.each<[string, () => Promise<string>]>([
    ['an expired token', () => corp({ exp: Math.floor(Date.now() / 1000) - 10 })],
    ['a token not valid yet', () => corp({ nbf: Math.floor(Date.now() / 1000) + 600 })],
    ['a wrong audience', () => corp({ aud: 'someone-else' })],
    ['an unknown issuer', () => corp({ iss: 'https://evil.example' })],
    ['a broken bound claim', () => corp({ org: 'evil' })],
    ['a role outside allowed_roles', () => corp({ roles: ['Stranger'] })],
    ['an unknown role', () => corp({ roles: ['Nope'] })],
    ['a disabled IdP', () => shared({ iss: 'https://off.example' })],
    [
      'a forged signature',
      async () => `${(await corp()).split('.').slice(0, 2).join('.')}.${'A'.repeat(342)}`,
    ],
    [
      'a token signed with another secret',
      () =>
        new SignJWT({
          iss: 'https://shared.example',
          aud: 'vault',
          sub: 'x',
          exp: Math.floor(Date.now() / 1000) + 60,
          roles: 'Reader',
        })
          .setProtectedHeader({ alg: 'HS256' })
          .sign(Buffer.from('x'.repeat(32))),
    ],
  ])('refuses %s with 401 ERR1005', async (_what, token) => {
    const res = await server.request('GET', VERSION, { token: await token() })
    const body = await res.json()
    expect(res.status).toBe(401)
    expect(body.error_code).toBe('ERR1005')
    expect(body.message).toMatch(/^The JWT is not accepted: .*\.$/)
  })

  it('takes tenants from the namespace claim, before X-Tenant-Id', async () => {
    const token = await corp({ vault: { tenant_ids: ['t1'] } })
    const path = (tenant: string) => `${TEST_DATA}/tenants/${tenant}?reason=AppFunctionality`
    expect(await status(token, path('t1'))).toBe(200)
    expect(await status(token, path('t2'), { 'x-tenant-id': 't2' })).toBe('403 ERR1006')
    expect(await status(await corp(), path('t2'), { 'x-tenant-id': 't2' })).toBe(200)
  })

  describe('role delegation', () => {
    it('acts with the delegating role for a trusted acting role', async () => {
      const boss = await corp({ roles: ['Boss'] })
      expect(await status(apiKeys.Worker as string, `${API}/ctl/iam/conf`)).toBe('403 ERR1007')
      expect(
        await status(apiKeys.Worker as string, `${API}/ctl/iam/conf`, {
          'x-pvault-delegation': boss,
        }),
      ).toBe(200)
    })

    it('refuses an untrusted acting role with 403 ERR1007', async () => {
      const boss = await corp({ roles: ['Boss'] })
      const res = await server.request('GET', VERSION, {
        token: apiKeys.Stranger,
        headers: { 'x-pvault-delegation': boss },
      })
      expect(await res.json()).toMatchObject({
        error_code: 'ERR1007',
        context: { username: 'Stranger' },
      })
    })

    it('refuses a delegating role signing in directly, and an API key as delegation', async () => {
      expect(await status(await corp({ roles: ['Boss'] }))).toBe('401 ERR1005')
      expect(
        await status(apiKeys.Worker as string, VERSION, {
          'x-pvault-delegation': apiKeys.Stranger as string,
        }),
      ).toBe('401 ERR1005')
      expect(
        await status(apiKeys.Worker as string, VERSION, {
          'x-pvault-delegation': await corp({ roles: ['Boss'], exp: 1 }),
        }),
      ).toBe('401 ERR1005')
    })
  })
})

describe('JWKS URIs disabled', () => {
  it('refuses a configuration with jwks_uri when SVC_FEATURES_DISABLE_IDP_JWKS=true', async () => {
    const server = await startTestServer({ env: { SVC_FEATURES_DISABLE_IDP_JWKS: 'true' } })
    const res = await server.request('POST', `${API}/ctl/iam/conf`, {
      headers: { 'content-type': 'application/toml' },
      body: config('https://issuer.example/jwks.json'),
    })
    expect(await res.json()).toMatchObject({
      error_code: 'ERR1012',
      context: { entry: 'idps.corp.conf.jwks_uri' },
    })
    const inline = config('x').replace(
      /jwks_uri = .*\n/,
      `keys = '${JSON.stringify({ keys: [SECRET_JWK] })}'\n`,
    )
    await setIam(server, inline)
    await server.close()
  })
})
