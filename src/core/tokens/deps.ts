// src/core/tokens/deps.ts: what the tokens service receives from the composition root
import type { PolicyGate } from '../access/checks.ts'
import type { AuditService } from '../audit/audit.ts'
import type { CollectionsService } from '../collections/collections.ts'
import type { DeterministicIds } from '../crypto/deterministic-id.ts'
import type { Envelope } from '../crypto/envelope.ts'
import type { ExportKeys } from '../crypto/export-key.ts'
import type { Ciphertexts } from '../crypto-api/ciphertext.ts'
import type { TypeRegistry } from '../data-types/registry.ts'
import type { ObjectsService } from '../objects/objects.ts'
import type { StoredObjectReader } from '../objects/reader.ts'
import type { PageSettings } from '../paging/pages.ts'
import type { Store } from '../store.ts'
import type { CustomTypeFunctions } from '../values/custom.ts'

export type TokensSettings = Readonly<{
  /** SVC_DB_MAX_TOKEN_TAGS. */
  maxTags: number
  /** SVC_EXPIRATION_TOKENS; undefined: never. */
  defaultExpirySecs: number | undefined
  /** Page sizes of export (the objects' SVC_SERVICE_*_PAGE_SIZE settings). */
  page: PageSettings
}>

export type TokensDeps = Readonly<{
  store: Store
  iam: PolicyGate
  collections: Pick<CollectionsService, 'getCachedOrThrow'>
  types: TypeRegistry
  /** Custom data types' functions: `fields` checks, transformers, custom fptemplates. */
  custom: CustomTypeFunctions
  envelope: Envelope
  ids: DeterministicIds
  ciphertexts: Ciphertexts
  exportKeys: ExportKeys
  objects: Pick<ObjectsService, 'addMany'>
  /** Stored objects named by tokenize items, pointer tokens' owners. */
  reader: StoredObjectReader
  audit: AuditService
  settings: TokensSettings
}>
