// src/core/iam/config.test.ts: parsing and validating IAM files, and the default configuration
import { describe, expect, it } from 'vitest'
import { VaultError } from '../errors.ts'
import { parseIamConfig } from './config.ts'
import { DEFAULT_IAM_TOML } from './default-config.ts'

const OPTIONS = { allowJwksUri: true }

const BASE = `
[users.Webapp]
role = "App"

[roles.App]
capabilities = ["CapDataWriter"]
policies = ["PolAll"]

[policies.PolAll]
policy_type = "allow"
operations = ["*"]
reasons = ["*"]
resources = ["*"]
`

const JWKS = JSON.stringify({ keys: [{ kty: 'oct', k: 'c2VjcmV0', alg: 'HS256' }] })

function errorOf(text: string, options = OPTIONS): VaultError {
  try {
    parseIamConfig(text, options)
  } catch (error) {
    if (error instanceof VaultError) return error
    throw error
  }
  throw new Error('expected the configuration to be refused')
}

describe('IAM configuration', () => {
  it('parses the default configuration of the spec', () => {
    const { config } = parseIamConfig(DEFAULT_IAM_TOML, OPTIONS)
    expect([...config.roles.keys()].sort()).toEqual(
      [
        'CICD',
        'Developer',
        'ExternalApplication',
        'InternalApplication',
        'PrivilegedService',
        'SecurityAdmin',
        'TokenConsumerService',
        'VaultScheduler',
      ].sort(),
    )
    expect(config.users.get('Webapp')).toEqual({ role: 'ExternalApplication', isDisabled: false })
    expect(config.policies.get('PolDenyAllAll')?.isAllow).toBe(false)
  })

  it('parses the default as it parses the same text through the shape check', () => {
    // parseIamConfig skips the shape check for the built-in default text only.
    const checked = parseIamConfig(`${DEFAULT_IAM_TOML}\n`, OPTIONS)
    expect(parseIamConfig(DEFAULT_IAM_TOML, OPTIONS)).toEqual(checked)
    expect(checked.config.users.size).toBeGreaterThan(0)
  })

  it('applies defaults and keeps every member', () => {
    const text = `${BASE}
[users.Off]
role = "App"
disabled = true

[roles.Delegating]
trusted_roles = ["App"]

[idps.app1]
type = "direct-jwt"
allowed_roles = ["App"]
[idps.app1.conf]
iss = "https://issuer.example"
aud = "my-app"
keys = '${JWKS}'
bound_claims = { tier = "gold" }
extra_claims = "email, name"
namespace_top_claim = "vault"
[idps.app1.roles_map]
"svc@example.com" = "App"
`
    const { config } = parseIamConfig(text, OPTIONS)
    expect(config.users.get('Off')).toEqual({ role: 'App', isDisabled: true })
    expect(config.roles.get('Delegating')).toEqual({
      capabilities: [],
      policies: [],
      trustedRoles: ['App'],
    })
    expect(config.idps.get('app1')).toMatchObject({
      isDisabled: false,
      allowedRoles: ['App'],
      rolesMap: { 'svc@example.com': 'App' },
      iss: 'https://issuer.example',
      aud: 'my-app',
      jwksUri: undefined,
      keys: { keys: [{ kty: 'oct' }] },
      rolesClaim: 'roles',
      boundClaims: { tier: 'gold' },
      extraClaims: ['email', 'name'],
      namespaceTopClaim: 'vault',
    })
  })

  it('normalizes the text: keys sorted, comments dropped, same meaning', () => {
    const { toml } = parseIamConfig(`# comment\n${BASE}`, OPTIONS)
    expect(toml.indexOf('[policies.PolAll]')).toBeLessThan(toml.indexOf('[roles.App]'))
    expect(toml.indexOf('[roles.App]')).toBeLessThan(toml.indexOf('[users.Webapp]'))
    expect(toml).not.toContain('comment')
    expect(toml.indexOf('capabilities')).toBeLessThan(toml.indexOf('policies = '))
    expect(parseIamConfig(toml, OPTIONS).toml).toBe(toml)
  })

  it('names line and column of a TOML syntax error', () => {
    const error = errorOf('[users.A]\nrole = "R\n')
    expect(error.errorName).toBe('invalidRequest')
    expect(error.message).toMatch(/not valid TOML: .* at line 2, column \d+\.$/)
    expect(error.context).toMatchObject({ line: '2' })
  })

  const cases: [string, string, string][] = [
    ['a missing table', '[users]\n[roles]\n', 'policies'],
    ['a user without role', `${BASE}\n[users.X]\ndisabled = true\n`, 'users.X.role'],
    ['a wrong value type', `${BASE}\n[users.X]\nrole = 3\n`, 'users.X.role'],
    ['an unknown role of a user', `${BASE}\n[users.X]\nrole = "Nope"\n`, 'users.X.role'],
    ['an invalid user name', `${BASE}\n[users."bad-name"]\nrole = "App"\n`, 'users.bad-name'],
    ['a user named Admin', `${BASE}\n[users.Admin]\nrole = "App"\n`, 'users.Admin'],
    ['a role named Admin', `${BASE}\n[roles.Admin]\n`, 'roles.Admin'],
    ['a role of Admin', `${BASE}\n[users.X]\nrole = "Admin"\n`, 'users.X.role'],
    [
      'an unknown capability',
      BASE.replace('"CapDataWriter"', '"CapNope"'),
      'roles.App.capabilities',
    ],
    [
      'CapSystem in a role',
      BASE.replace('"CapDataWriter"', '"CapSystem"'),
      'roles.App.capabilities',
    ],
    ['an unknown policy', BASE.replace('["PolAll"]', '["PolNope"]'), 'roles.App.policies'],
    [
      'an unknown trusted role',
      `${BASE}\n[roles.D]\ntrusted_roles = ["Nope"]\n`,
      'roles.D.trusted_roles',
    ],
    ['a bad policy_type', BASE.replace('"allow"', '"permit"'), 'policies.PolAll.policy_type'],
    [
      'an unknown operation',
      BASE.replace('operations = ["*"]', 'operations = ["peek"]'),
      'policies.PolAll.operations',
    ],
    [
      'an empty operation list',
      BASE.replace('operations = ["*"]', 'operations = []'),
      'policies.PolAll.operations',
    ],
    [
      'an unknown reason',
      BASE.replace('reasons = ["*"]', 'reasons = ["appfunctionality"]'),
      'policies.PolAll.reasons',
    ],
    [
      'a bad resource',
      BASE.replace('resources = ["*"]', 'resources = ["people/fields/ssn"]'),
      'policies.PolAll.resources',
    ],
  ]

  it.each(cases)('refuses %s with 400 ERR1012 naming the entry', (_what, text, entry) => {
    const error = errorOf(text)
    expect(error.code).toBe('ERR1012')
    expect(error.status).toBe(400)
    expect(error.context.entry).toBe(entry)
    expect(error.message).toContain(entry)
  })

  const idp = (conf: string, extra = '') =>
    `${BASE}\n[idps.app1]\ntype = "direct-jwt"\n${extra}\n[idps.app1.conf]\niss = "i"\naud = "a"\n${conf}\n`

  it.each([
    ['no keys', idp(''), 'idps.app1.conf'],
    [
      'both keys and a JWKS URI',
      idp(`jwks_uri = "https://x/jwks"\nkeys = '${JWKS}'`),
      'idps.app1.conf',
    ],
    ['keys that are not a JWKS', idp(`keys = "not json"`), 'idps.app1.conf.keys'],
    ['an empty JWKS', idp(`keys = '{"keys":[]}'`), 'idps.app1.conf.keys'],
    ['a bad JWKS URI', idp(`jwks_uri = "not a url"`), 'idps.app1.conf.jwks_uri'],
    [
      'a JWKS URI of another scheme',
      idp(`jwks_uri = "file:///etc/jwks"`),
      'idps.app1.conf.jwks_uri',
    ],
    ['a key of an unknown type', idp(`keys = '{"keys":[{"kty":"XYZ"}]}'`), 'idps.app1.conf.keys'],
    [
      'an unknown allowed role',
      idp(`keys = '${JWKS}'`, 'allowed_roles = ["Nope"]'),
      'idps.app1.allowed_roles',
    ],
    [
      'an unknown mapped role',
      idp(`keys = '${JWKS}'`, '[idps.app1.roles_map]\nx = "Nope"'),
      'idps.app1.roles_map',
    ],
    ['another type', idp(`keys = '${JWKS}'`).replace('direct-jwt', 'oidc'), 'idps.app1.type'],
  ])('refuses an IdP with %s', (_what, text, entry) => {
    expect(errorOf(text).context.entry).toBe(entry)
  })

  it('accepts keys as a TOML table and a JWKS URI when allowed', () => {
    const table = idp('[[idps.app1.conf.keys.keys]]\nkty = "oct"\nk = "c2VjcmV0"')
    expect(parseIamConfig(table, OPTIONS).config.idps.get('app1')?.keys?.keys).toHaveLength(1)
    const uri = idp('jwks_uri = "https://issuer.example/jwks.json"')
    expect(parseIamConfig(uri, OPTIONS).config.idps.get('app1')?.jwksUri).toBe(
      'https://issuer.example/jwks.json',
    )
  })

  it('refuses a JWKS URI with SVC_FEATURES_DISABLE_IDP_JWKS', () => {
    const error = errorOf(idp('jwks_uri = "https://x/jwks"'), { allowJwksUri: false })
    expect(error.context.entry).toBe('idps.app1.conf.jwks_uri')
    expect(error.message).toContain('SVC_FEATURES_DISABLE_IDP_JWKS')
  })

  it('accepts the legacy operation invalidate_token and wildcards', () => {
    const text = BASE.replace('operations = ["*"]', 'operations = ["invalidate_token", "read"]')
    expect(parseIamConfig(text, OPTIONS).config.policies.get('PolAll')?.operations).toEqual([
      'invalidate_token',
      'read',
    ])
  })
})
