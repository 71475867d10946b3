// src/config-describe.ts: the effective configuration as GET /system/info/configuration shows it, secrets masked
import type { Config } from './config.ts'

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
    sandbox: {
      memory_limit_bytes: config.sandbox.memoryLimitBytes,
      time_limit: seconds(config.sandbox.timeLimitMs),
      action_time_limit: seconds(config.sandbox.actionTimeLimitMs),
      workers: config.sandbox.workers,
      max_result_bytes: config.sandbox.maxResultBytes,
    },
    sentry: { enable: config.sentryEnable },
    service: {
      ...describeService(config.service, hide),
      license: mask(config.license),
      ...describeMetrics(config.metrics, hide),
    },
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
    connect_timeout: seconds(db.connectTimeoutMs),
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
    format: log.format,
    destination: log.destination,
    audit_enable: log.auditEnable,
    audit_sink: log.auditSinks.length > 0 ? log.auditSinks.join(',') : 'none',
    audit_require: log.auditRequire,
    audit_timeout: seconds(log.auditTimeoutMs),
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
    error_code_prefix: service.errorCodePrefix,
    body_limit_bytes: service.bodyLimitBytes,
  }
}

function describeMetrics(metrics: Config['metrics'], hide: Mask) {
  const { listen } = metrics
  const host = listen?.host.includes(':') ? `[${listen.host}]` : listen?.host
  return {
    metrics_listen_addr: listen ? `${host}:${listen.port}` : '',
    metrics_token: hide(metrics.token),
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
