// src/config.ts: reads SVC_* variables and conf/config.toml once; nothing else touches process.env
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse as parseToml } from 'smol-toml'
import { checkConfig } from './config-checks.ts'
import { readConfig } from './config-sections.ts'
import { createReader, type ListenAddress, type Source, tomlToVariables } from './config-values.ts'
import type { DatabaseOptions } from './storage/database.ts'

export type AuditSinkKind = 'stdout' | 'file' | 'database'

export type BackingStore = 'sqlite' | 'postgres' | 'memory' | 'none'

export const TRACES_SAMPLERS = [
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
  'always_on',
  'always_off',
  'traceidratio',
] as const
export type TracesSampler = (typeof TRACES_SAMPLERS)[number]

export type Config = Readonly<{
  /** Values of compatibility-only settings that were ignored: logged as warnings at start. */
  warnings: readonly string[]
  devmode: boolean
  backingStore: BackingStore
  dataDir: string
  configDir: string
  generateSecrets: boolean
  license: string
  /** What storage opens (storage/database.ts declares it), or `none` in stateless mode. */
  database: DatabaseOptions | { readonly kind: 'none' }
  migration: Readonly<{
    autoRun: boolean
    enableRetries: boolean
    initialWaitMs: number
    maxWaitMs: number
    maxRetries: number
    enableCleanDatabaseValidation: boolean
  }>
  db: Readonly<{
    traceSql: boolean
    /** SVC_DB_CONNECT_TIMEOUT (project-specific): how long a start waits for PostgreSQL. */
    connectTimeoutMs: number
    maskConfig: boolean
    maxStringLength: number
    maxBlobLength: number
    maxTokenTags: number
    gcRetentionPeriodMs: number
    gcBatchSize: number
  }>
  kms: Readonly<{
    uri: string
    seed: string
    exportUri: string
    exportSeed: string
    allowLocal: boolean
    /** SVC_KMS_REENCRYPT_BATCH_SIZE (project-specific): rows per re-encryption batch. */
    reencryptBatchSize: number
    /** SVC_KMS_REENCRYPT_PAUSE (project-specific): pause between re-encryption batches. */
    reencryptPauseMs: number
  }>
  service: Readonly<{
    host: string
    port: number
    adminApiKey: string
    adminApiKeyIsDefault: boolean
    overrideAdminApiKeyOnRestart: boolean
    adminMayReadData: boolean
    allowOrigins: readonly string[]
    forceAccessReason: boolean
    timeoutMs: number
    defaultPageSize: number
    maxPageSize: number
    maxPaginationRemainingCount: number
    cacheRefreshIntervalMs: number
    cacheRefreshTimeoutMs: number
    archivePruneIntervalMs: number
    archivePruneTimeoutMs: number
    substringIndexRefreshIntervalMs: number
    setIamOnStartOnly: boolean
    updateSchemaOnStart: boolean
    components: readonly ('data' | 'control')[]
    workerPriority: number
    pciRestrictions: boolean
    allowedHttpDestinations: readonly string[]
    allowedPciHttpDestinations: readonly string[]
    actionsHttpCallRole: string
    apiKeyExpirationSecs: number
    errorUrlBase: string
    /** SVC_SERVICE_ERROR_CODE_PREFIX (project-specific): `ERR` in `ERRnnnn`, e.g. `PV`. */
    errorCodePrefix: string
    bodyLimitBytes: number
  }>
  /** SVC_METRICS_* (project-specific): where GET /metrics is served, and its credential. */
  metrics: Readonly<{
    /** A separate listener for /metrics only; undefined: none. */
    listen: ListenAddress | undefined
    /** Bearer token for /metrics; on the main port /metrics exists only when it is set. */
    token: string
  }>
  /** OTEL_* (the OpenTelemetry names): spans are exported over OTLP/HTTP when `url` is set. */
  tracing: Readonly<{
    /** The traces URL: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, or OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces. */
    url: string
    headers: Readonly<Record<string, string>>
    serviceName: string
    /** OTEL_TRACES_SAMPLER: which calls are traced (`parentbased_*` follow a caller's choice). */
    sampler: TracesSampler
    /** OTEL_TRACES_SAMPLER_ARG: the share of traces kept by the `*traceidratio` samplers. */
    samplerRatio: number
  }>
  features: Readonly<{
    encryption: boolean
    apiKeyHashing: boolean
    policyEnforcement: boolean
    maskLicense: boolean
    disableDocs: boolean
    disableJavascript: boolean
    disableIdpJwks: boolean
    disableCcLuhnValidation: boolean
    antiTampering: 'off' | 'log' | 'enforce'
    analysis: boolean
  }>
  /** The JavaScript sandbox of bundles (project-specific SVC_SANDBOX_* settings). */
  sandbox: Readonly<{
    memoryLimitBytes: number
    timeLimitMs: number
    actionTimeLimitMs: number
    workers: number
    maxResultBytes: number
  }>
  log: Readonly<{
    level: 'debug' | 'info' | 'warn' | 'error'
    /** SVC_LOG_FORMAT (project-specific): one JSON object per line, or pino-pretty for humans. */
    format: 'json' | 'pretty'
    destination: 'stdout' | 'stderr'
    auditEnable: boolean
    /** SVC_LOG_AUDIT_SINK (project-specific): where records go; empty for `none`. */
    auditSinks: readonly AuditSinkKind[]
    /** SVC_LOG_AUDIT_REQUIRE: a call succeeds when `all` its sinks, or `any` one, recorded it. */
    auditRequire: 'all' | 'any'
    /** SVC_LOG_AUDIT_TIMEOUT: how long a call waits for its record before failing with 503. */
    auditTimeoutMs: number
    /** SVC_LOG_AUDIT_FILE, used when auditSinks has 'file'. */
    auditFile: string
    auditRemoteAddrEnable: boolean
    auditRemoteAddrXff: boolean
    auditDisableDeleteTokens: boolean
    customerIdentifier: string
    customerEnv: string
    customerRegion: string
    /** Accepted and ignored: `none`, `logs`, `metrics`, `all`, `true` or `false`. */
    datadogEnable: string
  }>
  sentryEnable: boolean
  /** `enable` is true whenever `selfSigned` is (spec §2.7: self-signed overrides enable). */
  tls: Readonly<{ enable: boolean; selfSigned: boolean; certFile: string; keyFile: string }>
  /** Seconds; undefined means never. */
  expiration: Readonly<{
    tokensSecs: number | undefined
    associatedObjectsSecs: number | undefined
    unassociatedObjectsSecs: number | undefined
  }>
}>

