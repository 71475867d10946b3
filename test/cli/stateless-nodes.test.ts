// test/cli/stateless-nodes.test.ts: two `strongroom serve` processes in stateless mode, one configuration directory
import { readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Running, startCli } from '../helpers/cli.ts'
import { SERVER_SECRETS } from '../helpers/config.ts'
import { API } from '../helpers/server.ts'
import { APP_KEY, configDir, FILES } from '../helpers/stateless.ts'

const SEED = 'the seed both stateless processes share'
const PEOPLE = `${API}/data/collections/people`
const REASON = 'reason=AppFunctionality'

describe('stateless nodes as processes', () => {
  let dir: string
  let nodes: Running[] = []
  const call = (node: Running, path: string, body: unknown) =>
    fetch(`${node.address}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${APP_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })

  beforeAll(async () => {
    // Server mode (no --dev): no built-in seed, the shared one comes from secrets.toml.
    const secrets = `${FILES['secrets.toml']}\n[kms]\nseed = "${SEED}"\n`
    dir = await configDir({ ...FILES, 'secrets.toml': secrets })
    const env = (n: number) => ({
      SVC_BACKING_STORE: 'none',
      SVC_CONFIG_DIR: dir,
      SVC_KMS_ALLOW_LOCAL: 'true',
      SVC_SERVICE_ADMIN_API_KEY: SERVER_SECRETS.SVC_SERVICE_ADMIN_API_KEY,
      SVC_TLS_ENABLE: 'false',
      SVC_LOG_AUDIT_SINK: 'file',
      SVC_LOG_AUDIT_FILE: join(dir, `audit-${n}.log`),
    })
    nodes = await Promise.all([startCli(['serve'], env(1)), startCli(['serve'], env(2))])
  })
  afterAll(async () => {
    for (const node of nodes) expect(await node.stop()).toBe(0)
    await rm(dir, { recursive: true, force: true })
  })

  it('each opens what the other encrypted; object id references answer 501', async () => {
    const [first, second] = nodes as [Running, Running]
    const jo = { name: 'Jo Doe', email: 'jo@example.com' }
    const encrypted = await call(first, `${PEOPLE}/encrypt/objects?${REASON}`, [
      { object: { fields: jo } },
    ])
    expect(encrypted.status).toBe(200)
    const [{ ciphertext }] = (await encrypted.json()) as [{ ciphertext: string }]
    const decrypted = await call(second, `${PEOPLE}/decrypt/objects?${REASON}`, [
      { encrypted_object: { ciphertext } },
    ])
    expect(await decrypted.json()).toEqual([{ fields: jo }])
    const id = '8d0f1c1e-8b6c-4ec3-a7f4-3b1ad8a0ad4e'
    const stored = await call(second, `${PEOPLE}/hash/objects?${REASON}`, [{ object: { id } }])
    expect(stored.status).toBe(501)
    expect(((await stored.json()) as { error_code: string }).error_code).toBe('ERR2001')
    expect(second.output()).toContain('"msg":"Store: none (stateless)"')
    const audit = await readFile(join(dir, 'audit-2.log'), 'utf8')
    expect(audit).toContain('"operation":"decrypt"')
    expect(audit).not.toContain('Jo Doe')
  })
})
