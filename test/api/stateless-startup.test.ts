// test/api/stateless-startup.test.ts: a stateless node whose configuration files are malformed does not start, listing every problem
import { rm } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createApp } from '../../src/app.ts'
import { loadConfig } from '../../src/config.ts'
import { logLines, runCli } from '../helpers/cli.ts'
import { dev, problemsOf, SERVER_ENV, server } from '../helpers/config.ts'
import { ADMIN_KEY, API } from '../helpers/server.ts'
import {
  configDir,
  FILES,
  sha256Hex,
  startStatelessNode,
  statelessConfig,
} from '../helpers/stateless.ts'

const REASON = 'reason=AppFunctionality'

const dirs: string[] = []
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))))

async function startFailure(files: Record<string, string>, env: Record<string, string> = {}) {
  const dir = await configDir(files)
  dirs.push(dir)
  return { dir, message: await failureOf(dir, env) }
}

/** Why the node did not start (a node that starts is closed and fails the test). */
async function failureOf(dir: string, env: Record<string, string> = {}): Promise<string> {
  const started = await createApp(statelessConfig(dir, env), { isLogSilent: true }).catch(
    (error: Error) => error,
  )
  if (started instanceof Error) return started.message
  await started.close()
  throw new Error('the node started')
}

describe('stateless mode at start', () => {
  it('lists the syntax errors of every file, with file, line and column', async () => {
    const { dir, message } = await startFailure({
      'iam.toml': '[users.App]\nrole = "unterminated\n',
      'secrets.toml': '[users.App]\napi_key_sha256 = \n',
      'collections.pvschema': 'people PERSONS (\n  name NAME,\n  email EMAIL NUL,\n);\n',
    })
    expect(message).toContain('(3 problems)')
    expect(message).toMatch(new RegExp(`${join(dir, 'iam.toml')}: .*line 2, column \\d+`))
    expect(message).toMatch(new RegExp(`${join(dir, 'secrets.toml')}: line 2, column \\d+`))
    expect(message).toMatch(
      new RegExp(`${join(dir, 'collections.pvschema')}: .*line 3, column \\d+`),
    )
  })

  it('lists what the rules refuse: unknown users, bad hashes, unknown types and bundles, duplicates', async () => {
    const { message } = await startFailure({
      'iam.toml': FILES['iam.toml'] as string,
      'secrets.toml': `[users.App]\napi_key_sha256 = "abc"\n[users.Ghost]\napi_key_sha256 = "${sha256Hex('k')}"\n`,
      'collections.pvschema': 'a DATA (x NOSUCHTYPE);\nb DATA (y STRING);\nb DATA (y STRING);\n',
      'types.toml': '[types.SSN2]\nbase_type_name = "STRING"\nvalidator = "nosuch.validate"\n',
    })
    expect(message).toContain('(5 problems)')
    expect(message).toContain('[users.App]: api_key_sha256 must be the SHA-256')
    expect(message).toContain('the IAM configuration has no user Ghost')
    expect(message).toContain('collection a: The data type of property x is not found')
    expect(message).toContain('collection b: defined twice')
    expect(message).toMatch(/types\.toml.*nosuch/)
  })

  it('lists a file it cannot read', async () => {
    const { dir, message } = await startFailure({ 'iam.toml/': '' })
    expect(message).toContain(`${join(dir, 'iam.toml')}: cannot be read (EISDIR)`)
  })

  it('refuses a configuration directory that does not exist', async () => {
    const missing = join(await configDir({}), 'missing')
    dirs.push(dirname(missing))
    expect(await failureOf(missing, { SVC_LOG_AUDIT_SINK: 'none' })).toContain(
      `${missing}: the configuration directory (SVC_CONFIG_DIR) does not exist`,
    )
  })

  it('takes the KMS seed from [kms] of secrets.toml', async () => {
    const seed = 'a seed kept in secrets.toml'
    const files = {
      ...FILES,
      'secrets.toml': `${FILES['secrets.toml']}\n[kms]\nseed = "${seed}"\n`,
    }
    const dir = await configDir(files)
    dirs.push(dir)
    const env = {
      SVC_BACKING_STORE: 'none',
      SVC_CONFIG_DIR: dir,
      SVC_SERVICE_LISTEN_ADDR: '127.0.0.1:0',
      SVC_LOG_AUDIT_SINK: 'none',
    }
    const fromFile = await createApp(loadConfig(env, { devmode: true }), { isLogSilent: true })
    const fromEnv = await startStatelessNode(dir, { SVC_KMS_SEED: seed })
    try {
      const base = await fromFile.listen()
      const res = await fetch(`${base}${API}/data/collections/people/encrypt/objects?${REASON}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify([{ object: { fields: { name: 'Jo Doe' } } }]),
      })
      const [{ ciphertext }] = (await res.json()) as [{ ciphertext: string }]
      const opened = await fromEnv.request(
        'POST',
        `${API}/data/collections/people/decrypt/objects?${REASON}`,
        [{ encrypted_object: { ciphertext } }],
      )
      expect(await opened.json()).toEqual([{ fields: { name: 'Jo Doe' } }])
    } finally {
      await fromFile.close()
      await fromEnv.close()
    }
  })

  it('refuses a database audit sink and a seed to generate, which stateless nodes cannot have', () => {
    const env = { SVC_BACKING_STORE: 'none', SVC_LOG_AUDIT_SINK: 'database' }
    expect(problemsOf(() => dev(env))).toEqual([
      'SVC_LOG_AUDIT_SINK: a stateless node (SVC_BACKING_STORE=none) has no database; set SVC_LOG_AUDIT_SINK to stdout or file',
    ])
    const generated = { ...SERVER_ENV, SVC_BACKING_STORE: 'none', SVC_KMS_SEED: '' }
    expect(problemsOf(() => server({ ...generated, SVC_GENERATE_SECRETS: 'true' }))).toEqual([
      'SVC_KMS_SEED: a stateless node cannot generate its seed (every node needs the same one); set SVC_KMS_SEED or seed in [kms] of secrets.toml',
    ])
  })

  it('stops `strongroom serve` with a non-zero exit and the list on its log', async () => {
    const dir = await configDir({ 'collections.pvschema': 'people PERSONS (\n  name NAME\n' })
    dirs.push(dir)
    const { code, output } = await runCli(['serve', '--dev'], {
      SVC_BACKING_STORE: 'none',
      SVC_CONFIG_DIR: dir,
      SVC_SERVICE_LISTEN_ADDR: '127.0.0.1:0',
    })
    // 2, as for every invalid configuration; the problems are also a list in `problems`.
    expect(code).toBe(2)
    const fatal = logLines(output).find((line) => line.level === 'fatal')
    expect(fatal?.msg).toMatch(/collections\.pvschema: .*line 3, column 1/)
    expect(fatal?.problems).toEqual([expect.stringMatching(/collections\.pvschema: .*line 3/)])
  })
})
