// test/api/iam-startup.test.ts: the IAM file of the configuration directory and the Admin key across restarts
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createApp } from '../../src/app.ts'
import { ADMIN_KEY, API, fetchJson, testConfig } from '../helpers/server.ts'

const dir = await mkdtemp(join(tmpdir(), 'strongroom-iam-'))
afterAll(() => rm(dir, { recursive: true, force: true }))

const FILE = `
[users.FromFile]
role = "FileRole"
[roles.FileRole]
capabilities = ["CapIAMReader"]
[policies]
`

/** Starts a node on a SQLite file in `name`, with `conf/` of that folder as configuration directory. */
async function withNode<T>(
  name: string,
  env: Record<string, string>,
  work: (call: (path: string, key?: string, init?: RequestInit) => Promise<Response>) => Promise<T>,
): Promise<T> {
  const app = await createApp(
    testConfig({
      SVC_BACKING_STORE: 'sqlite',
      SVC_DATA_DIR: join(dir, name, 'data'),
      SVC_CONFIG_DIR: join(dir, name, 'conf'),
      ...env,
    }),
  )
  const base = await app.listen()
  try {
    return await work((path, key = ADMIN_KEY, init = {}) =>
      fetchJson(`${base}${API}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${key}`, ...(init.headers as Record<string, string>) },
      }),
    )
  } finally {
    await app.close()
  }
}

async function confOf(name: string, env: Record<string, string> = {}): Promise<string> {
  return withNode(name, env, async (call) => (await call('/ctl/iam/conf')).text())
}

async function writeIam(name: string, text: string): Promise<void> {
  await mkdir(join(dir, name, 'conf'), { recursive: true })
  await writeFile(join(dir, name, 'conf', 'iam.toml'), text)
}

describe('IAM at start', () => {
  it('installs conf/iam.toml on first start and keeps the stored configuration later', async () => {
    await writeIam('first', FILE)
    expect(await confOf('first')).toContain('[users.FromFile]')
    await writeIam('first', FILE.replaceAll('FromFile', 'Changed'))
    expect(await confOf('first')).toContain('[users.FromFile]')
  })

  it('re-applies the file at every start with SVC_SERVICE_SET_IAM_ON_START_ONLY', async () => {
    await writeIam('always', FILE)
    expect(await confOf('always')).toContain('[users.FromFile]')
    await writeIam('always', FILE.replaceAll('FromFile', 'Changed'))
    const env = { SVC_SERVICE_SET_IAM_ON_START_ONLY: 'true' }
    expect(await confOf('always', env)).toContain('[users.Changed]')
  })

  it('installs the default configuration without a file', async () => {
    expect(await confOf('default')).toContain('[roles.ExternalApplication]')
  })

  it('refuses to start with a malformed file, naming the file, line and column', async () => {
    await writeIam('broken', '[users.A]\nrole = "unterminated\n')
    const failure = createApp(
      testConfig({ SVC_BACKING_STORE: 'memory', SVC_CONFIG_DIR: join(dir, 'broken', 'conf') }),
    )
    await expect(failure).rejects.toThrow(/broken\/conf\/iam\.toml: .*line 2, column \d+\./)
  })

  it('refuses to start with a file that references unknown things', async () => {
    await writeIam('unknown', FILE.replace('role = "FileRole"', 'role = "Ghost"'))
    const failure = createApp(
      testConfig({ SVC_BACKING_STORE: 'memory', SVC_CONFIG_DIR: join(dir, 'unknown', 'conf') }),
    )
    await expect(failure).rejects.toThrow(/iam\.toml: .*users\.FromFile\.role/)
  })
})

describe('the Admin key across restarts', () => {
  const setKey = (call: (path: string, key?: string, init?: RequestInit) => Promise<Response>) =>
    call('/ctl/iam/admin/set-api-key', ADMIN_KEY, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key: 'Run-Time-Admin-Key-1' }),
    })
  const statusWith =
    (key: string) => async (call: (path: string, key?: string) => Promise<Response>) =>
      (await call('/ctl/iam/conf', key)).status

  it('keeps a run-time key when the variable does not override it', async () => {
    const env = { SVC_SERVICE_OVERRIDE_ADMIN_API_KEY_ON_RESTART: 'false' }
    expect((await withNode('keep', env, setKey)).status).toBe(200)
    expect(await withNode('keep', env, statusWith('Run-Time-Admin-Key-1'))).toBe(200)
    expect(await withNode('keep', env, statusWith(ADMIN_KEY))).toBe(401)
  })

  it('goes back to the variable at every start by default', async () => {
    expect((await withNode('override', {}, setKey)).status).toBe(200)
    expect(await withNode('override', {}, statusWith('Run-Time-Admin-Key-1'))).toBe(401)
    expect(await withNode('override', {}, statusWith(ADMIN_KEY))).toBe(200)
  })
})
