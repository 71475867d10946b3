// test/client/iam.test.ts: the published client's IAM operations work unchanged against the service
import { VaultClient } from '@piiano/vault-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.ts'

const CONFIG = `
[users.Webapp]
role = "App"
[roles.App]
capabilities = ["CapIAMReader"]
policies = ["PolAll"]
[policies.PolAll]
policy_type = "allow"
operations = ["*"]
reasons = ["*"]
resources = ["*"]
`

describe('published client: IAM operations', () => {
  let server: TestServer
  let client: VaultClient
  beforeAll(async () => {
    server = await startTestServer()
    client = new VaultClient({ vaultURL: server.baseUrl, apiKey: ADMIN_KEY })
  })
  afterAll(() => server.close())

  it('sets and gets the IAM configuration as TOML', async () => {
    expect(await client.iam.getIamConf()).toContain('[roles.ExternalApplication]')
    await client.iam.setIamConf({ requestBody: CONFIG, customAudit: 'change-1' })
    const text = await client.iam.getIamConf()
    expect(text).toContain('[users.Webapp]')
    expect(text).not.toContain('ExternalApplication')
  })

  it('regenerates a key, reads the user, changes the expiry', async () => {
    const key = await client.iam.regenerateUserApiKey({ requestBody: { name: 'Webapp' } })
    expect(key.api_key).toHaveLength(43)
    const webapp = new VaultClient({ vaultURL: server.baseUrl, apiKey: key.api_key })
    expect(await webapp.iam.getUser({ user: 'Webapp' })).toEqual({
      name: 'Webapp',
      api_key: { expiry: key.api_key_expiry },
    })
    const updated = await client.iam.updateApiKeyExpiration({
      requestBody: { name: 'Webapp', expiration_secs: 600 },
    })
    expect(updated.name).toBe('Webapp')
    expect(Date.parse(updated.api_key_expiry)).toBeLessThan(Date.parse(key.api_key_expiry))
  })

  it('surfaces the spec errors', async () => {
    await expect(
      client.iam.regenerateUserApiKey({ requestBody: { name: 'Admin' } }),
    ).rejects.toMatchObject({ status: 403, body: { error_code: 'ERR2021' } })
    await expect(client.iam.getUser({ user: 'Ghost' })).rejects.toMatchObject({
      status: 404,
      body: { error_code: 'ERR9007' },
    })
    await expect(client.iam.setIamConf({ requestBody: '[users' })).rejects.toMatchObject({
      status: 400,
      body: { error_code: 'ERR1012' },
    })
  })

  it('sets the Admin API key', async () => {
    await client.iam.setAdminApiKey({ requestBody: { key: 'Client-Admin-Key-7' } })
    await expect(client.iam.getIamConf()).rejects.toMatchObject({ status: 401 })
    const admin = new VaultClient({ vaultURL: server.baseUrl, apiKey: 'Client-Admin-Key-7' })
    expect(await admin.iam.getIamConf()).toContain('[users.Webapp]')
  })
})
