// src/config-sections.ts: reads each group of SVC_* settings through a Reader, with the mode defaults
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { type BackingStore, type Config, TRACES_SAMPLERS } from './config.ts'
import {
  type ListenAddress,
  type Parsed,
  parseBoolean,
  parseDuration,
  parseInteger,
  parseListenAddress,
  type Reader,
} from './config-values.ts'

/** The KMS seed of dev mode: public, so anything encrypted with it is not protected. */
export const DEV_KMS_SEED = 'strongroom-dev-seed-do-not-use-in-production'
export const DEFAULT_ADMIN_API_KEY = 'pvaultauth'

type Mode = <T>(dev: T, server: T) => T

export function readConfig(
  read: Reader,
  configDir: string,
  devmodeDefault: boolean,
): Omit<Config, 'warnings'> {
  const devmode = read.bool('SVC_DEVMODE', devmodeDefault)
  const mode: Mode = (dev, server) => (devmode ? dev : server)
  const dataDir = read.string('SVC_DATA_DIR', './data')
  const backingStore = readBackingStore(read)
  const serviceLimits = readServiceLimits(read)
  return {
    devmode,
    backingStore,
    dataDir,
    configDir,
    generateSecrets: read.bool('SVC_GENERATE_SECRETS', false),
    license: read.secret('SVC_SERVICE_LICENSE', ''),
    database: readDatabase(read, mode, {
      store: backingStore,
      dataDir,
      callTimeoutMs: serviceLimits.timeoutMs,
    }),
    migration: readMigration(read),
    db: readDb(read),
    kms: readKms(read, mode),
    service: { ...readServiceAccess(read, mode), ...serviceLimits },
    features: readFeatures(read, mode),
    sandbox: readSandbox(read, serviceLimits.timeoutMs),
    log: readLog(read, dataDir),
    metrics: {
      listen: read.value<ListenAddress | undefined>(
        'SVC_METRICS_LISTEN_ADDR',
        parseListenAddress,
        undefined,
      ),
      token: read.secret('SVC_METRICS_TOKEN', ''),
    },
    tracing: readTracing(read),
    sentryEnable: read.compat('SVC_SENTRY_ENABLE', parseBoolean, false),
    tls: readTls(read, mode),
    expiration: {
      tokensSecs: read.expiration('SVC_EXPIRATION_TOKENS'),
      associatedObjectsSecs: read.expiration('SVC_EXPIRATION_ASSOCIATED_OBJECTS'),
      unassociatedObjectsSecs: read.expiration('SVC_EXPIRATION_UNASSOCIATED_OBJECTS'),
    },
  }
}

const BACKING_STORES: readonly BackingStore[] = ['sqlite', 'postgres', 'memory', 'none']

function readBackingStore(read: Reader): BackingStore {
  // Compatibility: deployments that only set SVC_DB_HOSTNAME expect PostgreSQL.
  const fallback = read.isSet('SVC_DB_HOSTNAME') ? 'postgres' : 'sqlite'
  return read.oneOf('SVC_BACKING_STORE', BACKING_STORES, fallback)
}

const SQLITE_SYNC_MODES = ['full', 'normal'] as const
const MIB = 1_048_576

function readDatabase(
  read: Reader,
  mode: Mode,
  {
    store,
    dataDir,
    callTimeoutMs,
  }: { store: BackingStore; dataDir: string; callTimeoutMs: number },
): Config['database'] {
  // Read even when unused, so a bad SVC_DB_* value is reported before someone switches to it.
  const postgres: Config['database'] = {
    kind: 'postgres',
    host: read.string('SVC_DB_HOSTNAME', 'localhost'),
    port: read.int('SVC_DB_PORT', 5432, { min: 1, max: 65535 }),
    database: read.string('SVC_DB_NAME', 'pvault'),
    user: read.string('SVC_DB_USER', 'pvault'),
    password: read.secret('SVC_DB_PASSWORD', 'pvault'),
    requireTls: read.bool('SVC_DB_REQUIRE_TLS', mode(false, true)),
    maxOpenConns: read.int('SVC_DB_MAX_OPEN_CONNS', 16, { min: 1 }),
    maxIdleConns: read.int('SVC_DB_MAX_IDLE_CONNS', 16, { min: 0 }),
    connMaxLifetimeMs: read.int('SVC_DB_CONN_MAX_LIFETIME_MINUTES', 5, { min: 0 }) * 60_000,
    // A statement unanswered this long is abandoned and its connection closed, so a frozen
    // database cannot hold the pool's connections for good (calls answer 503 ERR1009 at their
    // own timeout regardless). Not shorter than a minute by default: migrations and schema
    // updates (exempt from the call timeout) may run long statements.
    callTimeoutMs,
    queryTimeoutMs: read.duration('SVC_DB_QUERY_TIMEOUT', Math.max(callTimeoutMs, 60_000), {
      positive: true,
    }),
    preparedStatements: read.bool('SVC_DB_PREPARED_STATEMENTS', true),
  }
  // FULL: a write acknowledged to a client survives power loss; NORMAL may lose the last ones.
  const synchronous = read.oneOf('SVC_DB_SQLITE_SYNCHRONOUS', SQLITE_SYNC_MODES, 'full')
  // Page cache: 8 MiB kept bulk adds as fast as 64 MiB, and an idle node ~16 MB smaller.
  const cacheBytes = read.int('SVC_DB_SQLITE_CACHE_BYTES', 8 * MIB, { min: MIB })
  if (store === 'postgres') return postgres
  if (store === 'none') return { kind: 'none' }
  const file = store === 'memory' ? ':memory:' : join(dataDir, 'strongroom.db')
  return { kind: 'sqlite', file, synchronous, cacheBytes }
}

