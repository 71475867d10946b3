// src/contract/collections.ts: wire shapes of collections and properties (endpoints §1–2, data-model §1–3)
import type { Static } from 'typebox'
import { Type } from './schema.ts'

/**
 * A property as the service returns it: every attribute filled in.
 * @example { "name": "ssn", "data_type_name": "SSN", "description": "", "is_encrypted": true, "is_index": false, "is_substring_index": false, "is_nullable": false, "is_unique": true, "is_builtin": false, "is_readonly": false, "creation_time": "2024-11-08T15:04:05.123456000Z", "modification_time": "2024-11-08T15:04:05.123456000Z" }
 */
export const Property = Type.Object({
  name: Type.String(),
  data_type_name: Type.String(),
  description: Type.String(),
  is_encrypted: Type.Boolean(),
  is_index: Type.Boolean(),
  is_substring_index: Type.Boolean(),
  is_nullable: Type.Boolean(),
  is_unique: Type.Boolean(),
  is_builtin: Type.Boolean(),
  is_readonly: Type.Boolean(),
  creation_time: Type.String(),
  modification_time: Type.String(),
})
export type Property = Static<typeof Property>

/**
 * A collection as the service returns it; built-in properties only with `options=show_builtins`.
 * @example { "name": "customers", "type": "PERSONS", "properties": [ … ], "creation_time": "…", "modification_time": "…" }
 */
export const Collection = Type.Object({
  name: Type.String(),
  type: Type.Union([Type.Literal('PERSONS'), Type.Literal('DATA')]),
  properties: Type.Array(Property),
  creation_time: Type.String(),
  modification_time: Type.String(),
})
export type Collection = Static<typeof Collection>

/**
 * Get, add or update collection: the collection as JSON, or as PVSchema text when asked for.
 * @example "customers PERSONS (\n  email EMAIL,\n);"
 */
export const CollectionResponse = Type.Union([Collection, Type.String()])

/**
 * List collections: JSON, or every collection's PVSchema text joined with a newline.
 * @example [{ "name": "customers", "type": "PERSONS", "properties": [], "creation_time": "…", "modification_time": "…" }]
 */
export const CollectionsResponse = Type.Union([Type.Array(Collection), Type.String()])

/**
 * A property in a request. Optional attributes are read leniently (seed 2.2: a value of the wrong
 * type is ignored); output-only members are ignored.
 * @example { "name": "email", "data_type_name": "EMAIL", "is_nullable": true }
 */
export const PropertyBody = Type.Object({
  name: Type.String(),
  data_type_name: Type.String(),
  description: Type.Optional(Type.Unknown()),
  is_encrypted: Type.Optional(Type.Unknown()),
  is_index: Type.Optional(Type.Unknown()),
  is_substring_index: Type.Optional(Type.Unknown()),
  is_nullable: Type.Optional(Type.Unknown()),
  is_unique: Type.Optional(Type.Unknown()),
})
export type PropertyBody = Static<typeof PropertyBody>

/**
 * A collection in a JSON request (add or update). PVSchema text is accepted instead, as an
 * `application/pvschema` (or `application/xschema`) body or as a JSON string.
 * @example { "name": "customers", "type": "PERSONS", "properties": [{ "name": "email", "data_type_name": "EMAIL" }] }
 */
export const CollectionBody = Type.Object({
  name: Type.String(),
  type: Type.String(),
  properties: Type.Optional(Type.Array(PropertyBody)),
})
export type CollectionBody = Static<typeof CollectionBody>

/**
 * Update property (UpdatePropertyRequest). An absent `description` sets it to `""`.
 * @example { "description": "Work e-mail", "is_nullable": true }
 */
export const UpdatePropertyBody = Type.Object({
  name: Type.Optional(Type.Unknown()),
  description: Type.Optional(Type.Unknown()),
  is_index: Type.Optional(Type.Unknown()),
  is_substring_index: Type.Optional(Type.Unknown()),
  is_nullable: Type.Optional(Type.Unknown()),
  is_unique: Type.Optional(Type.Unknown()),
})
export type UpdatePropertyBody = Static<typeof UpdatePropertyBody>

/** `format`: `json` (default), `pvschema`, or the seed's `xschema`; it overrides `Accept`. @example ?format=pvschema */
export const SchemaFormat = Type.Union([
  Type.Literal('json'),
  Type.Literal('pvschema'),
  Type.Literal('xschema'),
])
export type SchemaFormat = Static<typeof SchemaFormat>

/** `options=show_builtins` adds the built-in properties; other options are refused. @example ?options=show_builtins */
export const ShowBuiltinsOptions = Type.Array(Type.Literal('show_builtins'))

/** @example ?format=pvschema&options=show_builtins&custom_audit=ticket-7 */
export const CollectionQuery = Type.Object({
  custom_audit: Type.Optional(Type.String()),
  format: Type.Optional(SchemaFormat),
  options: Type.Optional(ShowBuiltinsOptions),
})
export type CollectionQuery = Static<typeof CollectionQuery>

/** @example ?options=show_builtins */
export const PropertiesQuery = Type.Object({
  custom_audit: Type.Optional(Type.String()),
  options: Type.Optional(ShowBuiltinsOptions),
})

/** @example /ctl/collections/customers */
export const CollectionParams = Type.Object({ collection: Type.String() })

/** @example /ctl/collections/customers/properties/email */
export const PropertyParams = Type.Object({ collection: Type.String(), property: Type.String() })
