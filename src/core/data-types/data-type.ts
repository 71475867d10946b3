// src/core/data-types/data-type.ts: what a data type is: JSON value type, check (validate + normalize), index support, transformers
import type { Micros } from '../time.ts'

/** Settings that bound values; from SVC_DB_MAX_STRING_LENGTH, SVC_DB_MAX_BLOB_LENGTH, the Luhn switch. */
export type TypeLimits = Readonly<{
  maxStringLength: number
  maxBlobLength: number
  isLuhnCheckEnabled: boolean
}>

/** The result of checking a value: its normalized form, or why it is invalid (never the value). */
export type Check =
  | { readonly isValid: true; readonly value: unknown }
  | { readonly isValid: false; readonly reason: string }

export function valid(value: unknown): Check {
  return { isValid: true, value }
}

export function invalid(reason: string): Check {
  return { isValid: false, reason }
}

/** The JSON type a value must have on the wire. `json` is any JSON value. */
export type JsonValueType = 'string' | 'integer' | 'number' | 'boolean' | 'json'

/** `param` is the request's X-Trans-Param header (custom transformers read it; built-ins ignore it). */
export type TransformContext = Readonly<{ now: Micros; param?: string }>

/**
 * `value` transformers are pure functions of the stored (normalized) value. `token` needs the
 * object's tokens, so the data operation that reads the object resolves it (tokens.md).
 */
export type Transformer =
  | { readonly kind: 'value'; apply(value: unknown, ctx: TransformContext): unknown }
  | { readonly kind: 'token' }

/** A built-in data type (data-model §7). Custom types name one of these as their base. */
export type BuiltinType = Readonly<{
  name: string
  description: string
  jsonType: JsonValueType
  /** `is_index` / `is_unique` allowed (§7.3). */
  canIndex: boolean
  /** `is_substring_index` allowed (§7.3). */
  canSubstringIndex: boolean
  /** Values are bounded by SVC_DB_MAX_STRING_LENGTH (and cannot be indexed past 2048). */
  isStringLimited: boolean
  check(value: unknown, limits: TypeLimits): Check
  transformers: Readonly<Record<string, Transformer>>
  defaultTransformer: string | undefined
}>

/** The `token` transformer every built-in type offers (§7.4). */
export const TOKEN_TRANSFORMER: Transformer = { kind: 'token' }

/** A value transformer that maps `null` to `null` (§7.4: a transformer of null is null). */
export function valueTransformer(
  apply: (value: unknown, ctx: TransformContext) => unknown,
): Transformer {
  return {
    kind: 'value',
    apply: (value, ctx) => (value === null || value === undefined ? null : apply(value, ctx)),
  }
}
