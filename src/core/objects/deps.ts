// src/core/objects/deps.ts: what the objects service receives from the composition root
import type { PolicyGate } from '../access/checks.ts'
import type { AuditService } from '../audit/audit.ts'
import type { CollectionsService } from '../collections/collections.ts'
import type { RequestContext } from '../context.ts'
import type { Envelope } from '../crypto/envelope.ts'
import type { ExportKeys } from '../crypto/export-key.ts'
import type { TypeRegistry } from '../data-types/registry.ts'
import type { PageSettings } from '../paging/pages.ts'
import type { Store } from '../store.ts'
import type { CustomTypeFunctions } from '../values/custom.ts'
import type { Indexing } from './indexing.ts'
import type { ExpirationDefaults } from './lifecycle.ts'
import type { SealThread } from './seal-thread.ts'
import type { SubstringIndexer } from './substring-indexer.ts'

/**
 * The `token` transformer (data-model §7.4) answers the ID of an existing `pci` token of the
 * property for the object in the default scope, or null; it never creates one.
 */
export type TokenLookup = {
  pciTokenFor(
    ctx: RequestContext,
    collection: string,
    objectId: string,
    property: string,
  ): Promise<string | null>
}

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
  /** Custom data types' validators, normalizers and transformers (the sandbox). */
  custom: CustomTypeFunctions
  envelope: Envelope
  indexing: Indexing
  audit: AuditService
  tokens: TokenLookup
  exportKeys: ExportKeys
  substring: SubstringIndexer
  sealThread: SealThread
  settings: ObjectsSettings
}>
