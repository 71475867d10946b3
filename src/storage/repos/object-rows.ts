// src/storage/repos/object-rows.ts: the objects table's row: its columns, and the mapping to and from ObjectRecord
import type { Selectable } from 'kysely'
import type { ObjectRecord } from '../../core/objects/store.ts'
import type { RowsShape } from '../dialects/dialect.ts'
import type { ObjectsTable } from '../schema.ts'

export type Row = Selectable<ObjectsTable>

/**
 * Every column, listed: a prepared `SELECT *` fails on PostgreSQL once a migration adds a column.
 * The type of `search`'s rows (`toRecord`) fails to check if one is missing here.
 */
export const OBJECT_COLUMNS = [
  'objects.collection',
  'objects.id',
  'objects.tenant_id',
  'objects.owner_id',
  'objects.owner_collection',
  'objects.created_at',
  'objects.modified_at',
  'objects.expires_at',
  'objects.version',
  'objects.fields',
  'objects.sealed',
  'objects.digests',
] as const

export const nullable = <T>(value: T | undefined): T | null => (value === undefined ? null : value)
const optional = <T>(value: T | null): T | undefined => (value === null ? undefined : value)

export function toRecord(row: Row): ObjectRecord {
  return {
    collection: row.collection,
    id: row.id,
    tenantId: optional(row.tenant_id),
    ownerId: optional(row.owner_id),
    ownerCollection: optional(row.owner_collection),
    createdAt: row.created_at,
    modifiedAt: row.modified_at,
    expiresAt: optional(row.expires_at),
    version: row.version,
    fields: row.fields,
    sealed: row.sealed,
    digests: row.digests,
  }
}

export function toRow(record: ObjectRecord): Row {
  return {
    collection: record.collection,
    id: record.id,
    tenant_id: nullable(record.tenantId),
    owner_id: nullable(record.ownerId),
    owner_collection: nullable(record.ownerCollection),
    created_at: record.createdAt,
    modified_at: record.modifiedAt,
    expires_at: nullable(record.expiresAt),
    version: record.version,
    fields: record.fields,
    sealed: record.sealed,
    digests: record.digests,
  }
}

/** The objects table's columns, in the order `objectValues` gives them. */
export const OBJECT_ROWS: RowsShape = {
  table: 'objects',
  columns: [
    ['collection', 'text'],
    ['id', 'text'],
    ['tenant_id', 'text'],
    ['owner_id', 'text'],
    ['owner_collection', 'text'],
    ['created_at', 'bigint'],
    ['modified_at', 'bigint'],
    ['expires_at', 'bigint'],
    ['version', 'integer'],
    ['fields', 'text'],
    ['sealed', 'text'],
    ['digests', 'text'],
  ],
  tail: 'ON CONFLICT (collection, id) DO NOTHING RETURNING id',
}
export const NEW_OBJECT_ROWS: RowsShape = { ...OBJECT_ROWS, tail: '' }

export function objectValues(record: ObjectRecord): unknown[] {
  return [
    record.collection,
    record.id,
    nullable(record.tenantId),
    nullable(record.ownerId),
    nullable(record.ownerCollection),
    record.createdAt,
    record.modifiedAt,
    nullable(record.expiresAt),
    record.version,
    record.fields,
    record.sealed,
    record.digests,
  ]
}
