// src/core/services.ts: Services type and createServices(deps), the core half of the composition root
import { createAnalysisService } from './analysis/analysis.ts'
import type { Detector } from './analysis/detector.ts'
import { createLocalDetector } from './analysis/local-detector.ts'
import { type AuditSink, createAuditService } from './audit/audit.ts'
import { createControlCache } from './cache.ts'
import { createCollectionsService } from './collections/collections.ts'
import { createDeterministicIds } from './crypto/deterministic-id.ts'
import { createEnvelope } from './crypto/envelope.ts'
import { createExportKeys } from './crypto/export-key.ts'
import { createKeyring } from './crypto/keyring.ts'
import type { Kms } from './crypto/kms.ts'
import type { CryptoLimits } from './crypto-api/crypto-deps.ts'
import { createCryptoService } from './crypto-api/crypto-service.ts'
import { createKeysService } from './crypto-api/keys-service.ts'
import { createStoreObjectReader } from './crypto-api/object-reader.ts'
import { createObjectsReencryption } from './crypto-api/reencrypt-objects.ts'
import { createTokensReencryption } from './crypto-api/reencrypt-tokens.ts'
import { createReencryptionJob } from './crypto-api/rotation.ts'
import { createIamService } from './iam/iam.ts'
import { createObjectsData } from './objects/data-port.ts'
import type { ObjectsSettings } from './objects/deps.ts'
import { createGarbageCollector, createObjectsCollector } from './objects/gc.ts'
import { createIndexing } from './objects/indexing.ts'
import { createJobs } from './objects/jobs.ts'
import { createObjectsService } from './objects/objects.ts'
import { createSealThread } from './objects/seal-thread.ts'
import { createSubstringIndexer } from './objects/substring-indexer.ts'
import type { Store } from './store.ts'
import { createConfvarsService } from './system/confvars.ts'
import { createSystemService } from './system/system.ts'
import type { Clock } from './time.ts'
import { createTokensCollector, createTransactionIdsCollector } from './tokens/gc.ts'
import { createTokenLookup } from './tokens/lookup.ts'
import { createTokensService } from './tokens/tokens.ts'
import type { TypeLimits } from './types/data-type.ts'
import { createTypeRegistry } from './types/registry.ts'

/** Plain settings core needs, taken from the configuration by app.ts. */
export type CoreSettings = Readonly<{
  adminApiKey: string
  adminMayReadData: boolean
  policyEnforcement: boolean
  iam: Readonly<{
    overrideAdminApiKeyOnRestart: boolean
    apiKeyExpirationSecs: number
    allowJwksUri: boolean
    setIamOnStartOnly: boolean
  }>
  forceAccessReason: boolean
  cacheRefreshIntervalMs: number
  worker: Readonly<{ id: string; priority: number; components: readonly string[] }>
  version: string
  vaultId: string
  configuration: Readonly<Record<string, unknown>>
  license: Readonly<{ key: string; isMasked: boolean }>
  audit: Readonly<{ isEnabled: boolean; includeRemoteAddr: boolean; skipDeleteTokens: boolean }>
  confvarDefaults: Readonly<{ logLevel: string; traceSql: boolean }>
  typeLimits: TypeLimits
  isEncryptionEnabled: boolean
  /** SVC_FEATURES_ANALYSIS. */
  isAnalysisEnabled: boolean
  objects: ObjectsSettings
  lifecycle: Readonly<{
    /** SVC_DB_GC_RETENTION_PERIOD and SVC_DB_GC_BATCH_SIZE. */
    gcRetentionMs: number
    gcBatchSize: number
    /** SVC_SERVICE_ARCHIVE_PRUNE_INTERVAL (0: off) and its timeout. */
    pruneIntervalMs: number
    pruneTimeoutMs: number
    /** SVC_SERVICE_SUBSTRING_INDEX_REFRESH_INTERVAL. */
    substringRefreshMs: number
  }>
  crypto: CryptoLimits
  reencryption: Readonly<{
    batchSize: number
    pauseMs: number
    /** How long after a rotation a node may still write with the previous keys. */
    settleMs: number
    pollMs: number
  }>
}>

export type ServicesDeps = Readonly<{
  store: Store
  clock: Clock
  /** Root of the key hierarchy: wraps the data keys stored in the database. */
  kms: Kms
  /** Wraps export keys (SVC_KMS_EXPORT_*); undefined when export uses the main KMS. */
  exportKms: Kms | undefined
  settings: CoreSettings
  auditSink: AuditSink | 'database' | 'none'
  applyConfvars: (values: ReadonlyMap<string, string>) => void
  /** Background jobs report failures here (the composition root logs them). */
  onJobError: (job: string, error: unknown) => void
  /** The PII detector of the analysis operations; the built-in local one when absent. */
  detector?: Detector
}>

