// src/core/services.ts: Services type and createServices(deps), the core half of the composition root
import type { Outbound } from './actions/outbound.ts'
import { type AnalysisDeps, createAnalysisService } from './analysis/analysis.ts'
import type { Detector } from './analysis/detector.ts'
import { createLocalDetector } from './analysis/local-detector.ts'
import { type AuditDeps, type AuditSinkEntry, createAuditService } from './audit/audit.ts'
import type { SinkFailure } from './audit/writer.ts'
import { createBundleRegistry } from './bundles/registry.ts'
import type { Sandbox } from './bundles/sandbox.ts'
import { createTypeFunctions } from './bundles/type-functions.ts'
import { type CacheDeps, createControlCache } from './cache.ts'
import { type CodeSettings, createCodeServices } from './code-services.ts'
import { type CollectionsDeps, createCollectionsService } from './collections/collections.ts'
import { createDeterministicIds } from './crypto/deterministic-id.ts'
import { createEnvelope } from './crypto/envelope.ts'
import { createExportKeys } from './crypto/export-key.ts'
import { createKeyring } from './crypto/keyring.ts'
import type { Kms } from './crypto/kms.ts'
import { createCryptoService } from './crypto-api/crypto-api.ts'
import type { CryptoLimits } from './crypto-api/deps.ts'
import type { TypeLimits } from './data-types/data-type.ts'
import { createDataTypesService, dataTypesReferrer } from './data-types/data-types.ts'
import { createTypeRegistry } from './data-types/registry.ts'
import { createIamService, type IamDeps } from './iam/iam.ts'
import { createKeysService } from './keys/keys.ts'
import { createReencryptionJob, type ReencryptionDeps } from './keys/rotation.ts'
import { createObjectsCollector } from './objects/collector.ts'
import { createObjectsData } from './objects/data-port.ts'
import type { ObjectsSettings } from './objects/deps.ts'
import { createIndexing } from './objects/indexing.ts'
import { createObjectsService } from './objects/objects.ts'
import { createStoreObjectReader } from './objects/reader.ts'
import { createObjectsReencryption } from './objects/reencryption.ts'
import { createSealThread } from './objects/seal-thread.ts'
import { createSubstringIndexer } from './objects/substring-indexer.ts'
import type { Store } from './store.ts'
import { type ConfvarsDeps, createConfvarsService } from './system/confvars.ts'
import { createGarbageCollector, type GarbageCollectorDeps } from './system/gc.ts'
import { createJobs } from './system/jobs.ts'
import { createSystemService, type SystemDeps } from './system/system.ts'
import type { Clock } from './time.ts'
import type { TokensSettings } from './tokens/deps.ts'
import { createTokensCollector, createTransactionIdsCollector } from './tokens/gc.ts'
import { createTokenLookup } from './tokens/lookup.ts'
import { createTokensReencryption } from './tokens/reencryption.ts'
import { createTokensService } from './tokens/tokens.ts'

/**
 * Plain settings core needs, one group per capability, each typed by what that capability's
 * service receives; app-settings.ts fills them from the configuration (the only mapping).
 */
export type CoreSettings = Readonly<{
  iam: Pick<
    IamDeps,
    | 'adminApiKey'
    | 'overrideAdminApiKeyOnRestart'
    | 'adminMayReadData'
    | 'policyEnforcement'
    | 'apiKeyExpirationSecs'
    | 'allowJwksUri'
    | 'setIamOnStartOnly'
  >
  /** SVC_SERVICE_FORCE_ACCESS_REASON, read by the HTTP layer's reason check. */
  forceAccessReason: boolean
  cache: Pick<CacheDeps, 'refreshIntervalMs' | 'worker'>
  system: Pick<SystemDeps, 'version' | 'vaultId' | 'configuration' | 'license'>
  audit: Pick<
    AuditDeps,
    'isEnabled' | 'includeRemoteAddr' | 'skipOperations' | 'require' | 'timeoutMs'
  >
  confvarDefaults: ConfvarsDeps['defaults']
  typeLimits: TypeLimits
  collections: Pick<CollectionsDeps, 'isEncryptionEnabled'>
  analysis: Pick<AnalysisDeps, 'isEnabled'>
  objects: ObjectsSettings
  tokens: TokensSettings
  crypto: CryptoLimits
  gc: Pick<GarbageCollectorDeps, 'retentionMs' | 'batchSize'>
  jobs: Readonly<{
    /** SVC_SERVICE_ARCHIVE_PRUNE_INTERVAL (0: off) and SVC_SERVICE_ARCHIVE_PRUNE_TIMEOUT. */
    pruneIntervalMs: number
    pruneTimeoutMs: number
    /** SVC_SERVICE_SUBSTRING_INDEX_REFRESH_INTERVAL. */
    substringRefreshMs: number
  }>
  code: CodeSettings
  reencryption: Pick<ReencryptionDeps, 'batchSize' | 'pauseMs' | 'settleMs' | 'pollMs'>
}>

