// src/config-files.test.ts: loadConfig with secrets in files and settings in conf/config.toml
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dev, problemsOf } from '../test/helpers/config.ts'
import { loadConfig } from './config.ts'

let tmp: string
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'strongroom-config-'))
})
afterAll(() => rm(tmp, { recursive: true, force: true }))

describe('secrets from files', () => {
  it('reads each secret from <NAME>_FILE, trimmed', async () => {
    const names = ['db-password', 'seed', 'export-seed', 'admin-key', 'license']
    for (const name of names) await writeFile(join(tmp, name), ` ${name}-value\n`)
    const config = dev({
      SVC_BACKING_STORE: 'postgres',
      SVC_DB_PASSWORD_FILE: join(tmp, 'db-password'),
      SVC_KMS_SEED_FILE: join(tmp, 'seed'),
      SVC_KMS_EXPORT_SEED_FILE: join(tmp, 'export-seed'),
      SVC_SERVICE_ADMIN_API_KEY_FILE: join(tmp, 'admin-key'),
      SVC_SERVICE_LICENSE_FILE: join(tmp, 'license'),
    })
    expect(config.database).toMatchObject({ password: 'db-password-value' })
    expect(config.kms).toMatchObject({ seed: 'seed-value', exportSeed: 'export-seed-value' })
    expect(config.service.adminApiKey).toBe('admin-key-value')
    expect(config.service.adminApiKeyIsDefault).toBe(false)
    expect(config.license).toBe('license-value')
  })

  it('refuses a secret given both ways, or a file it cannot read', () => {
    const both = { SVC_KMS_SEED: 'a', SVC_KMS_SEED_FILE: join(tmp, 'seed') }
    expect(problemsOf(() => dev(both))).toEqual([
      'SVC_KMS_SEED and SVC_KMS_SEED_FILE: set only one of them',
    ])
    const missing = join(tmp, 'missing')
    expect(problemsOf(() => dev({ SVC_SERVICE_ADMIN_API_KEY_FILE: missing }))).toEqual([
      `SVC_SERVICE_ADMIN_API_KEY_FILE: ${JSON.stringify(missing)} is not a readable file (ENOENT)`,
    ])
  })
})

describe('config.toml', () => {
  async function configDir(name: string, toml: string): Promise<string> {
    const dir = join(tmp, name)
    await mkdir(dir, { recursive: true })
    await writeFile(join(dir, 'config.toml'), toml)
    return dir
  }

  it('sits between variables and defaults', async () => {
    const dir = await configDir(
      'precedence',
      `devmode = true
[service]
max_page_size = 500
allow_origins = ["https://a.example", "https://b.example"]
[db.gc]
retention_period = "48h"
[log]
level = "debug"
`,
    )
    const config = loadConfig({ SVC_CONFIG_DIR: dir, SVC_LOG_LEVEL: 'warn' })
    expect(config.configDir).toBe(dir)
    expect(config.devmode).toBe(true)
    expect(config.service.maxPageSize).toBe(500)
    expect(config.service.allowOrigins).toEqual(['https://a.example', 'https://b.example'])
    expect(config.db.gcRetentionPeriodMs).toBe(172_800_000)
    expect(config.log.level).toBe('warn')
    expect(config.service.defaultPageSize).toBe(100)
  })

  it('is optional', () => {
    expect(loadConfig({ SVC_CONFIG_DIR: join(tmp, 'nowhere') }, { devmode: true }).devmode).toBe(
      true,
    )
  })

  it('reports bad values and unknown keys, naming the file', async () => {
    const dir = await configDir('bad', '[log]\nlevel = "loud"\n[service]\nmax_pages = 3\n')
    const file = join(dir, 'config.toml')
    expect(problemsOf(() => loadConfig({ SVC_CONFIG_DIR: dir }, { devmode: true }))).toEqual([
      `SVC_SERVICE_MAX_PAGES (${file}): not a known configuration setting`,
      `SVC_LOG_LEVEL (${file}): "loud" is not one of debug, info, warn, error`,
    ])
  })

  it('reports a file that is not TOML', async () => {
    const dir = await configDir('broken', '[service\nmax_page_size = \n')
    const problems = problemsOf(() => loadConfig({ SVC_CONFIG_DIR: dir }, { devmode: true }))
    expect(problems).toHaveLength(1)
    expect(problems[0]).toMatch(/config\.toml: not valid TOML/)
  })

  it('is skipped when files is false', async () => {
    const dir = await configDir('skipped', '[log]\nlevel = "loud"\n')
    expect(loadConfig({ SVC_CONFIG_DIR: dir }, { devmode: true, files: false }).log.level).toBe(
      'info',
    )
  })
})

describe('secrets.toml of stateless mode', () => {
  async function secretsDir(name: string, text: string): Promise<string> {
    const dir = join(tmp, name)
    await mkdir(dir, { recursive: true })
    await writeFile(join(dir, 'secrets.toml'), text)
    return dir
  }
  const secrets = '[users.App]\napi_key_sha256 = "00"\n[kms]\nseed = "seed from secrets.toml"\n'

  it('gives the KMS settings of [kms] to stateless nodes only, below the variables', async () => {
    const dir = await secretsDir('secrets', secrets)
    const stateless = { SVC_CONFIG_DIR: dir, SVC_BACKING_STORE: 'none', SVC_DEVMODE: 'true' }
    expect(loadConfig(stateless).kms.seed).toBe('seed from secrets.toml')
    expect(loadConfig({ ...stateless, SVC_KMS_SEED: 'from env' }).kms.seed).toBe('from env')
    const sqlite = { SVC_CONFIG_DIR: dir, SVC_DEVMODE: 'true' }
    expect(loadConfig(sqlite).kms.seed).not.toBe('seed from secrets.toml')
  })

  it('refuses other keys in [kms], naming the file', async () => {
    const dir = await secretsDir('secrets-bad', '[kms]\nseed = "s"\nallow_local = true\n')
    const file = join(dir, 'secrets.toml')
    const env = { SVC_CONFIG_DIR: dir, SVC_BACKING_STORE: 'none', SVC_DEVMODE: 'true' }
    expect(problemsOf(() => loadConfig(env))).toEqual([
      `SVC_KMS_ALLOW_LOCAL (${file}): [kms] of secrets.toml takes only seed, uri, export_seed, export_uri`,
    ])
  })
})