function readMigration(read: Reader): Config['migration'] {
  return {
    autoRun: read.bool('SVC_DB_MIGRATION_AUTO_RUN', true),
    enableRetries: read.bool('SVC_DB_MIGRATION_ENABLE_RETRIES', true),
    initialWaitMs: read.duration('SVC_DB_MIGRATION_INITIAL_WAIT_BETWEEN_RETRIES', 20),
    maxWaitMs: read.duration('SVC_DB_MIGRATION_MAX_WAIT_BETWEEN_RETRIES', 5000),
    maxRetries: read.int('SVC_DB_MIGRATION_MAX_RETRIES', 25, { min: 0 }),
    enableCleanDatabaseValidation: read.bool(
      'SVC_DB_MIGRATION_ENABLE_CLEAN_DATABASE_VALIDATION',
      true,
    ),
  }
}

const DAY_MS = 86_400_000
const GC_RETENTION = 'SVC_DB_GC_RETENTION_PERIOD'
const GC_GRACE_DAYS = 'SVC_DB_GC_GRACE_PERIOD_DAYS'

function readDb(read: Reader): Config['db'] {
  return {
    traceSql: read.bool('SVC_DB_TRACE_SQL', false),
    connectTimeoutMs: read.duration('SVC_DB_CONNECT_TIMEOUT', 15_000, { positive: true }),
    maskConfig: read.bool('SVC_DB_MASK_CONFIG', true),
    maxStringLength: read.int('SVC_DB_MAX_STRING_LENGTH', 450, { min: 1 }),
    maxBlobLength: read.int('SVC_DB_MAX_BLOB_LENGTH', 5_242_880, { min: 1 }),
    maxTokenTags: read.int('SVC_DB_MAX_TOKEN_TAGS', 10, { min: 0 }),
    gcRetentionPeriodMs: read.value(
      [GC_RETENTION, GC_GRACE_DAYS],
      (raw, name) => {
        if (name === GC_RETENTION) return parseDuration(raw)
        const days = parseInteger(raw, { min: 0 })
        return days.ok ? { ok: true, value: days.value * DAY_MS } : days
      },
      30 * DAY_MS,
    ),
    gcBatchSize: read.int('SVC_DB_GC_BATCH_SIZE', 10_000, { min: 1 }),
  }
}

function readKms(read: Reader, mode: Mode): Config['kms'] {
  return {
    uri: read.value('SVC_KMS_URI', parseKmsUri, ''),
    seed: read.secret('SVC_KMS_SEED', mode(DEV_KMS_SEED, '')),
    exportUri: read.value('SVC_KMS_EXPORT_URI', parseKmsUri, ''),
    exportSeed: read.secret('SVC_KMS_EXPORT_SEED', ''),
    allowLocal: read.bool('SVC_KMS_ALLOW_LOCAL', mode(true, false)),
    reencryptBatchSize: read.int('SVC_KMS_REENCRYPT_BATCH_SIZE', 500, { min: 1, max: 10_000 }),
    reencryptPauseMs: read.duration('SVC_KMS_REENCRYPT_PAUSE', 0),
  }
}

function parseKmsUri(raw: string): Parsed<string> {
  const uri = raw.trim()
  if (/^(aws-kms|gcp-kms|az-kms):\/\/./.test(uri)) return { ok: true, value: uri }
  return { ok: false, expected: 'a KMS key URI (aws-kms://…, gcp-kms://… or az-kms://…)' }
}