/** The data plane: objects, their indexes, export keys, garbage collection and background jobs. */
function createDataServices(
  deps: ServicesDeps,
  core: Readonly<{
    envelope: ReturnType<typeof createEnvelope>
    iam: ReturnType<typeof createIamService>
    audit: ReturnType<typeof createAuditService>
    types: ReturnType<typeof createTypeRegistry>
    collections: ReturnType<typeof createCollectionsService>
    indexing: ReturnType<typeof createIndexing>
  }>,
) {
  const { store, clock, settings } = deps
  const { indexing } = core
  const collectionOf = (name: string) => core.collections.getCached(name)
  const exportKeys = createExportKeys({
    meta: store.meta,
    kms: deps.exportKms ?? deps.kms,
    clock,
    isMemory: store.isMemory,
  })
  const substring = createSubstringIndexer({
    store,
    envelope: core.envelope,
    indexing,
    collectionOf,
    onMaintenanceError: (error) => deps.onJobError('substring_index', error),
  })
  const sealThread = createSealThread(core.envelope, indexing)
  const objects = createObjectsService({
    ...core,
    store,
    indexing,
    tokens: createTokenLookup(store),
    exportKeys,
    substring,
    sealThread,
    settings: settings.objects,
  })
  const { lifecycle } = settings
  const gc = createGarbageCollector({
    store,
    clock,
    collectors: [
      createObjectsCollector({ store, indexing, collectionOf }),
      createTokensCollector(store),
      createTransactionIdsCollector(store),
    ],
    retentionMs: lifecycle.gcRetentionMs,
    batchSize: lifecycle.gcBatchSize,
  })
  const jobs = createJobs(
    { leases: store.leases, clock, workerId: settings.worker.id, onError: deps.onJobError },
    [
      {
        name: 'substring_index',
        intervalMs: lifecycle.substringRefreshMs,
        leaseMs: 60_000,
        run: substring.run,
      },
      {
        name: 'archive_prune',
        intervalMs: store.isMemory ? 0 : lifecycle.pruneIntervalMs,
        leaseMs: lifecycle.pruneTimeoutMs,
        run: gc.prune,
      },
    ],
  )
  return { objects, exportKeys, gc, jobs, substring, sealThread }
}

export function createServices(deps: ServicesDeps) {
  const { store, clock, settings } = deps
  const cache = createControlCache({
    store,
    clock,
    refreshIntervalMs: settings.cacheRefreshIntervalMs,
    worker: settings.worker,
  })
  const iam = createIamService({
    store,
    clock,
    onChanged: () => cache.changed(),
    adminApiKey: settings.adminApiKey,
    adminMayReadData: settings.adminMayReadData,
    policyEnforcement: settings.policyEnforcement,
    ...settings.iam,
  })
  cache.register('iam', iam.load)
  const audit = createAuditService({
    store,
    sink: deps.auditSink,
    isEnabled: settings.audit.isEnabled,
    includeRemoteAddr: settings.audit.includeRemoteAddr,
    skipOperations: new Set(settings.audit.skipDeleteTokens ? ['delete_tokens'] : []),
  })
  const keyring = createKeyring({ store, kms: deps.kms, clock })
  // Registered first: other loaders may need keys. Reloading picks up keys another node rotated.
  cache.register('keys', keyring.load)
  const envelope = createEnvelope(keyring)
  const confvars = createConfvarsService({
    store,
    clock,
    defaults: settings.confvarDefaults,
    apply: deps.applyConfvars,
  })
  cache.register('confvars', confvars.load)
  const system = createSystemService({
    store,
    version: settings.version,
    vaultId: settings.vaultId,
    configuration: settings.configuration,
    license: settings.license,
    healthTimeoutMs: 2000,
    kms: deps.kms,
    exportKms: deps.exportKms,
  })
  const types = createTypeRegistry({ limits: settings.typeLimits })
  const indexing = createIndexing(envelope)
  const collections = createCollectionsService({
    store,
    types,
    cache,
    audit,
    data: createObjectsData({ envelope, indexing }),
    isEncryptionEnabled: settings.isEncryptionEnabled,
  })
  cache.register('collections', collections.load)
  const data = createDataServices(deps, { envelope, iam, audit, types, collections, indexing })
  // The keyed derivation of deterministic token IDs and hashes; the tokens capability shares it.
  const deterministicIds = createDeterministicIds((use, data) =>
    envelope.mac('deterministic', use, data),
  )
  const crypto = createCryptoService({
    keyring,
    envelope,
    collections,
    types,
    iam,
    // Not the objects service's read: that one enforces `read` policies, while an `object.id`
    // source of encrypt/hash needs only `encrypt`/`hash` (crypto.md §1).
    reader: createStoreObjectReader({ store, envelope }),
    ids: deterministicIds,
    limits: settings.crypto,
  })
  const tokens = createTokensService({
    store,
    iam,
    collections,
    types,
    envelope,
    ids: deterministicIds,
    ciphertexts: crypto.ciphertexts,
    exportKeys: data.exportKeys,
    objects: data.objects,
    audit,
    settings: {
      maxTags: settings.crypto.maxTags,
      defaultExpirySecs: settings.crypto.tokenExpirationSecs,
      page: settings.objects,
    },
  })
  const analysis = createAnalysisService({
    detector: deps.detector ?? createLocalDetector(),
    collections,
    types,
    tokens,
    isEnabled: settings.isAnalysisEnabled,
  })
  // Stored data sealed under rotatable keys.
  const reencryptionSources = [
    createObjectsReencryption({ store, envelope }),
    createTokensReencryption({ store, envelope }),
  ]
  const reencryption = createReencryptionJob({
    store,
    keyring,
    clock,
    sources: reencryptionSources,
    workerId: settings.worker.id,
    leaseMs: 60_000,
    ...settings.reencryption,
  })
  const keys = createKeysService({
    store,
    keyring,
    cache,
    job: reencryption,
    sources: reencryptionSources,
  })
  return {
    clock,
    settings,
    cache,
    keyring,
    envelope,
    iam,
    audit,
    confvars,
    system,
    types,
    collections,
    ...data,
    deterministicIds,
    crypto,
    tokens,
    analysis,
    reencryption,
    keys,
  }
}

export type Services = ReturnType<typeof createServices>
