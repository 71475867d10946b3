// src/core/objects/deps.ts: what the objects service receives from the composition root
import type { AuditService } from '../audit/audit.ts'
import type { CollectionsService } from '../collections/collections.ts'
import type { Envelope } from '../crypto/envelope.ts'
import type { ExportKeys } from '../crypto/export-key.ts'
import type { Store } from '../store.ts'
import type { TypeRegistry } from '../types/registry.ts'
import type { PolicyGate } from './access.ts'
import type { Indexing } from './indexing.ts'
import type { ExpirationDefaults } from './lifecycle.ts'
import type { PageSettings } from './paging.ts'
import type { SealThread } from './seal-thread.ts'
import type { SubstringIndexer } from './substring-indexer.ts'
import type { TokenLookup } from './token-lookup.ts'

export type ObjectsSettings = PageSettings &
  Readonly<{
    expiration: ExpirationDefaults
    /** How many queued objects a `like` search indexes inline before answering 503 ERR3274. */
    substringDrainLimit: number
  }>

export type ObjectsDeps = Readonly<{
  store: Store
  iam: PolicyGate
  collections: Pick<CollectionsService, 'getCachedOrThrow' | 'getCached'>
  types: TypeRegistry
  envelope: Envelope
  indexing: Indexing
  audit: AuditService
  tokens: TokenLookup
  exportKeys: ExportKeys
  substring: SubstringIndexer
  sealThread: SealThread
  settings: ObjectsSettings
}>
