// src/config.test.ts: loadConfig (defaults, syntax, files, problems) and describeConfig
import { readFileSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  CONFIG_VARIABLES,
  type Config,
  ConfigError,
  describeConfig,
  type Env,
  loadConfig,
} from './config.ts'
import { DEV_KMS_SEED } from './config-sections.ts'

const dev = (env: Env = {}) => loadConfig(env, { devmode: true, files: false })
// The least a server-mode start needs: a local KMS and some TLS.
const SERVER_ENV = { SVC_KMS_ALLOW_LOCAL: 'true', SVC_KMS_SEED: 'seed', SVC_TLS_SELFSIGNED: 'true' }
const server = (env: Env = {}) => loadConfig({ ...SERVER_ENV, ...env }, { files: false })

function problemsOf(load: () => unknown): readonly string[] {
  try {
    load()
  } catch (error) {
    if (error instanceof ConfigError) return error.problems
    throw error
  }
  throw new Error('expected a ConfigError')
}

let tmp: string
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'strongroom-config-'))
})
afterAll(() => rm(tmp, { recursive: true, force: true }))

describe('defaults', () => {
  it('gives dev mode an embedded database, a dev seed, open CORS and no TLS', () => {
    const config = dev()
    expect(config.devmode).toBe(true)
    expect(config.backingStore).toBe('sqlite')
    expect(config.database).toEqual({ kind: 'sqlite', file: join('./data', 'strongroom.db') })
    expect(config.kms).toMatchObject({ seed: DEV_KMS_SEED, allowLocal: true, uri: '' })
    expect(config.service).toMatchObject({
      host: '0.0.0.0',
      port: 8123,
      adminApiKey: 'pvaultauth',
      adminApiKeyIsDefault: true,
      adminMayReadData: true,
      allowOrigins: ['*'],
      components: ['data', 'control'],
      timeoutMs: 30_000,
      cacheRefreshIntervalMs: 30_000,
      archivePruneIntervalMs: 0,
      bodyLimitBytes: 10_485_760,
    })
    expect(config.tls).toEqual({ enable: false, selfSigned: false, certFile: '', keyFile: '' })
    expect(config.features.disableDocs).toBe(false)
    expect(config.db.gcRetentionPeriodMs).toBe(30 * 86_400_000)
    expect(config.log).toMatchObject({ level: 'info', auditSink: 'stdout' })
    expect(config.log.auditFile).toBe(join('./data', 'audit.log'))
    expect(config.expiration).toEqual({
      tokensSecs: undefined,
      associatedObjectsSecs: undefined,
      unassociatedObjectsSecs: undefined,
    })
  })

  it('gives server mode closed defaults', () => {
    const config = server({ SVC_BACKING_STORE: 'postgres' })
    expect(config.devmode).toBe(false)
    expect(config.service.adminMayReadData).toBe(false)
    expect(config.service.allowOrigins).toEqual([])
    expect(config.features.disableDocs).toBe(true)
    expect(config.database).toMatchObject({ kind: 'postgres', requireTls: true })
    expect(config.tls.enable).toBe(true)
  })

  it('refuses server mode without a KMS or TLS settings', () => {
    const problems = problemsOf(() => loadConfig({}, { files: false }))
    expect(problems).toHaveLength(2)
    expect(problems[0]).toMatch(/^SVC_KMS_URI: no KMS is configured/)
    expect(problems[1]).toMatch(/^SVC_TLS_ENABLE: TLS is on but SVC_TLS_CERT_FILE/)
  })

  it('lets an explicit SVC_DEVMODE beat the devmode option', () => {
    const off = loadConfig({ ...SERVER_ENV, SVC_DEVMODE: 'false' }, { devmode: true, files: false })
    expect(off.devmode).toBe(false)
    expect(loadConfig({ SVC_DEVMODE: '1' }, { files: false }).devmode).toBe(true)
  })

  it('lets an explicit variable beat the mode default', () => {
    const config = dev({
      SVC_SERVICE_ALLOW_ORIGINS: '',
      SVC_SERVICE_ADMIN_MAY_READ_DATA: 'false',
      SVC_FEATURES_DISABLE_DOCS: 'true',
      SVC_KMS_SEED: 'mine',
    })
    expect(config.service.allowOrigins).toEqual([])
    expect(config.service.adminMayReadData).toBe(false)
    expect(config.features.disableDocs).toBe(true)
    expect(config.kms.seed).toBe('mine')
    expect(
      server({ SVC_SERVICE_ALLOW_ORIGINS: 'https://app.example' }).service.allowOrigins,
    ).toEqual(['https://app.example'])
  })

  it('ignores unknown SVC_ variables and treats empty values as unset', () => {
    const config = dev({ SVC_NO_SUCH_THING: 'x', SVC_DB_PORT: '', SVC_LOG_LEVEL: ' ' })
    expect(config.log.level).toBe('info')
  })

  it('returns a deeply frozen object', () => {
    const config = dev()
    expect(Object.isFrozen(config)).toBe(true)
    expect(Object.isFrozen(config.service.allowOrigins)).toBe(true)
    expect(() => {
      ;(config.service as { port: number }).port = 1
    }).toThrow(TypeError)
  })
})

