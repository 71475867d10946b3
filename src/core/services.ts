// src/core/services.ts: Services type and createServices(deps), the core half of the composition root
import { type AuditSink, createAuditService } from './audit/audit.ts'
import { createControlCache } from './cache.ts'
import { createCollectionsService } from './collections/collections.ts'
import { objectlessData } from './collections/data-port.ts'
import { createDeterministicIds } from './crypto/deterministic-id.ts'
import { createEnvelope } from './crypto/envelope.ts'
import { createKeyring } from './crypto/keyring.ts'
import type { Kms } from './crypto/kms.ts'
import type { CryptoLimits } from './crypto-api/crypto-deps.ts'
import { createCryptoService } from './crypto-api/crypto-service.ts'
import { createKeysService } from './crypto-api/keys-service.ts'
import { createStoreObjectReader } from './crypto-api/object-reader.ts'
import { createObjectsReencryption } from './crypto-api/reencrypt-objects.ts'
import { createReencryptionJob } from './crypto-api/rotation.ts'
import { createIamService } from './iam/iam.ts'
import type { Store } from './store.ts'
import { createConfvarsService } from './system/confvars.ts'
import { createSystemService } from './system/system.ts'
import type { Clock } from './time.ts'
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
}>

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
  // The objects capability replaces `objectlessData` when it adds object storage.
  const collections = createCollectionsService({
    store,
    types,
    cache,
    audit,
    data: objectlessData,
    isEncryptionEnabled: settings.isEncryptionEnabled,
  })
  cache.register('collections', collections.load)
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
    // The objects capability provides this port once it reads objects itself.
    reader: createStoreObjectReader({ store, envelope }),
    ids: deterministicIds,
    limits: settings.crypto,
  })
  // Stored data sealed under rotatable keys; the tokens capability adds its token-data source.
  const reencryptionSources = [createObjectsReencryption({ store, envelope })]
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
    deterministicIds,
    crypto,
    reencryption,
    keys,
  }
}

export type Services = ReturnType<typeof createServices>