/** Dev mode's CORS default: pages served from this machine, on any port (`:*`). */
export const LOCAL_ORIGINS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'].flatMap(
  (host) => [`http://${host}:*`, `https://${host}:*`],
)

/** `ERR` (the spec's codes), or e.g. `PV` for applications that match on the reference's codes. */
function parseCodePrefix(raw: string): Parsed<string> {
  const value = raw.trim()
  if (/^[A-Z][A-Z0-9_]{0,15}$/.test(value)) return { ok: true, value }
  return {
    ok: false,
    expected: 'an upper-case prefix of 1 to 16 letters, digits or _ (such as PV)',
  }
}

function readServiceAccess(read: Reader, mode: Mode) {
  // Dev mode (well-known Admin key, Admin may read data) is reachable from this machine only,
  // unless a listen address says otherwise.
  const { host, port } = read.address('SVC_SERVICE_LISTEN_ADDR', {
    host: mode('127.0.0.1', '0.0.0.0'),
    port: 8123,
  })
  const adminApiKey = read.secret('SVC_SERVICE_ADMIN_API_KEY', DEFAULT_ADMIN_API_KEY)
  return {
    host,
    port,
    adminApiKey,
    adminApiKeyIsDefault: adminApiKey === DEFAULT_ADMIN_API_KEY,
    overrideAdminApiKeyOnRestart: read.bool('SVC_SERVICE_OVERRIDE_ADMIN_API_KEY_ON_RESTART', true),
    adminMayReadData: read.bool('SVC_SERVICE_ADMIN_MAY_READ_DATA', mode(true, false)),
    allowOrigins: read.list('SVC_SERVICE_ALLOW_ORIGINS', mode(LOCAL_ORIGINS, [])),
    forceAccessReason: read.bool('SVC_SERVICE_FORCE_ACCESS_REASON', true),
    setIamOnStartOnly: read.bool('SVC_SERVICE_SET_IAM_ON_START_ONLY', false),
    updateSchemaOnStart: read.bool('SVC_SERVICE_UPDATE_SCHEMA_ON_START', false),
    components: read.listOf('SVC_SERVICE_COMPONENTS', COMPONENTS, COMPONENTS),
    workerPriority: read.int('SVC_SERVICE_WORKER_PRIORITY', 0),
    pciRestrictions: read.bool('SVC_SERVICE_PCI_RESTRICTIONS', false),
    allowedHttpDestinations: read.list('SVC_SERVICE_ALLOWED_HTTP_DESTINATIONS', []),
    allowedPciHttpDestinations: read.list('SVC_SERVICE_ALLOWED_PCI_HTTP_DESTINATIONS', []),
    actionsHttpCallRole: read.string('SVC_SERVICE_ACTIONS_HTTP_CALL_ROLE', ''),
    apiKeyExpirationSecs: read.int('SVC_SERVICE_API_KEY_EXPIRATION_SECS', 31_536_000, { min: 1 }),
    errorUrlBase: read.value('SVC_SERVICE_ERROR_URL_BASE', parseUrl, ''),
    errorCodePrefix: read.value('SVC_SERVICE_ERROR_CODE_PREFIX', parseCodePrefix, 'ERR'),
  }
}

const COMPONENTS: readonly ('data' | 'control')[] = ['data', 'control']

function parseUrl(raw: string): Parsed<string> {
  const url = raw.trim()
  if (URL.canParse(url)) return { ok: true, value: url }
  return { ok: false, expected: 'an absolute URL (such as https://docs.example.com/errors)' }
}