describe('value syntax', () => {
  it.each([
    ['true', true],
    ['TRUE', true],
    ['1', true],
    ['False', false],
    ['0', false],
  ])('reads boolean %j', (raw, expected) => {
    expect(dev({ SVC_DB_TRACE_SQL: raw }).db.traceSql).toBe(expected)
  })

  it('reads integers and refuses what is not a sensible one', () => {
    expect(dev({ SVC_SERVICE_MAX_PAGE_SIZE: '250' }).service.maxPageSize).toBe(250)
    expect(dev({ SVC_SERVICE_WORKER_PRIORITY: '-2' }).service.workerPriority).toBe(-2)
    for (const bad of ['12abc', '1.5', '-1', '0']) {
      expect(problemsOf(() => dev({ SVC_SERVICE_MAX_PAGE_SIZE: bad }))).toEqual([
        `SVC_SERVICE_MAX_PAGE_SIZE: "${bad}" is not an integer of at least 1`,
      ])
    }
  })

  it.each([
    ['45', 45_000],
    ['0.5', 500],
    ['300ms', 300],
    ['2h45m', 9_900_000],
    ['1.5h', 5_400_000],
  ])('reads duration %j in either form', (raw, ms) => {
    expect(dev({ SVC_SERVICE_CACHE_REFRESH_INTERVAL: raw }).service.cacheRefreshIntervalMs).toBe(ms)
  })

  it('reads the timeout as seconds, fractions allowed', () => {
    expect(dev({ SVC_SERVICE_TIMEOUT_SECONDS: '2.5' }).service.timeoutMs).toBe(2500)
    expect(problemsOf(() => dev({ SVC_SERVICE_TIMEOUT_SECONDS: '0' }))).toHaveLength(1)
  })

  it('reads lists comma-separated, trimmed, without empty members', () => {
    const config = dev({ SVC_SERVICE_ALLOWED_HTTP_DESTINATIONS: ' https://a/ ,, https://b/ ' })
    expect(config.service.allowedHttpDestinations).toEqual(['https://a/', 'https://b/'])
  })

  it('reads components and refuses unknown members', () => {
    expect(dev({ SVC_SERVICE_COMPONENTS: 'control' }).service.components).toEqual(['control'])
    expect(problemsOf(() => dev({ SVC_SERVICE_COMPONENTS: 'data,admin' }))).toEqual([
      'SVC_SERVICE_COMPONENTS: "data,admin" is not a non-empty comma-separated list of data, control',
    ])
  })

  it('reads enums case-sensitively', () => {
    expect(dev({ SVC_FEATURES_ANTI_TAMPERING: 'enforce' }).features.antiTampering).toBe('enforce')
    expect(problemsOf(() => dev({ SVC_LOG_LEVEL: 'loud' }))).toEqual([
      'SVC_LOG_LEVEL: "loud" is not one of debug, info, warn, error',
    ])
    expect(problemsOf(() => dev({ SVC_LOG_LEVEL: 'INFO' }))).toHaveLength(1)
  })

  it('reads the re-encryption batch size and pause', () => {
    expect(dev().kms).toMatchObject({ reencryptBatchSize: 500, reencryptPauseMs: 0 })
    const config = dev({ SVC_KMS_REENCRYPT_BATCH_SIZE: '20', SVC_KMS_REENCRYPT_PAUSE: '250ms' })
    expect(config.kms).toMatchObject({ reencryptBatchSize: 20, reencryptPauseMs: 250 })
    expect(problemsOf(() => dev({ SVC_KMS_REENCRYPT_BATCH_SIZE: '0' }))).toHaveLength(1)
  })

  it('reads expirations in seconds, -1 or empty meaning never', () => {
    const config = dev({
      SVC_EXPIRATION_TOKENS: '3600',
      SVC_EXPIRATION_ASSOCIATED_OBJECTS: '-1',
      SVC_EXPIRATION_UNASSOCIATED_OBJECTS: '',
    })
    expect(config.expiration).toEqual({
      tokensSecs: 3600,
      associatedObjectsSecs: undefined,
      unassociatedObjectsSecs: undefined,
    })
    expect(problemsOf(() => dev({ SVC_EXPIRATION_TOKENS: '0' }))).toHaveLength(1)
    expect(problemsOf(() => dev({ SVC_EXPIRATION_TOKENS: '-5' }))).toHaveLength(1)
  })

  it.each([
    ['127.0.0.1:0', '127.0.0.1', 0],
    ['[::1]:8123', '::1', 8123],
    [':9000', '0.0.0.0', 9000],
  ])('reads listen address %j', (raw, host, port) => {
    expect(dev({ SVC_SERVICE_LISTEN_ADDR: raw }).service).toMatchObject({ host, port })
  })

  it('refuses a listen address without a valid port', () => {
    expect(problemsOf(() => dev({ SVC_SERVICE_LISTEN_ADDR: 'localhost' }))).toHaveLength(1)
    expect(problemsOf(() => dev({ SVC_SERVICE_LISTEN_ADDR: 'h:65536' }))).toHaveLength(1)
  })

  it('refuses a body limit under 1024 bytes', () => {
    expect(dev({ SVC_SERVICE_BODY_LIMIT_BYTES: '2048' }).service.bodyLimitBytes).toBe(2048)
    expect(problemsOf(() => dev({ SVC_SERVICE_BODY_LIMIT_BYTES: '100' }))).toEqual([
      'SVC_SERVICE_BODY_LIMIT_BYTES: "100" is not an integer of at least 1024',
    ])
  })
})

