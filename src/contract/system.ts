// src/contract/system.ts: wire shapes of the system operations (version, cluster, confvars, license)
import type { Static } from 'typebox'
import { DataQuery, QueryBoolean } from './common.ts'
import { Type } from './schema.ts'

/** @example { "vault_id": "…", "vault_version": "0.1.0", "db_schema_version": 1 } */
export const Version = Type.Object({
  vault_id: Type.String(),
  vault_version: Type.String(),
  db_schema_version: Type.Integer(),
})
export type Version = Static<typeof Version>

export const ClusterInfo = Type.Object({
  vault: Type.Object({ generation_number: Type.Integer(), modified_at: Type.String() }),
  workers: Type.Array(
    Type.Object({
      worker_id: Type.String(),
      generation_number: Type.Integer(),
      generation_checked_at: Type.String(),
      refresh_interval_seconds: Type.Integer(),
      priority: Type.Integer(),
      component: Type.String(),
    }),
  ),
})
export type ClusterInfo = Static<typeof ClusterInfo>

/** @example { "name": "log_level", "value": "debug", "default_value": "info" } */
export const Confvar = Type.Object({
  name: Type.String(),
  value: Type.String(),
  default_value: Type.String(),
})
export type Confvar = Static<typeof Confvar>

export const ConfvarParams = Type.Object({ name: Type.String() })
export const SetConfvarBody = Type.Object({ value: Type.String() })

export const License = Type.Object({ key: Type.String(), expiration: Type.String() })
export const SetLicenseBody = Type.Object({ key: Type.String() })

/** @example { "status": 500 } */
export const TriggerErrorBody = Type.Object({
  status: Type.Integer({ minimum: 400, maximum: 599 }),
})

const KmsStatus = Type.Object({
  status: Type.Union([Type.Literal('pass'), Type.Literal('fail')]),
  type: Type.Union([
    Type.Literal('LOCAL'),
    Type.Literal('AWS'),
    Type.Literal('GCP'),
    Type.Literal('AZURE'),
  ]),
})

/** @example { "kms": { "status": "pass", "type": "LOCAL" } } */
export const KmsStatusResponse = Type.Object({
  kms: KmsStatus,
  kms_export: Type.Optional(KmsStatus),
})

/**
 * The export data key, wrapped by the export KMS (crypto.md §6.3).
 * @example { "export_key": "AQAAAAE…" }
 */
export const ExportKeyResponse = Type.Object({ export_key: Type.String() })
export type ExportKeyResponse = Static<typeof ExportKeyResponse>

/** What garbage collection removes; absent: everything. */
export const GcFilter = Type.Union([
  Type.Literal('objects_only'),
  Type.Literal('tokens_only'),
  Type.Literal('transaction_ids_only'),
])
export type GcFilter = Static<typeof GcFilter>

/** @example ?reason=Maintenance&filter=objects_only&dry_run=true */
export const GcQuery = Type.Object({
  ...DataQuery.properties,
  filter: Type.Optional(GcFilter),
  dry_run: Type.Optional(QueryBoolean),
})
export type GcQuery = Static<typeof GcQuery>

/** @example { "collection_name": "customers", "collection_type": "PERSONS", "count": 12 } */
export const DeletionCount = Type.Object({
  collection_name: Type.String(),
  collection_type: Type.Union([
    Type.Literal('DATA'),
    Type.Literal('PERSONS'),
    Type.Literal('TOKENS'),
    Type.Literal('TRANSACTION_IDS'),
  ]),
  count: Type.Integer(),
})
export type DeletionCount = Static<typeof DeletionCount>