function readServiceLimits(read: Reader) {
  const cacheInterval = [
    'SVC_SERVICE_CACHE_REFRESH_INTERVAL',
    'SVC_SERVICE_CACHE_REFRESH_INTERVAL_SECONDS',
  ]
  const positive = { positive: true }
  return {
    timeoutMs: read.number('SVC_SERVICE_TIMEOUT_SECONDS', 30, { min: 0.001 }) * 1000,
    defaultPageSize: read.int('SVC_SERVICE_DEFAULT_PAGE_SIZE', 100, { min: 1 }),
    maxPageSize: read.int('SVC_SERVICE_MAX_PAGE_SIZE', 1000, { min: 1 }),
    maxPaginationRemainingCount: read.int('SVC_SERVICE_MAX_PAGINATION_REMAINING_COUNT', 10_000, {
      min: 0,
    }),
    cacheRefreshIntervalMs: read.duration(cacheInterval, 30_000),
    cacheRefreshTimeoutMs: read.duration('SVC_SERVICE_CACHE_REFRESH_TIMEOUT', 10_000, positive),
    archivePruneIntervalMs: read.duration('SVC_SERVICE_ARCHIVE_PRUNE_INTERVAL', 0),
    archivePruneTimeoutMs: read.duration('SVC_SERVICE_ARCHIVE_PRUNE_TIMEOUT', 60_000, positive),
    substringIndexRefreshIntervalMs: read.duration(
      'SVC_SERVICE_SUBSTRING_INDEX_REFRESH_INTERVAL',
      5000,
      positive,
    ),
    // 10 MiB: room for a 5 MiB blob, which grows by a third in base64, plus the JSON around it.
    bodyLimitBytes: read.int('SVC_SERVICE_BODY_LIMIT_BYTES', 10_485_760, { min: 1024 }),
  }
}

/**
 * SVC_SANDBOX_* (project-specific): per-call limits of bundle code (spec data-model §9.4 proposal:
 * 64 MiB, 1 s for validators, normalizers, transformers and templates, the call timeout for
 * actions), the worker threads that run it, and the cap on what a call may return.
 */
function readSandbox(read: Reader, callTimeoutMs: number): Config['sandbox'] {
  return {
    memoryLimitBytes: read.int('SVC_SANDBOX_MEMORY_LIMIT_BYTES', 64 * MIB, {
      min: MIB,
      max: 1024 * MIB,
    }),
    timeLimitMs: read.duration('SVC_SANDBOX_TIME_LIMIT', 1000, { positive: true }),
    actionTimeLimitMs: read.duration('SVC_SANDBOX_ACTION_TIME_LIMIT', callTimeoutMs, {
      positive: true,
    }),
    workers: read.int('SVC_SANDBOX_WORKERS', Math.min(4, Math.max(2, availableParallelism())), {
      min: 1,
      max: 64,
    }),
    maxResultBytes: read.int('SVC_SANDBOX_MAX_RESULT_BYTES', 8 * MIB, {
      min: 1024,
      max: 256 * MIB,
    }),
  }
}

function readFeatures(read: Reader, mode: Mode): Config['features'] {
  return {
    encryption: read.bool('SVC_FEATURES_ENCRYPTION', true),
    // Accepted for compatibility: keys are hashed whatever it says (README, Access control).
    apiKeyHashing: read.compat('SVC_FEATURES_API_KEY_HASHING', parseBoolean, true),
    policyEnforcement: read.bool('SVC_FEATURES_POLICY_ENFORCEMENT', true),
    maskLicense: read.bool('SVC_FEATURES_MASK_LICENSE', false),
    // spec §2.5: the public default looks inverted; we take the proposal (docs on in dev only).
    disableDocs: read.bool('SVC_FEATURES_DISABLE_DOCS', mode(false, true)),
    disableJavascript: read.bool('SVC_FEATURES_DISABLE_JAVASCRIPT', false),
    disableIdpJwks: read.bool('SVC_FEATURES_DISABLE_IDP_JWKS', false),
    disableCcLuhnValidation: read.bool('SVC_FEATURES_DISABLE_CC_LUHN_VALIDATION', false),
    antiTampering: read.oneOf('SVC_FEATURES_ANTI_TAMPERING', ['off', 'log', 'enforce'], 'off'),
    analysis: read.bool('SVC_FEATURES_ANALYSIS', true),
  }
}