describe('aliases', () => {
  it('reads SVC_SERVICE_CACHE_REFRESH_INTERVAL_SECONDS as the refresh interval', () => {
    const config = dev({ SVC_SERVICE_CACHE_REFRESH_INTERVAL_SECONDS: '12' })
    expect(config.service.cacheRefreshIntervalMs).toBe(12_000)
  })

  it('reads SVC_DB_GC_GRACE_PERIOD_DAYS in days', () => {
    expect(dev({ SVC_DB_GC_GRACE_PERIOD_DAYS: '7' }).db.gcRetentionPeriodMs).toBe(7 * 86_400_000)
    expect(dev({ SVC_DB_GC_RETENTION_PERIOD: '48h' }).db.gcRetentionPeriodMs).toBe(172_800_000)
  })

  it('refuses a setting given under both names', () => {
    const env = { SVC_DB_GC_RETENTION_PERIOD: '1h', SVC_DB_GC_GRACE_PERIOD_DAYS: '2' }
    expect(problemsOf(() => dev(env))).toEqual([
      'SVC_DB_GC_RETENTION_PERIOD and SVC_DB_GC_GRACE_PERIOD_DAYS: set only one of them',
    ])
  })
})

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

describe('problems', () => {
  it('reports every bad value together, each naming its variable', () => {
    let caught: unknown
    try {
      dev({
        SVC_LOG_LEVEL: 'loud',
        SVC_DB_PORT: 'abc',
        SVC_FEATURES_ENCRYPTION: 'maybe',
        SVC_SERVICE_ARCHIVE_PRUNE_INTERVAL: '5 minutes',
        SVC_KMS_URI: 'vault://x',
      })
    } catch (error) {
      caught = error
    }
    expect(caught).toBeInstanceOf(ConfigError)
    const error = caught as ConfigError
    expect(error.problems).toHaveLength(5)
    for (const name of ['SVC_LOG_LEVEL', 'SVC_DB_PORT', 'SVC_FEATURES_ENCRYPTION', 'SVC_KMS_URI']) {
      expect(error.message).toContain(`${name}: `)
    }
    expect(error.message).toContain(
      'SVC_SERVICE_ARCHIVE_PRUNE_INTERVAL: "5 minutes" is not a duration',
    )
    expect(error.message).toMatch(/^Invalid configuration \(5 problems\):\n {2}- /)
  })

  it('refuses a default page size above the maximum', () => {
    const env = { SVC_SERVICE_DEFAULT_PAGE_SIZE: '50', SVC_SERVICE_MAX_PAGE_SIZE: '10' }
    expect(problemsOf(() => dev(env))).toEqual([
      'SVC_SERVICE_DEFAULT_PAGE_SIZE: 50 is above SVC_SERVICE_MAX_PAGE_SIZE (10)',
    ])
  })

  it('accepts a cloud KMS without a seed, and generated secrets instead of a seed', () => {
    const aws = 'aws-kms://arn:aws:kms:eu-west-1:123456789012:key/abc'
    expect(server({ SVC_KMS_SEED: '', SVC_KMS_URI: aws }).kms.uri).toBe(aws)
    expect(server({ SVC_KMS_SEED: '', SVC_GENERATE_SECRETS: 'true' }).generateSecrets).toBe(true)
    expect(problemsOf(() => server({ SVC_KMS_SEED: '' }))[0]).toMatch(/^SVC_KMS_SEED: /)
    expect(problemsOf(() => server({ SVC_KMS_ALLOW_LOCAL: 'false' }))[0]).toMatch(/^SVC_KMS_URI: /)
  })

  it('accepts server TLS with both certificate files, not with one', () => {
    const tls = { SVC_TLS_SELFSIGNED: 'false', SVC_TLS_CERT_FILE: '/c.pem' }
    expect(server({ ...tls, SVC_TLS_KEY_FILE: '/k.pem' }).tls.enable).toBe(true)
    expect(problemsOf(() => server(tls))[0]).toMatch(/^SVC_TLS_ENABLE: /)
    expect(server({ SVC_TLS_SELFSIGNED: 'false', SVC_TLS_ENABLE: 'false' }).tls.enable).toBe(false)
  })
})

