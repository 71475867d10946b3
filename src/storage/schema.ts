// src/storage/schema.ts: table row types for Kysely (times are microseconds since the epoch)
import type { Generated } from 'kysely'

export type SchemaMigrationsTable = {
  version: number
  name: string
  applied_at: number
}

export type VaultMetaTable = {
  key: string
  value: string
  updated_at: number
}

export type AuditEventsTable = {
  seq: Generated<number>
  event_id: string
  time: number
  request_id: string
  username: string
  operation: string
  collection: string | null
  outcome: string
  status: number
  record: string
}

export type IamConfigTable = {
  id: number
  toml: string
  version: number
  updated_at: number
}

export type ApiKeysTable = {
  username: string
  key_hash: Uint8Array
  expires_at: number | null
  created_at: number
}

export type ConfvarsTable = {
  name: string
  value: string
  updated_at: number
}

export type WorkersTable = {
  worker_id: string
  generation_number: number
  generation_checked_at: number
  refresh_interval_seconds: number
  priority: number
  component: string
  heartbeat_at: number
}

export type DataKeysTable = {
  purpose: string
  version: number
  wrapped: Uint8Array
  created_at: number
}

export type LeasesTable = {
  name: string
  holder: string
  expires_at: number
  state: string
}

export type ObjectsTable = {
  collection: string
  id: string
  tenant_id: string | null
  owner_id: string | null
  owner_collection: string | null
  created_at: number
  modified_at: number
  expires_at: number | null
  version: number
  fields: string
  sealed: string
  digests: string
}

export type IndexEntryTable = {
  collection: string
  property: string
  digest: Uint8Array
  object_id: string
}

export type NgramsTable = {
  collection: string
  property: string
  gram: Uint8Array
  object_id: string
}

export type SubstringQueueTable = {
  collection: string
  id: string
  queued_at: number
  /** How many ids `object_ids` holds. */
  object_count: number
  /** JSON array of object ids. */
  object_ids: string
}

export type CollectionsTable = {
  id: string
  name: string
  name_key: string
  type: string
  created_at: number
  modified_at: number
}

/** Flags are 0/1 integers on both engines, so one row type serves both. */
export type CollectionPropertiesTable = {
  id: string
  collection_id: string
  name: string
  name_key: string
  position: number
  data_type: string
  description: string
  is_encrypted: number
  is_index: number
  is_substring_index: number
  is_nullable: number
  is_unique: number
  created_at: number
  modified_at: number
}

export type BundlesTable = {
  name: string
  name_key: string
  description: string
  source: string
  /** JSON array of the exported function prototypes. */
  exports: string
  created_at: number
  modified_at: number
}

export type ActionsTable = {
  name: string
  name_key: string
  description: string
  bundle: string
  function: string
  role: string
  created_at: number
  modified_at: number
}

export type DataTypesTable = {
  name: string
  name_key: string
  base_type_name: string
  description: string
  validator: string | null
  normalizer: string | null
  /** JSON array of `"<bundle>.<function>"` references. */
  transformers: string
  default_transformer: string | null
  created_at: number
  modified_at: number
}

export type Tables = TokenTables & {
  schema_migrations: SchemaMigrationsTable
  vault_meta: VaultMetaTable
  audit_events: AuditEventsTable
  iam_config: IamConfigTable
  api_keys: ApiKeysTable
  confvars: ConfvarsTable
  workers: WorkersTable
  data_keys: DataKeysTable
  leases: LeasesTable
  objects: ObjectsTable
  object_index: IndexEntryTable
  object_unique: IndexEntryTable
  object_ngrams: NgramsTable
  substring_queue: SubstringQueueTable
  collections: CollectionsTable
  collection_properties: CollectionPropertiesTable
  bundles: BundlesTable
  actions: ActionsTable
  data_types: DataTypesTable
}

export type TokensTable = {
  row_id: string
  collection: string
  token_id: string
  type: string
  scope: string
  props: string
  object_id: string | null
  tenant_id: string | null
  sealed: Uint8Array | null
  fingerprint: Uint8Array | null
  tags: string
  created_at: number
  modified_at: number
  expires_at: number | null
  fptemplate: string | null
  fpprops: string | null
  transaction_id: string | null
}

export type TokenTagsTable = { collection: string; tag: string; row_id: string }
export type TokenIdsTable = { collection: string; token_id: string; type: string }
export type TokenReuseTable = { namespace: string; fingerprint: Uint8Array; token_id: string }
export type TransactionIdsTable = { collection: string; transaction_id: string; created_at: number }

export type TokenTables = {
  tokens: TokensTable
  token_tags: TokenTagsTable
  token_ids: TokenIdsTable
  token_reuse: TokenReuseTable
  transaction_ids: TransactionIdsTable
}
