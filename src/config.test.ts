// src/config.test.ts: loadConfig (defaults, value syntax, aliases, problems, backing store)
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { dev, problemsOf, SERVER_ENV, server } from '../test/helpers/config.ts'
import { ConfigError, loadConfig } from './config.ts'
import { DEV_KMS_SEED, LOCAL_ORIGINS } from './config-sections.ts'

describe('defaults', () => {
  it('gives dev mode an embedded database, a dev seed, local CORS, loopback and no TLS', () => {
    const config = dev()
    expect(config.devmode).toBe(true)
    expect(config.backingStore).toBe('sqlite')
    expect(config.database).toEqual({
      kind: 'sqlite',
      file: join('./data', 'strongroom.db'),
      synchronous: 'full',
      cacheBytes: 8 * 1024 * 1024,
    })
    expect(config.kms).toMatchObject({ seed: DEV_KMS_SEED, allowLocal: true, uri: '' })
    expect(config.service).toMatchObject({
      host: '127.0.0.1',
      port: 8123,
      adminApiKey: 'pvaultauth',
      adminApiKeyIsDefault: true,
      adminMayReadData: true,
      allowOrigins: LOCAL_ORIGINS,
      components: ['data', 'control'],
      timeoutMs: 30_000,
      cacheRefreshIntervalMs: 30_000,
      archivePruneIntervalMs: 0,
      bodyLimitBytes: 10_485_760,
    })
    expect(config.tls).toEqual({ enable: false, selfSigned: false, certFile: '', keyFile: '' })
    expect(config.features.disableDocs).toBe(false)
    expect(config.db.gcRetentionPeriodMs).toBe(30 * 86_400_000)
    expect(config.db.connectTimeoutMs).toBe(15_000)
    expect(config.log).toMatchObject({
      level: 'info',
      auditSinks: ['stdout'],
      auditRequire: 'all',
      auditTimeoutMs: 5000,
    })
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
    expect(config.service.host).toBe('0.0.0.0')
    expect(config.features.disableDocs).toBe(true)
    expect(config.database).toMatchObject({ kind: 'postgres', requireTls: true })
    expect(config.tls.enable).toBe(true)
  })

  it('refuses server mode without a KMS or TLS settings', () => {
    const problems = problemsOf(() => loadConfig({}, { files: false }))
    expect(problems).toHaveLength(3)
    expect(problems[0]).toMatch(/^SVC_KMS_URI: no KMS is configured/)
    expect(problems[1]).toMatch(/^SVC_TLS_ENABLE: TLS is on but SVC_TLS_CERT_FILE/)
    expect(problems[2]).toMatch(/^SVC_SERVICE_ADMIN_API_KEY: server mode refuses the dev Admin key/)
  })

  it('refuses the dev Admin key and short KMS seeds in server mode, saying how to make good ones', () => {
    const problems = problemsOf(() =>
      server({ SVC_SERVICE_ADMIN_API_KEY: 'pvaultauth', SVC_KMS_SEED: 'short-seed' }),
    )
    expect(problems).toEqual([
      expect.stringMatching(/^SVC_SERVICE_ADMIN_API_KEY: .*openssl rand -base64 32/),
      expect.stringMatching(/^SVC_KMS_SEED: .*at least 32 characters \(10 given\).*openssl rand/),
    ])
    // A generated Admin key replaces the default one; dev mode keeps its well-known values.
    expect(server({ SVC_GENERATE_SECRETS: 'true', SVC_SERVICE_ADMIN_API_KEY: '' }).devmode).toBe(
      false,
    )
    expect(dev({ SVC_KMS_SEED: 'short' }).kms.seed).toBe('short')
  })

  it('listens where SVC_SERVICE_LISTEN_ADDR says, in dev mode too', () => {
    expect(dev({ SVC_SERVICE_LISTEN_ADDR: '0.0.0.0:8123' }).service.host).toBe('0.0.0.0')
  })

  it('accepts every value the vendor tooling passes to compatibility-only settings', () => {
    for (const value of ['none', 'logs', 'metrics', 'all', 'true', 'false', '1', '0', 'ALL']) {
      const config = dev({ SVC_LOG_DATADOG_ENABLE: value })
      expect(config.warnings).toEqual([])
    }
    expect(dev({ SVC_LOG_DATADOG_ENABLE: 'none' }).log.datadogEnable).toBe('none')
    const odd = dev({
      SVC_LOG_DATADOG_ENABLE: 'traces',
      SVC_SENTRY_ENABLE: 'maybe',
      SVC_FEATURES_API_KEY_HASHING: 'sometimes',
    })
    expect(odd.warnings).toEqual([
      expect.stringMatching(/^SVC_FEATURES_API_KEY_HASHING: "sometimes" is not a boolean/),
      expect.stringMatching(/^SVC_LOG_DATADOG_ENABLE: "traces" is not one of none, logs/),
      expect.stringMatching(/^SVC_SENTRY_ENABLE: "maybe" is not a boolean .*ignored$/),
    ])
    expect(odd.features.apiKeyHashing).toBe(true)
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
      callTimeoutMs: 30_000,
      queryTimeoutMs: 60_000,
      preparedStatements: true,
    })
  })

  it('turns named prepared statements off with SVC_DB_PREPARED_STATEMENTS=false', () => {
    const pg = { SVC_BACKING_STORE: 'postgres' }
    expect(dev({ ...pg, SVC_DB_PREPARED_STATEMENTS: 'false' }).database).toMatchObject({
      preparedStatements: false,
    })
    expect(problemsOf(() => dev({ ...pg, SVC_DB_PREPARED_STATEMENTS: 'sometimes' }))).toEqual([
      'SVC_DB_PREPARED_STATEMENTS: "sometimes" is not a boolean (true, false, 1 or 0)',
    ])
  })

  it('bounds PostgreSQL statements by a minute or the call timeout, or SVC_DB_QUERY_TIMEOUT', () => {
    const pg = { SVC_BACKING_STORE: 'postgres' }
    expect(dev({ ...pg, SVC_SERVICE_TIMEOUT_SECONDS: '5' }).database).toMatchObject({
      queryTimeoutMs: 60_000,
    })
    expect(dev({ ...pg, SVC_SERVICE_TIMEOUT_SECONDS: '90' }).database).toMatchObject({
      queryTimeoutMs: 90_000,
    })
    expect(dev({ ...pg, SVC_DB_QUERY_TIMEOUT: '2m' }).database).toMatchObject({
      queryTimeoutMs: 120_000,
    })
  })

  it('syncs SQLite at every commit unless SVC_DB_SQLITE_SYNCHRONOUS=normal', () => {
    expect(dev({ SVC_BACKING_STORE: 'sqlite' }).database).toMatchObject({ synchronous: 'full' })
    const normal = dev({ SVC_BACKING_STORE: 'sqlite', SVC_DB_SQLITE_SYNCHRONOUS: 'normal' })
    expect(normal.database).toMatchObject({ synchronous: 'normal' })
    expect(problemsOf(() => dev({ SVC_DB_SQLITE_SYNCHRONOUS: 'off' }))).toEqual([
      'SVC_DB_SQLITE_SYNCHRONOUS: "off" is not one of full, normal',
    ])
  })

  it("limits SQLite's page cache to SVC_DB_SQLITE_CACHE_BYTES, at least 1 MiB", () => {
    const cache = dev({ SVC_DB_SQLITE_CACHE_BYTES: String(64 * 1024 * 1024) })
    expect(cache.database).toMatchObject({ cacheBytes: 64 * 1024 * 1024 })
    expect(problemsOf(() => dev({ SVC_DB_SQLITE_CACHE_BYTES: '1000' }))).toEqual([
      expect.stringContaining('SVC_DB_SQLITE_CACHE_BYTES'),
    ])
  })

  it('refuses an unknown store', () => {
    expect(problemsOf(() => dev({ SVC_BACKING_STORE: 'mysql' }))).toEqual([
      'SVC_BACKING_STORE: "mysql" is not one of sqlite, postgres, memory, none',
    ])
  })
})
