// src/app-settings.test.ts: coreSettings, the one mapping from configuration to core's settings
import { describe, expect, it } from 'vitest'
import { coreSettings } from './app-settings.ts'
import { type Env, loadConfig } from './config.ts'
import { describeConfig } from './config-describe.ts'

const FACTS = { workerId: 'w1', version: '9.9.9', vaultId: 'v1' }
const settingsOf = (env: Env = {}) => {
  const config = loadConfig(env, { devmode: true, files: false })
  return { config, settings: coreSettings(config, FACTS) }
}

describe('coreSettings', () => {
  it('maps the dev-mode defaults to every capability', () => {
    const { config, settings } = settingsOf()
    const page = { defaultPageSize: 100, maxPageSize: 1000, maxRemainingCount: 10000 }
    expect(settings).toEqual({
      iam: {
        adminApiKey: 'pvaultauth',
        overrideAdminApiKeyOnRestart: true,
        adminMayReadData: true,
        policyEnforcement: true,
        apiKeyExpirationSecs: config.service.apiKeyExpirationSecs,
        allowJwksUri: true,
        setIamOnStartOnly: false,
      },
      forceAccessReason: true,
      cache: {
        refreshIntervalMs: config.service.cacheRefreshIntervalMs,
        worker: { id: 'w1', priority: 0, components: ['data', 'control'] },
      },
      system: {
        version: '9.9.9',
        vaultId: 'v1',
        configuration: describeConfig(config),
        license: { key: '', isMasked: false },
      },
      audit: {
        isEnabled: true,
        includeRemoteAddr: false,
        skipOperations: new Set(),
        require: 'all',
        timeoutMs: 5_000,
      },
      confvarDefaults: { logLevel: 'info', traceSql: false },
      typeLimits: {
        maxStringLength: config.db.maxStringLength,
        maxBlobLength: config.db.maxBlobLength,
        isLuhnCheckEnabled: true,
      },
      collections: { isEncryptionEnabled: true },
      analysis: { isEnabled: true },
      objects: {
        ...page,
        expiration: {
          associatedSecs: config.expiration.associatedObjectsSecs,
          unassociatedSecs: config.expiration.unassociatedObjectsSecs,
        },
        substringDrainLimit: 2000,
      },
      tokens: { maxTags: config.db.maxTokenTags, defaultExpirySecs: undefined, page },
      crypto: {
        maxItems: 1000,
        maxTags: config.db.maxTokenTags,
        maxBlobLength: config.db.maxBlobLength,
        tokenExpirationSecs: undefined,
      },
      gc: { retentionMs: config.db.gcRetentionPeriodMs, batchSize: config.db.gcBatchSize },
      jobs: {
        pruneIntervalMs: config.service.archivePruneIntervalMs,
        pruneTimeoutMs: config.service.archivePruneTimeoutMs,
        substringRefreshMs: config.service.substringIndexRefreshIntervalMs,
      },
      code: {
        isJavascriptDisabled: false,
        httpCallRole: '',
        allowedHttpDestinations: [],
        allowedPciHttpDestinations: [],
        maxResponseBytes: 8 * 1_048_576,
        reloadTypesFileOnStart: false,
      },
      reencryption: {
        batchSize: config.kms.reencryptBatchSize,
        pauseMs: config.kms.reencryptPauseMs,
        settleMs: config.service.cacheRefreshIntervalMs + config.service.timeoutMs,
        pollMs: config.service.cacheRefreshIntervalMs,
      },
    })
  })

  it('gives one variable to every capability that uses it', () => {
    const { settings } = settingsOf({
      SVC_DB_MAX_TOKEN_TAGS: '7',
      SVC_EXPIRATION_TOKENS: '3600',
      SVC_SERVICE_MAX_PAGE_SIZE: '50',
      SVC_SERVICE_DEFAULT_PAGE_SIZE: '20',
    })
    expect(settings.tokens.maxTags).toBe(7)
    expect(settings.crypto.maxTags).toBe(7)
    expect(settings.tokens.defaultExpirySecs).toBe(3600)
    expect(settings.crypto.tokenExpirationSecs).toBe(3600)
    expect(settings.crypto.maxItems).toBe(50)
    expect(settings.tokens.page).toEqual({
      defaultPageSize: 20,
      maxPageSize: 50,
      maxRemainingCount: 10000,
    })
    expect(settings.objects).toMatchObject(settings.tokens.page)
  })

  it('gives bundles and actions the destinations, the http_call role and the JavaScript switch', () => {
    const { settings } = settingsOf({
      SVC_FEATURES_DISABLE_JAVASCRIPT: 'true',
      SVC_SERVICE_ACTIONS_HTTP_CALL_ROLE: 'Caller',
      SVC_SERVICE_ALLOWED_HTTP_DESTINATIONS: 'https://a.example/,*',
      SVC_SERVICE_ALLOWED_PCI_HTTP_DESTINATIONS: 'https://pay.example/',
      SVC_SANDBOX_MAX_RESULT_BYTES: '4096',
      SVC_SERVICE_UPDATE_SCHEMA_ON_START: 'true',
    })
    expect(settings.code).toEqual({
      isJavascriptDisabled: true,
      httpCallRole: 'Caller',
      allowedHttpDestinations: ['https://a.example/', '*'],
      allowedPciHttpDestinations: ['https://pay.example/'],
      maxResponseBytes: 4096,
      reloadTypesFileOnStart: true,
    })
  })

  it('turns feature switches into what core asks (allow, check, skip)', () => {
    const { settings } = settingsOf({
      SVC_FEATURES_DISABLE_IDP_JWKS: 'true',
      SVC_FEATURES_DISABLE_CC_LUHN_VALIDATION: 'true',
      SVC_FEATURES_ENCRYPTION: 'false',
      SVC_LOG_AUDIT_DISABLE_DELETE_TOKENS: 'true',
      SVC_FEATURES_MASK_LICENSE: 'true',
      SVC_FEATURES_ANALYSIS: 'false',
    })
    expect(settings.iam.allowJwksUri).toBe(false)
    expect(settings.typeLimits.isLuhnCheckEnabled).toBe(false)
    expect(settings.collections.isEncryptionEnabled).toBe(false)
    expect([...settings.audit.skipOperations]).toEqual(['delete_tokens'])
    expect(settings.system.license.isMasked).toBe(true)
    expect(settings.analysis.isEnabled).toBe(false)
  })

  it('lets re-encryption settle for a cache refresh plus a call timeout, and poll without a cache', () => {
    const { settings } = settingsOf({
      SVC_SERVICE_CACHE_REFRESH_INTERVAL: '0',
      SVC_SERVICE_TIMEOUT_SECONDS: '12',
    })
    expect(settings.reencryption.settleMs).toBe(12_000)
    expect(settings.reencryption.pollMs).toBe(5_000)
    expect(settings.cache.refreshIntervalMs).toBe(0)
  })
})
