// src/core/iam/operations.ts: every operation of the API and the capability it needs (the one table)
import type { Capability } from './capabilities.ts'

/**
 * `public`: no credential (health). `authenticated`: any valid credential. `admin`: only the
 * built-in Admin. `anyOf`: one of the capabilities suffices. `allOf`: all are needed.
 */
export type Requirement =
  | { readonly kind: 'public' }
  | { readonly kind: 'authenticated' }
  | { readonly kind: 'admin' }
  | {
      readonly kind: 'anyOf'
      readonly capabilities: readonly Capability[]
      /** The caller may also act on itself without the capability (get own user). */
      readonly isSelfAllowed?: boolean
    }
  | { readonly kind: 'allOf'; readonly capabilities: readonly Capability[] }

const anyOf = (...capabilities: Capability[]): Requirement => ({ kind: 'anyOf', capabilities })
const allOf = (...capabilities: Capability[]): Requirement => ({ kind: 'allOf', capabilities })
const PUBLIC: Requirement = { kind: 'public' }
const AUTHENTICATED: Requirement = { kind: 'authenticated' }
const ADMIN: Requirement = { kind: 'admin' }

const COLLECTIONS_READ = anyOf('CapCollectionsReader')
const COLLECTIONS_WRITE = anyOf('CapCollectionsWriter')
const OBJECTS_CREATE = anyOf(
  'CapDataWriter',
  'CapDataCreator',
  'CapObjectsWriter',
  'CapObjectsCreator',
)
const OBJECTS_UPDATE = anyOf(
  'CapDataWriter',
  'CapDataUpdater',
  'CapObjectsWriter',
  'CapObjectsUpdater',
)
const OBJECTS_DELETE = anyOf(
  'CapDataWriter',
  'CapDataDeleter',
  'CapObjectsWriter',
  'CapObjectsDeleter',
)

/** Operation name → requirement. Route handlers name their operation; nothing else decides access. */
export const OPERATIONS = {
  data_health: PUBLIC,
  control_health: PUBLIC,
  data_ready: PUBLIC,
  control_ready: PUBLIC,
  get_version: AUTHENTICATED,
  get_cluster_info: anyOf('CapClusterInfoReader'),
  get_configuration: anyOf('CapInfoReader'),
  get_license: anyOf('CapInfoReader'),
  set_license: ADMIN,
  get_kms_status: anyOf('CapKMSReader'),
  rotate_keys: anyOf('CapKMSWriter'),
  // Progress of re-encryption after a rotation (project-specific; reads like KMS status).
  get_rotation_status: anyOf('CapKMSReader'),
  get_export_key: anyOf('CapExportKeyReader'),
  garbage_collection: anyOf('CapSystemGCRunner'),
  trigger_error: anyOf('CapErrorWriter'),
  clear_confvars: anyOf('CapConfvarWriter'),
  get_confvar: anyOf('CapConfvarReader'),
  set_confvar: anyOf('CapConfvarWriter'),

  list_collections: COLLECTIONS_READ,
  add_collection: COLLECTIONS_WRITE,
  get_collection: COLLECTIONS_READ,
  update_collection: COLLECTIONS_WRITE,
  delete_collection: COLLECTIONS_WRITE,
  list_properties: COLLECTIONS_READ,
  add_property: COLLECTIONS_WRITE,
  get_property: COLLECTIONS_READ,
  update_property: COLLECTIONS_WRITE,
  delete_property: COLLECTIONS_WRITE,

  add_object: OBJECTS_CREATE,
  add_objects: OBJECTS_CREATE,
  get_object: anyOf('CapDataReader', 'CapObjectsReader', 'CapObjectsLister'),
  list_objects: anyOf('CapDataReader', 'CapObjectsLister'),
  search_objects: anyOf('CapDataSearcher'),
  update_object: OBJECTS_UPDATE,
  update_objects: OBJECTS_UPDATE,
  delete_object: OBJECTS_DELETE,
  delete_objects: OBJECTS_DELETE,
  count_objects: anyOf('CapDataReader'),

  tokenize: anyOf('CapTokensWriter'),
  detokenize: anyOf('CapTokensDetokenizer'),
  search_tokens: anyOf('CapTokensReader'),
  update_tokens: anyOf('CapTokensWriter'),
  delete_tokens: anyOf('CapTokensWriter'),
  rotate_tokens: anyOf('CapTokensWriter'),
  get_transaction_id: anyOf('CapTransactionIdReader', 'CapDataReader'),
  count_tokens: anyOf('CapTokensReader', 'CapDataReader'),
  export_tokens: anyOf('CapTokensExporter'),
  import_tokens: anyOf('CapTokensImporter'),

  encrypt: anyOf('CapCryptoEncrypter'),
  update_encrypted: allOf('CapCryptoEncrypter', 'CapCryptoDecrypter'),
  decrypt: anyOf('CapCryptoDecrypter'),
  encrypt_blob: anyOf('CapCryptoEncrypter'),
  decrypt_blob: anyOf('CapCryptoDecrypter'),
  hash_objects: anyOf('CapCryptoHasher'),

  list_types: anyOf('CapTypesReader'),
  add_type: anyOf('CapTypesWriter'),
  get_type: anyOf('CapTypesReader'),
  update_type: anyOf('CapTypesWriter'),
  delete_type: anyOf('CapTypesWriter'),

  list_bundles: anyOf('CapCodeReader'),
  add_bundle: anyOf('CapCodeWriter'),
  get_bundle: anyOf('CapCodeReader'),
  update_bundle: anyOf('CapCodeWriter'),
  delete_bundle: anyOf('CapCodeWriter'),

  list_actions: anyOf('CapActionReader'),
  add_action: anyOf('CapActionWriter'),
  get_action: anyOf('CapActionReader'),
  delete_action: anyOf('CapActionWriter'),
  invoke_action: anyOf('CapActionInvoker'),
  invoke_http_call: anyOf('CapActionInvoker'),

  get_iam_conf: anyOf('CapIAMReader'),
  set_iam_conf: anyOf('CapIAMWriter'),
  regenerate_user_api_key: anyOf('CapIAMWriter'),
  update_user_api_key_expiration: anyOf('CapIAMWriter'),
  // Any caller may read their own user without the capability (spec endpoints.md §8.5).
  get_user: { kind: 'anyOf', capabilities: ['CapIAMReader'], isSelfAllowed: true },
  set_admin_api_key: ADMIN,

  analysis_contains: anyOf('CapAnalysisDetect'),
  analysis_locate: anyOf('CapAnalysisLocate'),
  analysis_protect: allOf('CapAnalysisLocate', 'CapTokensWriter'),
  analysis_reveal: anyOf('CapTokensDetokenizer'),
} as const satisfies Record<string, Requirement>