export type Env = Readonly<Record<string, string | undefined>>
export type LoadConfigOptions = {
  /** Dev mode unless SVC_DEVMODE (variable or config.toml) says otherwise: `serve --dev`. */
  readonly devmode?: boolean
  /** false: do not read <SVC_CONFIG_DIR>/config.toml (tests). */
  readonly files?: boolean
}

const SECRET_VARIABLES = [
  'SVC_DB_PASSWORD',
  'SVC_KMS_SEED',
  'SVC_KMS_EXPORT_SEED',
  'SVC_SERVICE_ADMIN_API_KEY',
  'SVC_SERVICE_LICENSE',
  'SVC_METRICS_TOKEN',
]

const SETTINGS = `DEVMODE BACKING_STORE DATA_DIR CONFIG_DIR GENERATE_SECRETS SERVICE_LICENSE
  DB_HOSTNAME DB_PORT DB_NAME DB_USER DB_PASSWORD DB_REQUIRE_TLS DB_MAX_OPEN_CONNS
  DB_MAX_IDLE_CONNS DB_CONN_MAX_LIFETIME_MINUTES DB_MIGRATION_AUTO_RUN DB_MIGRATION_ENABLE_RETRIES
  DB_MIGRATION_INITIAL_WAIT_BETWEEN_RETRIES DB_MIGRATION_MAX_WAIT_BETWEEN_RETRIES
  DB_MIGRATION_MAX_RETRIES DB_MIGRATION_ENABLE_CLEAN_DATABASE_VALIDATION DB_TRACE_SQL
  DB_CONNECT_TIMEOUT
  DB_MASK_CONFIG DB_MAX_STRING_LENGTH DB_MAX_BLOB_LENGTH DB_MAX_TOKEN_TAGS DB_GC_RETENTION_PERIOD
  DB_GC_GRACE_PERIOD_DAYS DB_GC_BATCH_SIZE DB_QUERY_TIMEOUT DB_SQLITE_SYNCHRONOUS
  DB_PREPARED_STATEMENTS DB_SQLITE_CACHE_BYTES
  KMS_URI KMS_SEED KMS_EXPORT_URI KMS_EXPORT_SEED KMS_ALLOW_LOCAL KMS_REENCRYPT_BATCH_SIZE
  KMS_REENCRYPT_PAUSE
  SERVICE_LISTEN_ADDR SERVICE_ADMIN_API_KEY SERVICE_OVERRIDE_ADMIN_API_KEY_ON_RESTART
  SERVICE_ADMIN_MAY_READ_DATA SERVICE_ALLOW_ORIGINS SERVICE_FORCE_ACCESS_REASON
  SERVICE_TIMEOUT_SECONDS SERVICE_DEFAULT_PAGE_SIZE SERVICE_MAX_PAGE_SIZE
  SERVICE_MAX_PAGINATION_REMAINING_COUNT SERVICE_CACHE_REFRESH_INTERVAL
  SERVICE_CACHE_REFRESH_INTERVAL_SECONDS SERVICE_CACHE_REFRESH_TIMEOUT
  SERVICE_ARCHIVE_PRUNE_INTERVAL SERVICE_ARCHIVE_PRUNE_TIMEOUT
  SERVICE_SUBSTRING_INDEX_REFRESH_INTERVAL SERVICE_SET_IAM_ON_START_ONLY
  SERVICE_UPDATE_SCHEMA_ON_START SERVICE_COMPONENTS SERVICE_WORKER_PRIORITY
  SERVICE_PCI_RESTRICTIONS SERVICE_ALLOWED_HTTP_DESTINATIONS SERVICE_ALLOWED_PCI_HTTP_DESTINATIONS
  SERVICE_ACTIONS_HTTP_CALL_ROLE SERVICE_API_KEY_EXPIRATION_SECS SERVICE_ERROR_URL_BASE
  SERVICE_ERROR_CODE_PREFIX
  SERVICE_BODY_LIMIT_BYTES
  FEATURES_ENCRYPTION FEATURES_API_KEY_HASHING FEATURES_POLICY_ENFORCEMENT FEATURES_MASK_LICENSE
  FEATURES_DISABLE_DOCS FEATURES_DISABLE_JAVASCRIPT FEATURES_DISABLE_IDP_JWKS
  FEATURES_DISABLE_CC_LUHN_VALIDATION FEATURES_ANTI_TAMPERING FEATURES_ANALYSIS
  SANDBOX_MEMORY_LIMIT_BYTES SANDBOX_TIME_LIMIT SANDBOX_ACTION_TIME_LIMIT SANDBOX_WORKERS
  SANDBOX_MAX_RESULT_BYTES
  METRICS_LISTEN_ADDR METRICS_TOKEN
  LOG_LEVEL LOG_FORMAT LOG_DESTINATION LOG_AUDIT_ENABLE LOG_AUDIT_SINK LOG_AUDIT_REQUIRE LOG_AUDIT_TIMEOUT LOG_AUDIT_FILE
  LOG_AUDIT_REMOTE_ADDR_ENABLE LOG_AUDIT_REMOTE_ADDR_XFF LOG_AUDIT_DISABLE_DELETE_TOKENS
  LOG_CUSTOMER_IDENTIFIER LOG_CUSTOMER_ENV LOG_CUSTOMER_REGION LOG_DATADOG_ENABLE SENTRY_ENABLE
  TLS_ENABLE TLS_SELFSIGNED TLS_CERT_FILE TLS_KEY_FILE
  EXPIRATION_TOKENS EXPIRATION_ASSOCIATED_OBJECTS EXPIRATION_UNASSOCIATED_OBJECTS`