describe('backing store', () => {
  it.each([
    [{}, { kind: 'sqlite', file: join('/srv/vault', 'strongroom.db') }],
    [{ SVC_BACKING_STORE: 'memory' }, { kind: 'sqlite', file: ':memory:' }],
    [{ SVC_BACKING_STORE: 'none' }, { kind: 'none' }],
    [{ SVC_DB_HOSTNAME: 'db', SVC_BACKING_STORE: 'sqlite' }, { kind: 'sqlite' }],
  ])('selects the database for %j', (env, expected) => {
    expect(dev({ SVC_DATA_DIR: '/srv/vault', ...env }).database).toMatchObject(expected)
  })

  it('uses PostgreSQL with the SVC_DB_* settings, also when only the host is set', () => {
    const config = dev({
      SVC_DB_HOSTNAME: 'db.internal',
      SVC_DB_PORT: '6432',
      SVC_DB_NAME: 'vault',
    })
    expect(config.backingStore).toBe('postgres')
    expect(config.database).toEqual({
      kind: 'postgres',
      host: 'db.internal',
      port: 6432,
      database: 'vault',
      user: 'pvault',
      password: 'pvault',
      requireTls: false,
      maxOpenConns: 16,
      maxIdleConns: 16,
      connMaxLifetimeMs: 300_000,
    })
  })

  it('refuses an unknown store', () => {
    expect(problemsOf(() => dev({ SVC_BACKING_STORE: 'mysql' }))).toEqual([
      'SVC_BACKING_STORE: "mysql" is not one of sqlite, postgres, memory, none',
    ])
  })
})

