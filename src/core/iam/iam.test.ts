// src/core/iam/iam.test.ts: the IAM service on a real store: start-up install, atomic replace, keys, gates
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { testContext } from '../../../test/helpers/context.ts'
import { openTestStore, type TestStore } from '../../../test/helpers/store.ts'
import type { Principal } from '../context.ts'
import { VaultError } from '../errors.ts'
import { hashApiKey } from './api-keys.ts'
import { createIamService, type IamDeps } from './iam.ts'

const NOW = Date.UTC(2030, 0, 1) * 1000

const CONFIG = `
[users.App1]
role = "App"
[users.Other]
role = "App"
[roles.App]
capabilities = ["CapDataReader"]
policies = ["PolReadEmail"]
[roles.Boss]
capabilities = ["*"]
trusted_roles = ["App"]
[policies.PolReadEmail]
policy_type = "allow"
operations = ["read"]
reasons = ["*"]
resources = ["*/types/EMAIL"]
`

async function codeOf(work: () => unknown): Promise<string> {
  try {
    await work()
    return 'ok'
  } catch (error) {
    if (error instanceof VaultError) return `${error.status} ${error.code}`
    throw error
  }
}

describe('IAM service', () => {
  let db: TestStore
  let changes = 0
  const deps = (overrides: Partial<IamDeps> = {}): IamDeps => ({
    store: db.store,
    audit: { transaction: (_ctx, _details, work) => db.store.transaction(work) },
    clock: () => NOW,
    onChanged: async () => {
      changes++
    },
    adminApiKey: 'pvaultauth',
    overrideAdminApiKeyOnRestart: true,
    adminMayReadData: true,
    policyEnforcement: true,
    apiKeyExpirationSecs: 3600,
    allowJwksUri: true,
    setIamOnStartOnly: false,
    ...overrides,
  })
  beforeEach(async () => {
    db = await openTestStore()
    changes = 0
  })
  afterEach(() => db.close())

  it('installs the default configuration on first start, and keeps a stored one later', async () => {
    const iam = createIamService(deps())
    await iam.initialize(undefined)
    expect(iam.getConfig(testContext())).toContain('[roles.ExternalApplication]')
    await iam.setConfig(testContext(), CONFIG)
    expect(changes).toBe(1)
    const restarted = createIamService(deps())
    await restarted.initialize({ path: 'conf/iam.toml', text: '[users]\n[roles]\n[policies]\n' })
    expect(restarted.getConfig(testContext())).toContain('[users.App1]')
  })

  it('installs the IAM file on first start, and at every start when set on start only', async () => {
    const iam = createIamService(deps())
    await iam.initialize({ path: 'conf/iam.toml', text: CONFIG })
    expect(iam.getConfig(testContext())).toContain('[users.App1]')
    const again = createIamService(deps({ setIamOnStartOnly: true }))
    await again.initialize({ path: 'conf/iam.toml', text: '[users]\n[roles]\n[policies]\n' })
    expect(again.getConfig(testContext())).not.toContain('App1')
    expect(await codeOf(() => again.setConfig(testContext(), CONFIG))).toBe('405 ERR1003')
  })

  it('refuses a malformed start-up file, naming it', async () => {
    const iam = createIamService(deps())
    const failure = iam.initialize({ path: 'conf/iam.toml', text: '[users\n' })
    await expect(failure).rejects.toThrow(/^conf\/iam\.toml: .* at line 1, column \d+\.$/)
  })

  it('refuses a stored configuration this node cannot use', async () => {
    const jwks = `${CONFIG}\n[idps.i]\ntype = "direct-jwt"\n[idps.i.conf]\niss = "i"\naud = "a"\njwks_uri = "https://i/jwks"\n`
    await createIamService(deps()).initialize({ path: 'conf/iam.toml', text: jwks })
    const strict = createIamService(deps({ allowJwksUri: false }))
    await expect(strict.initialize(undefined)).rejects.toThrow(
      /^The stored IAM configuration: .*idps\.i\.conf\.jwks_uri/,
    )
  })

  it('changes nothing when a configuration is refused', async () => {
    const iam = createIamService(deps())
    await iam.initialize({ path: 'conf/iam.toml', text: CONFIG })
    const before = await db.store.iam.getConfig()
    const broken = CONFIG.replace('role = "App"', 'role = "Nope"')
    expect(await codeOf(() => iam.setConfig(testContext(), broken))).toBe('400 ERR1012')
    expect(await db.store.iam.getConfig()).toEqual(before)
    expect(changes).toBe(0)
  })

  it('removes keys of users that leave, keeps keys of users whose role changes', async () => {
    const iam = createIamService(deps())
    await iam.initialize({ path: 'conf/iam.toml', text: CONFIG })
    const app = await iam.regenerateApiKey(testContext(), 'App1')
    const other = await iam.regenerateApiKey(testContext(), 'Other')
    const next = CONFIG.replace('[users.Other]\nrole = "App"\n', '').replace(
      '[users.App1]\nrole = "App"',
      '[users.App1]\nrole = "Reader"\n[roles.Reader]\ncapabilities = []',
    )
    await iam.setConfig(testContext(), next)
    expect(await db.store.iam.findApiKeyByHash(hashApiKey(other.apiKey))).toBeUndefined()
    expect((await iam.authenticate(app.apiKey)).role).toBe('Reader')
  })

  it('authenticates keys until they expire, refuses disabled users and delegated roles', async () => {
    let now = NOW
    const iam = createIamService(deps({ clock: () => now }))
    await iam.initialize({
      path: 'conf/iam.toml',
      text: `${CONFIG}\n[users.Chief]\nrole = "Boss"\n`,
    })
    const { apiKey } = await iam.regenerateApiKey(testContext(), 'App1')
    expect(await iam.authenticate(apiKey)).toEqual({
      username: 'App1',
      role: 'App',
      isAdmin: false,
      authKind: 'api_key',
    })
    const chief = await iam.regenerateApiKey(testContext(), 'Chief')
    expect(await codeOf(() => iam.authenticate(chief.apiKey))).toBe('401 ERR1005')
    now += 3600 * 1_000_000
    expect(await codeOf(() => iam.authenticate(apiKey))).toBe('401 ERR1005')
    await iam.setConfig(
      testContext(),
      CONFIG.replace('role = "App"', 'role = "App"\ndisabled = true'),
    )
    await iam.updateApiKeyExpiration(testContext(undefined, { now }), 'App1', 60)
    expect(await codeOf(() => iam.authenticate(apiKey))).toBe('401 ERR1011')
  })

  it('applies policies to users, and to Admin only when Admin may read data', async () => {
    const iam = createIamService(deps({ adminMayReadData: false }))
    await iam.initialize({ path: 'conf/iam.toml', text: CONFIG })
    const user: Principal = { username: 'App1', role: 'App', isAdmin: false, authKind: 'api_key' }
    const email = {
      operation: 'read',
      resources: ['people/properties/email', 'people/types/EMAIL'],
    }
    const ssn = { operation: 'read', resources: ['people/properties/ssn', 'people/types/SSN'] }
    expect(await codeOf(() => iam.checkPolicies(testContext(user), [email]))).toBe('ok')
    expect(await codeOf(() => iam.checkPolicies(testContext(user), [email, ssn]))).toBe(
      '403 ERR1006',
    )
    expect(await codeOf(() => iam.checkPolicies(testContext(), [email]))).toBe('403 ERR1006')
    expect(await codeOf(() => iam.checkPolicies(testContext(), []))).toBe('ok')
    const off = createIamService(deps({ policyEnforcement: false, adminMayReadData: false }))
    await off.initialize(undefined)
    expect(await codeOf(() => off.checkPolicies(testContext(user), [ssn]))).toBe('ok')
  })
})