/** Every variable loadConfig reads, aliases and `…_FILE` forms of secrets included. */
export const CONFIG_VARIABLES: readonly string[] = Object.freeze([
  ...SETTINGS.split(/\s+/).map((name) => `SVC_${name}`),
  ...SECRET_VARIABLES.map((name) => `${name}_FILE`),
])

export class ConfigError extends Error {
  readonly problems: readonly string[]

  constructor(problems: readonly string[]) {
    const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`
    super(`Invalid configuration (${count}):\n${problems.map((p) => `  - ${p}`).join('\n')}`)
    this.name = 'ConfigError'
    this.problems = Object.freeze([...problems])
  }
}

/**
 * Reads the configuration: variables beat config.toml, which beats the built-in defaults of the
 * mode (dev or server). Throws one ConfigError listing every problem found.
 */
export function loadConfig(env: Env = process.env, options: LoadConfigOptions = {}): Config {
  const problems: string[] = []
  const configDir = env.SVC_CONFIG_DIR?.trim() || './conf'
  const sources: Source[] = [{ values: env, where: '' }]
  if (options.files !== false) {
    sources.push(...readConfigFile(configDir, problems))
    if (isStateless(sources)) sources.push(...readSecretsKms(configDir, problems))
  }
  const warnings: string[] = []
  const read = createReader(sources, problems, warnings)
  const config = { ...readConfig(read, configDir, options.devmode ?? false), warnings }
  checkConfig(config, read)
  if (problems.length > 0) throw new ConfigError(problems)
  return deepFreeze(config)
}

function readConfigFile(configDir: string, problems: string[]): Source[] {
  const file = join(configDir, 'config.toml')
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code !== 'ENOENT') problems.push(`${file}: cannot be read (${code ?? 'unknown error'})`)
    return []
  }
  try {
    const values = tomlToVariables(parseToml(text), problems)
    for (const name of Object.keys(values)) {
      // Unlike unknown variables, which may belong to other software, a key in our own file
      // that we do not know is a typo.
      if (!CONFIG_VARIABLES.includes(name) || name === 'SVC_CONFIG_DIR') {
        problems.push(`${name} (${file}): not a known configuration setting`)
      }
    }
    return [{ values, where: ` (${file})` }]
  } catch (error) {
    problems.push(`${file}: not valid TOML (${(error as Error).message.split('\n')[0]})`)
    return []
  }
}

const isStateless = (sources: readonly Source[]) =>
  sources.find((source) => source.values.SVC_BACKING_STORE !== undefined)?.values
    .SVC_BACKING_STORE === 'none'

const SECRETS_KMS_KEYS = [
  'SVC_KMS_URI',
  'SVC_KMS_SEED',
  'SVC_KMS_EXPORT_URI',
  'SVC_KMS_EXPORT_SEED',
]

/**
 * Stateless mode (config.md §5, §8): the `[kms]` table of secrets.toml (`seed`, `uri`,
 * `export_seed`, `export_uri`), below variables and config.toml. Its users' key hashes and its
 * syntax errors (with line and column) are the start-up loader's (app-stateless.ts).
 */
function readSecretsKms(configDir: string, problems: string[]): Source[] {
  const file = join(configDir, 'secrets.toml')
  let all: Record<string, string>
  try {
    // Only [kms] is configuration; the other sections' problems are the start-up loader's.
    all = tomlToVariables(parseToml(readFileSync(file, 'utf8')), [])
  } catch {
    return []
  }
  const values = Object.fromEntries(
    Object.entries(all).filter(([name]) => name.startsWith('SVC_KMS_')),
  )
  if (Object.keys(values).length === 0) return []
  for (const name of Object.keys(values)) {
    if (!SECRETS_KMS_KEYS.includes(name))
      problems.push(
        `${name} (${file}): [kms] of secrets.toml takes only seed, uri, export_seed, export_uri`,
      )
  }
  return [{ values, where: ` (${file})` }]
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child)
    Object.freeze(value)
  }
  return value
}