function readLog(read: Reader, dataDir: string): Config['log'] {
  const auditSinks = ['stdout', 'file', 'database', 'none'] as const
  const sinks = read.listOf('SVC_LOG_AUDIT_SINK', auditSinks, ['stdout'])
  if (sinks.includes('none') && sinks.length > 1)
    read.problem('SVC_LOG_AUDIT_SINK: `none` cannot be combined with other sinks')
  return {
    level: read.oneOf('SVC_LOG_LEVEL', ['debug', 'info', 'warn', 'error'], 'info'),
    // JSON in both modes: what a developer sees is what the log pipeline gets (README).
    format: read.oneOf('SVC_LOG_FORMAT', ['json', 'pretty'], 'json'),
    destination: read.oneOf('SVC_LOG_DESTINATION', ['stdout', 'stderr'], 'stdout'),
    auditEnable: read.bool('SVC_LOG_AUDIT_ENABLE', true),
    auditSinks: sinks.filter((sink) => sink !== 'none'),
    auditRequire: read.oneOf('SVC_LOG_AUDIT_REQUIRE', ['all', 'any'], 'all'),
    auditTimeoutMs: read.duration('SVC_LOG_AUDIT_TIMEOUT', 5_000, { positive: true }),
    auditFile: read.string('SVC_LOG_AUDIT_FILE', join(dataDir, 'audit.log')),
    auditRemoteAddrEnable: read.bool('SVC_LOG_AUDIT_REMOTE_ADDR_ENABLE', false),
    auditRemoteAddrXff: read.bool('SVC_LOG_AUDIT_REMOTE_ADDR_XFF', false),
    auditDisableDeleteTokens: read.bool('SVC_LOG_AUDIT_DISABLE_DELETE_TOKENS', false),
    customerIdentifier: read.string('SVC_LOG_CUSTOMER_IDENTIFIER', ''),
    customerEnv: read.string('SVC_LOG_CUSTOMER_ENV', ''),
    customerRegion: read.string('SVC_LOG_CUSTOMER_REGION', ''),
    datadogEnable: read.compat('SVC_LOG_DATADOG_ENABLE', parseDatadog, 'false'),
  }
}

const DATADOG_VALUES = ['none', 'logs', 'metrics', 'all', 'true', 'false']

/**
 * SVC_LOG_DATADOG_ENABLE, accepted and ignored (no telemetry leaves the service): what the
 * reference product's tooling passes, `none`, `logs`, `metrics`, `all` or a boolean.
 */
function parseDatadog(raw: string): Parsed<string> {
  const value = raw.trim().toLowerCase()
  const named = value === '1' ? 'true' : value === '0' ? 'false' : value
  if (DATADOG_VALUES.includes(named)) return { ok: true, value: named }
  return { ok: false, expected: 'one of none, logs, metrics, all, true, false' }
}

/**
 * The OpenTelemetry exporter's standard variables (not SVC_*: collectors and operators know these
 * names). A base endpoint gets the OTLP/HTTP traces path appended; a traces endpoint is used as is.
 */
function readTracing(read: Reader): Config['tracing'] {
  const base = read.value('OTEL_EXPORTER_OTLP_ENDPOINT', parseHttpUrl, '')
  const traces = read.value('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', parseHttpUrl, '')
  return {
    url: traces || (base ? `${base.replace(/\/+$/, '')}/v1/traces` : ''),
    headers: readHeaders(read),
    serviceName: read.string('OTEL_SERVICE_NAME', 'strongroom'),
    sampler: read.oneOf('OTEL_TRACES_SAMPLER', TRACES_SAMPLERS, 'parentbased_always_on'),
    samplerRatio: read.number('OTEL_TRACES_SAMPLER_ARG', 1, { min: 0, max: 1 }),
  }
}

function readHeaders(read: Reader): Record<string, string> {
  const headers = parseHeaders(read.secret('OTEL_EXPORTER_OTLP_HEADERS', ''))
  if (headers !== undefined) return headers
  read.problem(
    'OTEL_EXPORTER_OTLP_HEADERS: not a comma-separated list of name=value pairs (values URL-encoded)',
  )
  return {}
}

function parseHttpUrl(raw: string): Parsed<string> {
  const url = raw.trim()
  if (/^https?:\/\//.test(url) && URL.canParse(url)) return { ok: true, value: url }
  return { ok: false, expected: 'an http:// or https:// URL (such as http://127.0.0.1:4318)' }
}

/**
 * `key=value,key2=value2` with URL-encoded values (the OpenTelemetry syntax); undefined when
 * malformed. The raw text is never echoed in a problem: it usually holds a credential.
 */
function parseHeaders(raw: string): Record<string, string> | undefined {
  const headers: Record<string, string> = {}
  for (const pair of raw.split(',')) {
    if (pair.trim() === '') continue
    const at = pair.indexOf('=')
    const name = pair.slice(0, at).trim()
    if (at <= 0 || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) return undefined
    try {
      headers[name.toLowerCase()] = decodeURIComponent(pair.slice(at + 1).trim())
    } catch {
      return undefined
    }
  }
  return headers
}

function readTls(read: Reader, mode: Mode): Config['tls'] {
  const enable = read.bool('SVC_TLS_ENABLE', mode(false, true))
  const selfSigned = read.bool('SVC_TLS_SELFSIGNED', false)
  return {
    enable: enable || selfSigned,
    selfSigned,
    certFile: read.string('SVC_TLS_CERT_FILE', ''),
    keyFile: read.string('SVC_TLS_KEY_FILE', ''),
  }
}