describe('logs, metrics and traces', () => {
  it('logs JSON by default in both modes, pretty on request', () => {
    expect(dev().log.format).toBe('json')
    expect(server().log.format).toBe('json')
    expect(dev({ SVC_LOG_FORMAT: 'pretty' }).log.format).toBe('pretty')
    expect(problemsOf(() => dev({ SVC_LOG_FORMAT: 'xml' }))).toEqual([
      'SVC_LOG_FORMAT: "xml" is not one of json, pretty',
    ])
  })

  it('keeps no metrics unless a listener or a token is set', () => {
    expect(dev().metrics).toEqual({ listen: undefined, token: '' })
    const config = dev({ SVC_METRICS_LISTEN_ADDR: '127.0.0.1:9464', SVC_METRICS_TOKEN: 's3cret' })
    expect(config.metrics).toEqual({ listen: { host: '127.0.0.1', port: 9464 }, token: 's3cret' })
    expect(describeConfig(config).service).toMatchObject({
      metrics_listen_addr: '127.0.0.1:9464',
      metrics_token: '***',
    })
    expect(problemsOf(() => dev({ SVC_METRICS_LISTEN_ADDR: 'nowhere' }))[0]).toMatch(
      /^SVC_METRICS_LISTEN_ADDR: "nowhere" is not host:port/,
    )
  })

  it('exports traces only when an OTLP endpoint is set, to its /v1/traces path', () => {
    expect(dev().tracing).toEqual({
      url: '',
      headers: {},
      serviceName: 'strongroom',
      sampler: 'parentbased_always_on',
      samplerRatio: 1,
    })
    const base = dev({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318/',
      OTEL_EXPORTER_OTLP_HEADERS: 'Authorization=Bearer%20abc, x-team = vault',
      OTEL_SERVICE_NAME: 'vault-eu',
    })
    expect(base.tracing).toMatchObject({
      url: 'http://127.0.0.1:4318/v1/traces',
      headers: { authorization: 'Bearer abc', 'x-team': 'vault' },
      serviceName: 'vault-eu',
    })
    const traces = dev({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://collector.example/otlp/traces',
    })
    expect(traces.tracing.url).toBe('https://collector.example/otlp/traces')
  })

  it('samples with the OpenTelemetry sampler names', () => {
    const ratio = dev({
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.1',
    })
    expect(ratio.tracing).toMatchObject({ sampler: 'parentbased_traceidratio', samplerRatio: 0.1 })
    expect(
      problemsOf(() => dev({ OTEL_TRACES_SAMPLER: 'sometimes', OTEL_TRACES_SAMPLER_ARG: '2' })),
    ).toEqual([
      expect.stringMatching(
        /^OTEL_TRACES_SAMPLER: "sometimes" is not one of parentbased_always_on/,
      ),
      'OTEL_TRACES_SAMPLER_ARG: "2" is not a number from 0 to 1',
    ])
  })

  it('refuses a malformed OTLP endpoint or headers without echoing the headers', () => {
    const problems = problemsOf(() =>
      dev({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318',
        OTEL_EXPORTER_OTLP_HEADERS: 'secret-token',
      }),
    )
    expect(problems).toHaveLength(2)
    expect(problems[0]).toMatch(/^OTEL_EXPORTER_OTLP_ENDPOINT: .* is not an http/)
    expect(problems[1]).toMatch(/^OTEL_EXPORTER_OTLP_HEADERS: not a comma-separated list/)
    expect(problems.join('\n')).not.toContain('secret-token')
  })
})

