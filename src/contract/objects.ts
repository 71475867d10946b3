// src/contract/objects.ts: wire shapes of objects (endpoints §3, data-model §5–6)
import type { Static } from 'typebox'
import { DataQuery, QueryBoolean, QueryList } from './common.ts'
import { ErrorBody } from './errors.ts'
import { Type } from './schema.ts'

/**
 * An object on the wire: property name → value, validated later against the collection.
 * @example { "id": "0b4e7c2a-5d7e-4d0c-9d1c-6f1b2d3c4e5f", "email": "john@example.com", "ssn.mask": "***-**-4357" }
 */
export const ObjectFields = Type.Record(Type.String(), Type.Unknown())
export type ObjectFields = Static<typeof ObjectFields>

/** @example { "id": "0b4e7c2a-5d7e-4d0c-9d1c-6f1b2d3c4e5f" } */
export const ObjectId = Type.Object({ id: Type.String() })
export type ObjectId = Static<typeof ObjectId>

export const CollectionObjectsParams = Type.Object({ collection: Type.String() })
export const ObjectParams = Type.Object({ collection: Type.String(), id: Type.String() })

/** `options` of reads: `unsafe`, `show_builtins` (only with `unsafe`), `archived`. */
export const ReadOption = Type.Union([
  Type.Literal('unsafe'),
  Type.Literal('show_builtins'),
  Type.Literal('archived'),
])

/** `options` of updates and deletes: only `archived`. */
export const ArchivedOption = Type.Array(Type.Literal('archived'))

/** A page size or other count in a query string. */
const QueryCount = Type.String({ pattern: '^\\s*\\d{1,9}\\s*$' })

/**
 * Get object: exactly one of `props` or `options=unsafe`.
 * @example ?reason=AppFunctionality&props=email,ssn.mask
 */
export const GetObjectQuery = Type.Object({
  ...DataQuery.properties,
  options: Type.Optional(Type.Array(ReadOption)),
  props: Type.Optional(QueryList),
})
export type GetObjectQuery = Static<typeof GetObjectQuery>

/**
 * Search objects: reading options plus paging.
 * @example ?reason=AppFunctionality&options=unsafe&page_size=50
 */
export const SearchObjectsQuery = Type.Object({
  ...GetObjectQuery.properties,
  page_size: Type.Optional(QueryCount),
  cursor: Type.Optional(Type.String()),
})
export type SearchObjectsQuery = Static<typeof SearchObjectsQuery>

/**
 * List objects: search options plus `ids` (no paging) and `export`.
 * @example ?reason=AppFunctionality&options=unsafe&ids=0b4e7c2a-5d7e-4d0c-9d1c-6f1b2d3c4e5f
 */
export const ListObjectsQuery = Type.Object({
  ...SearchObjectsQuery.properties,
  ids: Type.Optional(QueryList),
  export: Type.Optional(QueryBoolean),
})
export type ListObjectsQuery = Static<typeof ListObjectsQuery>

/**
 * Add objects: expiry and import.
 * @example ?reason=AppFunctionality&expiration_secs=3600
 */
export const AddObjectQuery = Type.Object({
  ...DataQuery.properties,
  expiration_secs: Type.Optional(Type.String()),
  import: Type.Optional(QueryBoolean),
  export_key: Type.Optional(Type.String()),
})
export type AddObjectQuery = Static<typeof AddObjectQuery>

/** Update objects: as add, plus `options=archived`. @example ?reason=AppFunctionality&expiration_secs=0 */
export const UpdateObjectQuery = Type.Object({
  ...AddObjectQuery.properties,
  options: Type.Optional(ArchivedOption),
})
export type UpdateObjectQuery = Static<typeof UpdateObjectQuery>

/** Delete objects: `options=archived` removes archived objects for good. @example ?reason=AppFunctionality */
export const DeleteObjectQuery = Type.Object({
  ...DataQuery.properties,
  options: Type.Optional(ArchivedOption),
})
export type DeleteObjectQuery = Static<typeof DeleteObjectQuery>

/**
 * A search query; all members are ANDed, an empty query matches every object (data-model §5.2).
 * @example { "match": { "email": "john@example.com" }, "in": { "ssn": ["123-45-6789"] }, "like": { "name": "*john*" } }
 */
export const ObjectsQueryBody = Type.Object({
  match: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  in: Type.Optional(Type.Record(Type.String(), Type.Array(Type.Unknown()))),
  like: Type.Optional(Type.Record(Type.String(), Type.String())),
})
export type ObjectsQueryBody = Static<typeof ObjectsQueryBody>

/** @example { "size": 2, "remaining_count": 0, "cursor": "" } */
export const Paging = Type.Object({
  size: Type.Integer(),
  remaining_count: Type.Integer(),
  cursor: Type.String(),
})
export type Paging = Static<typeof Paging>

/** @example { "results": [{ "id": "…", "email": "john@example.com" }], "paging": { "size": 1, "remaining_count": 0, "cursor": "" } } */
export const ObjectFieldsPage = Type.Object({ results: Type.Array(ObjectFields), paging: Paging })
export type ObjectFieldsPage = Static<typeof ObjectFieldsPage>

/** One item of a bulk answer, in request order. @example { "ok": true, "id": "…" } */
export const BulkObjectResult = Type.Object({
  ok: Type.Boolean(),
  id: Type.Optional(Type.String()),
  error: Type.Optional(ErrorBody),
})
export type BulkObjectResult = Static<typeof BulkObjectResult>

/**
 * A bulk answer: `ok` is false when any item failed, and then nothing was written.
 * @example { "ok": false, "results": [{ "ok": true, "id": "…" }, { "ok": false, "error": { "error_code": "ERR3002", "message": "…", "context": { "property": "ssn" } } }] }
 */
export const BulkObjectResponse = Type.Object({
  ok: Type.Boolean(),
  results: Type.Array(BulkObjectResult),
})
export type BulkObjectResponse = Static<typeof BulkObjectResponse>

/** Bulk update body: each item names its object with `id`. */
export const BulkObjectsBody = Type.Array(ObjectFields)
/** Bulk delete body. @example [{ "id": "…" }] */
export const BulkDeleteBody = Type.Array(Type.Object({ id: Type.String() }))

/** @example { "active": 10, "archived": 2, "total": 12 } */
export const ObjectsCount = Type.Object({
  active: Type.Integer(),
  archived: Type.Integer(),
  total: Type.Integer(),
})
export type ObjectsCount = Static<typeof ObjectsCount>
