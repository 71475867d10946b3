// src/config.ts: reads SVC_* variables and conf/config.toml once; nothing else touches process.env
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse as parseToml } from 'smol-toml'
import { checkConfig, readConfig } from './config-sections.ts'
import { createReader, type Source, tomlToVariables } from './config-values.ts'
import type { DatabaseOptions } from './storage/database.ts'

export type BackingStore = 'sqlite' | 'postgres' | 'memory' | 'none'

export type Config = Readonly<{
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
    bodyLimitBytes: number
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
  log: Readonly<{
    level: 'debug' | 'info' | 'warn' | 'error'
    destination: 'stdout' | 'stderr'
    auditEnable: boolean
    /** SVC_LOG_AUDIT_SINK (project-specific). */
    auditSink: 'stdout' | 'file' | 'database' | 'none'
    /** SVC_LOG_AUDIT_FILE, used when auditSink is 'file'. */
    auditFile: string
    auditRemoteAddrEnable: boolean
    auditRemoteAddrXff: boolean
    auditDisableDeleteTokens: boolean
    customerIdentifier: string
    customerEnv: string
    customerRegion: string
    datadogEnable: boolean
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
]

const SETTINGS = `DEVMODE BACKING_STORE DATA_DIR CONFIG_DIR GENERATE_SECRETS SERVICE_LICENSE
  DB_HOSTNAME DB_PORT DB_NAME DB_USER DB_PASSWORD DB_REQUIRE_TLS DB_MAX_OPEN_CONNS
  DB_MAX_IDLE_CONNS DB_CONN_MAX_LIFETIME_MINUTES DB_MIGRATION_AUTO_RUN DB_MIGRATION_ENABLE_RETRIES
  DB_MIGRATION_INITIAL_WAIT_BETWEEN_RETRIES DB_MIGRATION_MAX_WAIT_BETWEEN_RETRIES
  DB_MIGRATION_MAX_RETRIES DB_MIGRATION_ENABLE_CLEAN_DATABASE_VALIDATION DB_TRACE_SQL
  DB_MASK_CONFIG DB_MAX_STRING_LENGTH DB_MAX_BLOB_LENGTH DB_MAX_TOKEN_TAGS DB_GC_RETENTION_PERIOD
  DB_GC_GRACE_PERIOD_DAYS DB_GC_BATCH_SIZE
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
  SERVICE_BODY_LIMIT_BYTES
  FEATURES_ENCRYPTION FEATURES_API_KEY_HASHING FEATURES_POLICY_ENFORCEMENT FEATURES_MASK_LICENSE
  FEATURES_DISABLE_DOCS FEATURES_DISABLE_JAVASCRIPT FEATURES_DISABLE_IDP_JWKS
  FEATURES_DISABLE_CC_LUHN_VALIDATION FEATURES_ANTI_TAMPERING FEATURES_ANALYSIS
  LOG_LEVEL LOG_DESTINATION LOG_AUDIT_ENABLE LOG_AUDIT_SINK LOG_AUDIT_FILE
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
  if (options.files !== false) sources.push(...readConfigFile(configDir, problems))
  const read = createReader(sources, problems)
  const config = readConfig(read, configDir, options.devmode ?? false)
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

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child)
    Object.freeze(value)
  }
  return value
}

type Mask = (secret: string) => string

/**
 * The body of GET /system/info/configuration: the published client's model, lower-case snake_case
 * keys, durations in seconds, lists joined with commas, -1 for "never". Secrets become `***`
 * when SVC_DB_MASK_CONFIG is true; the Admin key always does, as it grants everything.
 */
export function describeConfig(config: Config): Record<string, unknown> {
  const hide: Mask = (secret) => (secret === '' ? '' : '***')
  const mask: Mask = config.db.maskConfig ? hide : (secret) => secret
  return {
    db: describeDb(config, mask),
    devmode: config.devmode,
    backing_store: config.backingStore,
    generate_secrets: config.generateSecrets,
    features: describeFeatures(config.features),
    kms: describeKms(config.kms, mask),
    log: describeLog(config.log),
    sentry: { enable: config.sentryEnable },
    service: { ...describeService(config.service, hide), license: mask(config.license) },
    tls: {
      cert_file: config.tls.certFile,
      enable: config.tls.enable,
      key_file: config.tls.keyFile,
      selfsigned: config.tls.selfSigned,
    },
    expiration: {
      associated_objects: config.expiration.associatedObjectsSecs ?? -1,
      tokens: config.expiration.tokensSecs ?? -1,
      unassociated_objects: config.expiration.unassociatedObjectsSecs ?? -1,
    },
  }
}

const seconds = (ms: number) => ms / 1000

function describeKms(kms: Config['kms'], mask: Mask) {
  return {
    seed: mask(kms.seed),
    uri: kms.uri,
    export_seed: mask(kms.exportSeed),
    export_uri: kms.exportUri,
    allow_local: kms.allowLocal,
    reencrypt_batch_size: kms.reencryptBatchSize,
    reencrypt_pause: seconds(kms.reencryptPauseMs),
  }
}

// The client model requires the PostgreSQL keys; with another store they are empty or zero.
function describeDb(config: Config, mask: Mask) {
  const { database, db, migration } = config
  const pg = database.kind === 'postgres' ? database : undefined
  return {
    conn_max_lifetime_minutes: (pg?.connMaxLifetimeMs ?? 0) / 60_000,
    gc: { batch_size: db.gcBatchSize, retention_period: seconds(db.gcRetentionPeriodMs) },
    hostname: pg?.host ?? '',
    mask_config: db.maskConfig,
    max_idle_conns: pg?.maxIdleConns ?? 0,
    max_open_conns: pg?.maxOpenConns ?? 0,
    max_string_length: db.maxStringLength,
    max_blob_length: db.maxBlobLength,
    max_token_tags: db.maxTokenTags,
    migration: {
      auto_run: migration.autoRun,
      enable_clean_database_validation: migration.enableCleanDatabaseValidation,
      enable_retries: migration.enableRetries,
      initial_wait_between_retries: seconds(migration.initialWaitMs),
      max_wait_between_retries: seconds(migration.maxWaitMs),
      max_retries: migration.maxRetries,
    },
    name: pg?.database ?? '',
    password: mask(pg?.password ?? ''),
    port: pg?.port ?? 0,
    require_tls: pg?.requireTls ?? false,
    trace_sql: db.traceSql,
    user: pg?.user ?? '',
    ...(database.kind === 'sqlite' ? { file: database.file } : {}),
  }
}

function describeFeatures(features: Config['features']) {
  return {
    encryption: features.encryption,
    api_key_hashing: features.apiKeyHashing,
    policy_enforcement: features.policyEnforcement,
    mask_license: features.maskLicense,
    disable_docs: features.disableDocs,
    disable_javascript: features.disableJavascript,
    disable_idp_jwks: features.disableIdpJwks,
    disable_cc_luhn_validation: features.disableCcLuhnValidation,
    anti_tampering: features.antiTampering,
    analysis: features.analysis,
  }
}

function describeLog(log: Config['log']) {
  return {
    customer_env: log.customerEnv,
    customer_identifier: log.customerIdentifier,
    customer_region: log.customerRegion,
    datadog_enable: String(log.datadogEnable),
    level: log.level,
    destination: log.destination,
    audit_enable: log.auditEnable,
    audit_sink: log.auditSink,
    audit_file: log.auditFile,
    audit_remote_addr_enable: log.auditRemoteAddrEnable,
    audit_remote_addr_xff: log.auditRemoteAddrXff,
    audit_disable_delete_tokens: log.auditDisableDeleteTokens,
  }
}

function describeService(service: Config['service'], hide: Mask) {
  const host = service.host.includes(':') ? `[${service.host}]` : service.host
  return {
    admin_api_key: hide(service.adminApiKey),
    override_admin_api_key_on_restart: service.overrideAdminApiKeyOnRestart,
    allow_origins: service.allowOrigins.join(','),
    admin_may_read_data: service.adminMayReadData,
    components: service.components.join(','),
    worker_priority: service.workerPriority,
    pci_restrictions: service.pciRestrictions,
    default_page_size: service.defaultPageSize,
    set_iam_on_start_only: service.setIamOnStartOnly,
    update_schema_on_start: service.updateSchemaOnStart,
    force_access_reason: service.forceAccessReason,
    listen_addr: `${host}:${service.port}`,
    max_page_size: service.maxPageSize,
    max_pagination_remaining_count: service.maxPaginationRemainingCount,
    ...describeServiceTimings(service),
    allowed_http_destinations: service.allowedHttpDestinations.join(','),
    allowed_pci_http_destinations: service.allowedPciHttpDestinations.join(','),
    actions_http_call_role: service.actionsHttpCallRole,
    api_key_expiration_secs: service.apiKeyExpirationSecs,
    error_url_base: service.errorUrlBase,
    body_limit_bytes: service.bodyLimitBytes,
  }
}

function describeServiceTimings(service: Config['service']) {
  return {
    timeout_seconds: seconds(service.timeoutMs),
    cache_refresh_interval: seconds(service.cacheRefreshIntervalMs),
    cache_refresh_timeout: seconds(service.cacheRefreshTimeoutMs),
    archive_prune_interval: seconds(service.archivePruneIntervalMs),
    archive_prune_timeout: seconds(service.archivePruneTimeoutMs),
    substring_index_refresh_interval: seconds(service.substringIndexRefreshIntervalMs),
  }
}
