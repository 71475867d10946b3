// src/app-settings.ts: the one mapping from the configuration to the settings core receives
import type { Config } from './config.ts'
import { describeConfig } from './config-describe.ts'
import type { CoreSettings } from './core/services.ts'

/** What the composition root knows at start besides the configuration. */
export type StartFacts = Readonly<{
  /** This node's id in the cluster (workers table, leases). */
  workerId: string
  /** The package version. */
  version: string
  /** The vault's id, kept in the database. */
  vaultId: string
}>

/**
 * Core's settings from the configuration. Each SVC_* value core uses is read here and nowhere
 * else: config.ts parses it, this function hands it to the capability that uses it, and
 * core/services.ts passes each group on unchanged.
 */
export function coreSettings(config: Config, facts: StartFacts): CoreSettings {
  const { service, features, db, expiration, log } = config
  const page = {
    defaultPageSize: service.defaultPageSize,
    maxPageSize: service.maxPageSize,
    maxRemainingCount: service.maxPaginationRemainingCount,
  }
  return {
    iam: {
      adminApiKey: service.adminApiKey,
      overrideAdminApiKeyOnRestart: service.overrideAdminApiKeyOnRestart,
      adminMayReadData: service.adminMayReadData,
      policyEnforcement: features.policyEnforcement,
      apiKeyExpirationSecs: service.apiKeyExpirationSecs,
      allowJwksUri: !features.disableIdpJwks,
      setIamOnStartOnly: service.setIamOnStartOnly,
    },
    forceAccessReason: service.forceAccessReason,
    cache: {
      refreshIntervalMs: service.cacheRefreshIntervalMs,
      worker: {
        id: facts.workerId,
        priority: service.workerPriority,
        components: service.components,
      },
    },
    system: {
      version: facts.version,
      vaultId: facts.vaultId,
      configuration: describeConfig(config),
      license: { key: config.license, isMasked: features.maskLicense },
    },
    audit: {
      isEnabled: log.auditEnable,
      includeRemoteAddr: log.auditRemoteAddrEnable,
      skipOperations: new Set(log.auditDisableDeleteTokens ? ['delete_tokens'] : []),
      require: log.auditRequire,
      timeoutMs: log.auditTimeoutMs,
    },
    confvarDefaults: { logLevel: log.level, traceSql: db.traceSql },
    typeLimits: {
      maxStringLength: db.maxStringLength,
      maxBlobLength: db.maxBlobLength,
      isLuhnCheckEnabled: !features.disableCcLuhnValidation,
    },
    collections: { isEncryptionEnabled: features.encryption },
    analysis: { isEnabled: features.analysis },
    objects: {
      ...page,
      expiration: {
        associatedSecs: expiration.associatedObjectsSecs,
        unassociatedSecs: expiration.unassociatedObjectsSecs,
      },
      substringDrainLimit: 2000,
    },
    tokens: { maxTags: db.maxTokenTags, defaultExpirySecs: expiration.tokensSecs, page },
    crypto: {
      maxItems: service.maxPageSize,
      maxTags: db.maxTokenTags,
      maxBlobLength: db.maxBlobLength,
      tokenExpirationSecs: expiration.tokensSecs,
    },
    gc: { retentionMs: db.gcRetentionPeriodMs, batchSize: db.gcBatchSize },
    jobs: {
      pruneIntervalMs: service.archivePruneIntervalMs,
      pruneTimeoutMs: service.archivePruneTimeoutMs,
      substringRefreshMs: service.substringIndexRefreshIntervalMs,
    },
    code: {
      isJavascriptDisabled: features.disableJavascript,
      httpCallRole: service.actionsHttpCallRole,
      allowedHttpDestinations: service.allowedHttpDestinations,
      allowedPciHttpDestinations: service.allowedPciHttpDestinations,
      maxResponseBytes: config.sandbox.maxResultBytes,
      reloadTypesFileOnStart: service.updateSchemaOnStart,
    },
    reencryption: {
      batchSize: config.kms.reencryptBatchSize,
      pauseMs: config.kms.reencryptPauseMs,
      // A node may still write with the previous keys until its cache refreshes, or until a call
      // that started before the rotation times out.
      settleMs: service.cacheRefreshIntervalMs + service.timeoutMs,
      pollMs: service.cacheRefreshIntervalMs || 5_000,
    },
  }
}
