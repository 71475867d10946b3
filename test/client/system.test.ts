// test/client/system.test.ts: the published @piiano/vault-client works unchanged against the service
import { VaultClient } from '@piiano/vault-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.ts'

describe('published client: system operations', () => {
  let server: TestServer
  let client: VaultClient
  beforeAll(async () => {
    server = await startTestServer()
    client = new VaultClient({ vaultURL: server.baseUrl, apiKey: ADMIN_KEY })
  })
  afterAll(() => server.close())

  it('reads data and control health', async () => {
    expect(await client.system.dataHealth()).toEqual({ status: 'pass' })
    expect(await client.system.controlHealth()).toEqual({ status: 'pass' })
  })

  it('reads the version', async () => {
    const version = await client.system.getVaultVersion()
    expect(version.vault_version).toBe('0.1.0')
    expect(version.db_schema_version).toBeGreaterThanOrEqual(1)
  })

  it('reads the configuration and cluster information', async () => {
    const config = await client.system.getConfiguration()
    expect(config.service.max_page_size).toBe(1000)
    const cluster = await client.system.getClusterInfo()
    expect(cluster.workers).toHaveLength(1)
  })

  it('surfaces service errors with the spec body', async () => {
    const anonymous = new VaultClient({ vaultURL: server.baseUrl, apiKey: 'wrong-key' })
    await expect(anonymous.system.getVaultVersion()).rejects.toMatchObject({
      status: 401,
      body: { error_code: 'ERR1005', message: expect.any(String), context: {} },
    })
  })

  it('sets and reads dynamic configuration variables', async () => {
    await client.configVars.setConfVar({ name: 'log_level', requestBody: { value: 'warn' } })
    expect((await client.configVars.getConfVar({ name: 'log_level' })).value).toBe('warn')
  })
})