export type ServicesDeps = Readonly<{
  store: Store
  clock: Clock
  /** Root of the key hierarchy: wraps the data keys stored in the database. */
  kms: Kms
  /** Wraps export keys (SVC_KMS_EXPORT_*); undefined when export uses the main KMS. */
  exportKms: Kms | undefined
  settings: CoreSettings
  /** The configured audit sinks, in order (none: no record is kept). */
  auditSinks: readonly AuditSinkEntry[]
  /** An audit sink failed or timed out (the composition root logs and counts it). */
  onAuditFailure: (failure: SinkFailure) => void
  applyConfvars: (values: ReadonlyMap<string, string>) => void
  /** Background jobs report failures here (the composition root logs them). */
  onJobError: (job: string, error: unknown) => void
  /** Runs bundle code (src/sandbox). */
  sandbox: Sandbox
  /** Sends http_call requests to allow-listed destinations (src/sandbox/outbound.ts). */
  outbound: Outbound
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
    custom: ReturnType<typeof createTypeFunctions>
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
  const gc = createGarbageCollector({
    store,
    clock,
    collectors: [
      createObjectsCollector({ store, indexing, collectionOf }),
      createTokensCollector(store),
      createTransactionIdsCollector(store),
    ],
    ...settings.gc,
  })
  const jobs = createJobs(
    { leases: store.leases, clock, workerId: settings.cache.worker.id, onError: deps.onJobError },
    [
      {
        name: 'substring_index',
        intervalMs: settings.jobs.substringRefreshMs,
        leaseMs: 60_000,
        run: substring.run,
      },
      {
        name: 'archive_prune',
        intervalMs: store.isMemory ? 0 : settings.jobs.pruneIntervalMs,
        leaseMs: settings.jobs.pruneTimeoutMs,
        run: gc.prune,
      },
    ],
  )
  return { objects, exportKeys, gc, jobs, substring, sealThread }
}

export function createServices(deps: ServicesDeps) {
  const { store, clock, settings } = deps
  const cache = createControlCache({ store, clock, ...settings.cache })
  const audit = createAuditService({
    store,
    clock,
    sinks: deps.auditSinks,
    node: settings.cache.worker.id,
    version: settings.system.version,
    onFailure: deps.onAuditFailure,
    ...settings.audit,
  })
  const iam = createIamService({
    store,
    audit,
    clock,
    onChanged: () => cache.changed(),
    ...settings.iam,
  })
  cache.register('iam', iam.load)
  const keyring = createKeyring({ store, kms: deps.kms, clock })
  // Registered first: other loaders may need keys. Reloading picks up keys another node rotated.
  cache.register('keys', keyring.load)
  const envelope = createEnvelope(keyring)
  const confvars = createConfvarsService({
    store,
    audit,
    clock,
    defaults: settings.confvarDefaults,
    apply: deps.applyConfvars,
  })
  cache.register('confvars', confvars.load)
  const system = createSystemService({
    store,
    audit,
    ...settings.system,
    healthTimeoutMs: 2000,
    auditReadiness: audit.sinkReadiness,
    kms: deps.kms,
    exportKms: deps.exportKms,
  })
  const types = createTypeRegistry({ limits: settings.typeLimits })
  const dataTypes = createDataTypesService({
    store,
    cache,
    audit,
    types,
    isJavascriptDisabled: settings.code.isJavascriptDisabled,
  })
  // Before collections: their properties may name custom types.
  cache.register('data_types', dataTypes.load)
  const indexing = createIndexing(envelope)
  const collections = createCollectionsService({
    store,
    types,
    cache,
    audit,
    data: createObjectsData({ envelope, indexing }),
    ...settings.collections,
  })
  cache.register('collections', collections.load)
  const bundleRegistry = createBundleRegistry()
  const custom = createTypeFunctions({
    registry: bundleRegistry,
    sandbox: deps.sandbox,
    types,
    isJavascriptDisabled: settings.code.isJavascriptDisabled,
  })
  const data = createDataServices(deps, {
    envelope,
    iam,
    audit,
    types,
    custom,
    collections,
    indexing,
  })
  // The keyed derivation of deterministic token IDs and hashes; the tokens capability shares it.
  const deterministicIds = createDeterministicIds((use, data) =>
    envelope.mac('deterministic', use, data),
  )
  // Not the objects service's read: that one enforces `read` policies, while an `object.id`
  // source of encrypt, hash or tokenize needs only its own operation's (crypto.md §1).
  const objectReader = createStoreObjectReader({ store, envelope })
  const crypto = createCryptoService({
    keyring,
    envelope,
    collections,
    types,
    custom,
    iam,
    reader: objectReader,
    ids: deterministicIds,
    limits: settings.crypto,
  })
  const tokens = createTokensService({
    store,
    iam,
    collections,
    types,
    custom,
    envelope,
    ids: deterministicIds,
    ciphertexts: crypto.ciphertexts,
    exportKeys: data.exportKeys,
    objects: data.objects,
    reader: objectReader,
    audit,
    settings: settings.tokens,
  })
  const code = createCodeServices({
    ...deps,
    cache,
    audit,
    iam,
    collections,
    types,
    objects: data.objects,
    tokens,
    crypto,
    settings: settings.code,
    referrers: [dataTypesReferrer],
    registry: bundleRegistry,
  })
  const analysis = createAnalysisService({
    detector: deps.detector ?? createLocalDetector(),
    collections,
    types,
    tokens,
    ...settings.analysis,
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
    workerId: settings.cache.worker.id,
    leaseMs: 60_000,
    ...settings.reencryption,
  })
  const keys = createKeysService({
    store,
    audit,
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
    dataTypes,
    collections,
    ...data,
    deterministicIds,
    crypto,
    tokens,
    ...code,
    analysis,
    reencryption,
    keys,
  }
}

export type Services = ReturnType<typeof createServices>