describe('describeConfig', () => {
  const secrets = {
    SVC_BACKING_STORE: 'postgres',
    SVC_DB_PASSWORD: 'db-secret',
    SVC_KMS_SEED: 'seed-secret',
    SVC_KMS_EXPORT_SEED: 'export-secret',
    SVC_SERVICE_ADMIN_API_KEY: 'admin-secret',
    SVC_SERVICE_LICENSE: 'license-secret',
  }
  const section = (config: Config, name: string) =>
    describeConfig(config)[name] as Record<string, unknown>

  it('masks every secret by default', () => {
    const body = describeConfig(dev(secrets))
    expect(JSON.stringify(body)).not.toMatch(/-secret/)
    expect(body).toMatchObject({
      db: { password: '***' },
      kms: { seed: '***', export_seed: '***' },
      service: { admin_api_key: '***', license: '***' },
    })
  })

  it('shows secrets other than the Admin key when SVC_DB_MASK_CONFIG is false', () => {
    const body = describeConfig(dev({ ...secrets, SVC_DB_MASK_CONFIG: 'false' }))
    expect(body).toMatchObject({
      db: { password: 'db-secret' },
      kms: { seed: 'seed-secret', export_seed: 'export-secret' },
      service: { admin_api_key: '***', license: 'license-secret' },
    })
  })

  it('gives durations in seconds, lists joined, -1 for never', () => {
    const config = dev({ SVC_SERVICE_LISTEN_ADDR: '[::1]:8123', SVC_EXPIRATION_TOKENS: '60' })
    expect(section(config, 'service')).toMatchObject({
      listen_addr: '[::1]:8123',
      timeout_seconds: 30,
      cache_refresh_interval: 30,
      archive_prune_timeout: 60,
      components: 'data,control',
      allow_origins: '*',
    })
    expect(section(config, 'db')).toMatchObject({ gc: { retention_period: 2_592_000 } })
    expect(section(config, 'expiration')).toEqual({
      associated_objects: -1,
      tokens: 60,
      unassociated_objects: -1,
    })
    expect(section(config, 'log')).toMatchObject({ datadog_enable: 'false' })
  })

  it('has every key of the published client model', () => {
    const body = describeConfig(dev())
    expect(Object.keys(body).sort()).toEqual(
      'backing_store db devmode expiration features generate_secrets kms log sentry service tls'.split(
        ' ',
      ),
    )
    for (const [name, keys] of Object.entries(MODEL_KEYS)) {
      expect(Object.keys(section(dev(), name))).toEqual(expect.arrayContaining(keys.split(' ')))
    }
  })
})

const MODEL_KEYS = {
  db: 'conn_max_lifetime_minutes gc hostname mask_config max_idle_conns max_open_conns max_string_length max_blob_length max_token_tags migration name password port require_tls trace_sql user',
  features:
    'encryption mask_license disable_docs disable_javascript disable_idp_jwks disable_cc_luhn_validation anti_tampering api_key_hashing policy_enforcement analysis',
  kms: 'seed uri export_seed export_uri allow_local',
  log: 'customer_env customer_identifier customer_region datadog_enable level audit_enable audit_remote_addr_xff audit_remote_addr_enable audit_disable_delete_tokens destination',
  sentry: 'enable',
  service:
    'admin_api_key override_admin_api_key_on_restart allow_origins admin_may_read_data components worker_priority pci_restrictions default_page_size set_iam_on_start_only update_schema_on_start force_access_reason listen_addr max_page_size max_pagination_remaining_count timeout_seconds cache_refresh_interval cache_refresh_timeout archive_prune_interval archive_prune_timeout substring_index_refresh_interval license allowed_http_destinations allowed_pci_http_destinations actions_http_call_role',
  tls: 'cert_file enable key_file selfsigned',
  expiration: 'associated_objects tokens unassociated_objects',
}

describe('.env.example', () => {
  const text = readFileSync(new URL('../.env.example', import.meta.url), 'utf8')
  const documented = new Set(text.match(/\bSVC_[A-Z0-9_]+/g))

  it('names only variables config.ts knows', () => {
    expect([...documented].filter((name) => !CONFIG_VARIABLES.includes(name))).toEqual([])
  })

  it('lists every variable config.ts knows', () => {
    expect(CONFIG_VARIABLES.filter((name) => !documented.has(name))).toEqual([])
  })

  it('matches what loadConfig actually reads', () => {
    const read = new Set<string>()
    const env = new Proxy<Env>(
      {},
      {
        get: (_target, key) => {
          if (typeof key === 'string' && key.startsWith('SVC_')) read.add(key)
          return undefined
        },
      },
    )
    loadConfig(env, { devmode: true, files: false })
    expect([...read].sort()).toEqual([...CONFIG_VARIABLES].sort())
  })
})
