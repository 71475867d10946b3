// src/contract/data-types.ts: wire shapes of data types (endpoints §6.1–6.3, data-model §7–8)
import type { Static } from 'typebox'
import { Type } from './schema.ts'

/**
 * A data type, built-in or custom. Built-in types are their own base type and list their
 * built-in transformers by name; custom types name bundle functions `"<bundle>.<function>"`.
 * @example { "name": "SSN", "base_type_name": "SSN", "description": "A US social security number.", "is_builtin": true, "transformers": ["mask", "token"], "default_transformer": "mask" }
 */
export const DataType = Type.Object({
  name: Type.String(),
  base_type_name: Type.String(),
  description: Type.String(),
  is_builtin: Type.Boolean(),
  validator: Type.Optional(Type.String()),
  normalizer: Type.Optional(Type.String()),
  transformers: Type.Array(Type.String()),
  default_transformer: Type.Optional(Type.String()),
  creation_time: Type.Optional(Type.String()),
})
export type DataType = Static<typeof DataType>

/**
 * List data types: custom types, plus built-ins with `options=show_builtins`; `bundle` keeps only
 * the types that depend on that bundle.
 * @example ?options=show_builtins
 */
export const DataTypesQuery = Type.Object({
  custom_audit: Type.Optional(Type.String()),
  bundle: Type.Optional(Type.String()),
  options: Type.Optional(Type.Array(Type.Literal('show_builtins'))),
})
export type DataTypesQuery = Static<typeof DataTypesQuery>

/** @example /ctl/types/EMAIL */
export const DataTypeParams = Type.Object({ type: Type.String() })

/** A bundle function: `"<bundle>.<function>"`, or the object form of the published examples. */
export const FunctionReference = Type.Union([
  Type.String(),
  Type.Object({ bundle: Type.String(), function: Type.String() }),
])
export type FunctionReference = Static<typeof FunctionReference>

/**
 * Add data type: a custom type on a built-in base, with bundle functions.
 * @example { "name": "STRING_SSN", "base_type_name": "STRING", "validator": "string_ssn.validate", "normalizer": { "bundle": "string_ssn", "function": "normalize" }, "transformers": ["string_ssn.mask"], "default_transformer": "mask" }
 */
export const DataTypeInput = Type.Object({
  name: Type.String({ minLength: 1 }),
  base_type_name: Type.String({ minLength: 1 }),
  description: Type.Optional(Type.String()),
  validator: Type.Optional(FunctionReference),
  normalizer: Type.Optional(FunctionReference),
  transformers: Type.Optional(Type.Array(Type.String())),
  default_transformer: Type.Optional(Type.String()),
  is_builtin: Type.Optional(Type.Boolean()),
  creation_time: Type.Optional(Type.String()),
})
export type DataTypeInput = Static<typeof DataTypeInput>

/**
 * Update data type: custom types change `description`, `default_transformer`, `validator` (when
 * they have no normalizer) and `transformers`; built-in types only their custom transformers.
 * Other fields are ignored.
 * @example { "transformers": ["string_ssn.mask", "string_ssn.last4"], "default_transformer": "last4" }
 */
export const DataTypeUpdate = Type.Object({
  name: Type.Optional(Type.String()),
  base_type_name: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
  validator: Type.Optional(FunctionReference),
  normalizer: Type.Optional(FunctionReference),
  transformers: Type.Optional(Type.Array(Type.String())),
  default_transformer: Type.Optional(Type.String()),
  is_builtin: Type.Optional(Type.Boolean()),
  creation_time: Type.Optional(Type.String()),
})
export type DataTypeUpdate = Static<typeof DataTypeUpdate>
