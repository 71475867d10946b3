// src/contract/bundles.ts: wire shapes of bundles of JavaScript code (endpoints §6.6–6.10, data-model §9)
import type { Static } from 'typebox'
import { QueryList } from './common.ts'
import { Type } from './schema.ts'

/**
 * A function a bundle exports: its name, type, description and the object properties it needs.
 * @example { "name": "mask", "type": "transformer", "dependencies": { "properties": ["ssn"] } }
 */
export const FunctionPrototype = Type.Object({
  name: Type.String(),
  type: Type.String(),
  description: Type.Optional(Type.String()),
  dependencies: Type.Optional(
    Type.Object({ properties: Type.Optional(Type.Array(Type.String())) }),
  ),
})
export type FunctionPrototype = Static<typeof FunctionPrototype>

/**
 * What a bundle exports, by function type, each list sorted by name.
 * @example { "validators": [], "normalizers": [], "transformers": [{ "name": "mask", "type": "transformer" }], "actions": [], "fptemplates": [] }
 */
export const BundleExports = Type.Object({
  validators: Type.Array(FunctionPrototype),
  normalizers: Type.Array(FunctionPrototype),
  transformers: Type.Array(FunctionPrototype),
  actions: Type.Array(FunctionPrototype),
  fptemplates: Type.Array(FunctionPrototype),
})
export type BundleExports = Static<typeof BundleExports>

/**
 * A bundle: one self-contained CommonJS-style script, base64 in `code`.
 * @example { "name": "ssn_helpers", "description": "", "code": "ZXhwb3J0cy5tYXNrID0g…", "exports": { … }, "creation_time": "2024-01-02T03:04:05.678901000Z" }
 */
export const Bundle = Type.Object({
  name: Type.String(),
  description: Type.String(),
  code: Type.String(),
  exports: BundleExports,
  creation_time: Type.String(),
  modification_time: Type.String(),
})
export type Bundle = Static<typeof Bundle>

/** Add bundle. @example { "name": "ssn_helpers", "code": "ZXhwb3J0cy5tYXNrID0g…" } */
export const BundleInput = Type.Object({
  name: Type.String({ minLength: 1 }),
  description: Type.Optional(Type.String()),
  code: Type.String(),
})
export type BundleInput = Static<typeof BundleInput>

/** Update bundle: a `name` may be sent but must equal the path. @example { "code": "…" } */
export const BundleUpdate = Type.Object({
  name: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
  code: Type.Optional(Type.String()),
})
export type BundleUpdate = Static<typeof BundleUpdate>

/** @example /ctl/bundles/ssn_helpers */
export const BundleParams = Type.Object({ bundle: Type.String() })

/** Delete bundle: `options=force` also deletes the data types no property uses. */
export const DeleteBundleQuery = Type.Object({
  custom_audit: Type.Optional(Type.String()),
  options: Type.Optional(QueryList),
})
export type DeleteBundleQuery = Static<typeof DeleteBundleQuery>