export type Operation = keyof typeof OPERATIONS

/**
 * Data-plane operations: they take an access reason and use the metadata cache. Garbage
 * collection takes a reason too (README "Shared query parameters").
 */
export const DATA_OPERATIONS: ReadonlySet<Operation> = new Set<Operation>([
  'garbage_collection',
  'add_object',
  'add_objects',
  'get_object',
  'list_objects',
  'search_objects',
  'update_object',
  'update_objects',
  'delete_object',
  'delete_objects',
  'count_objects',
  'tokenize',
  'detokenize',
  'search_tokens',
  'update_tokens',
  'delete_tokens',
  'rotate_tokens',
  'get_transaction_id',
  'count_tokens',
  'export_tokens',
  'import_tokens',
  'encrypt',
  'update_encrypted',
  'decrypt',
  'encrypt_blob',
  'decrypt_blob',
  'hash_objects',
  'invoke_action',
  'invoke_http_call',
  'analysis_contains',
  'analysis_locate',
  'analysis_protect',
  'analysis_reveal',
])

/**
 * Operations that change stored data: their service writes the success record in the
 * transaction of the change (`audit.transaction`), or itself when nothing was written (bulk items
 * all refused); the HTTP layer records only the others (reads) and failures. A call that makes
 * no change through another operation's service (analysis_protect with nothing to tokenize, GC,
 * which collects in transactions of its own) is recorded by the HTTP layer.
 */
export const WRITE_OPERATIONS: ReadonlySet<Operation> = new Set<Operation>([
  'set_license',
  'rotate_keys',
  'clear_confvars',
  'set_confvar',
  'add_collection',
  'update_collection',
  'delete_collection',
  'add_property',
  'update_property',
  'delete_property',
  'add_object',
  'add_objects',
  'update_object',
  'update_objects',
  'delete_object',
  'delete_objects',
  'tokenize',
  'update_tokens',
  'delete_tokens',
  'rotate_tokens',
  'import_tokens',
  'add_bundle',
  'update_bundle',
  'delete_bundle',
  'add_action',
  'delete_action',
  'set_iam_conf',
  'regenerate_user_api_key',
  'update_user_api_key_expiration',
  'set_admin_api_key',
])

/** Whether a role holding `granted` passes `requirement` (Admin's CapSystem passes everything). */
export function meetsRequirement(
  requirement: Requirement,
  granted: ReadonlySet<Capability>,
  isAdmin: boolean,
): boolean {
  if (isAdmin || granted.has('CapSystem')) return true
  switch (requirement.kind) {
    case 'public':
    case 'authenticated':
      return true
    case 'admin':
      return false
    case 'anyOf':
      return requirement.capabilities.some((cap) => granted.has(cap))
    case 'allOf':
      return requirement.capabilities.every((cap) => granted.has(cap))
  }
}
