// src/core/data-types/standard.ts: the standard built-in types STRING, LONG_TEXT, JSON, INTEGER, BOOLEAN, DOUBLE, BLOB (§7.1)
import {
  type BuiltinType,
  type Check,
  invalid,
  TOKEN_TRANSFORMER,
  type Transformer,
  type TypeLimits,
  valid,
  valueTransformer,
} from './data-type.ts'
import { stringType } from './string-type.ts'
import { constantMask, maskNumber } from './transformers/mask.ts'
import { maskJson } from './transformers/mask-structured.ts'

type ValueTypeSpec = Pick<BuiltinType, 'name' | 'description' | 'jsonType' | 'canIndex'> & {
  readonly check: (value: unknown, limits: TypeLimits) => Check
  readonly mask: (value: unknown) => string
  readonly extraTransformers?: Readonly<Record<string, Transformer>>
}

function valueType(spec: ValueTypeSpec): BuiltinType {
  return {
    ...spec,
    canSubstringIndex: false,
    isStringLimited: false,
    transformers: {
      mask: valueTransformer(spec.mask),
      ...spec.extraTransformers,
      token: TOKEN_TRANSFORMER,
    },
    defaultTransformer: 'mask',
  }
}

const INT64_MIN = -(2n ** 63n)
const INT64_MAX = 2n ** 63n - 1n

/** Integers in the signed 64-bit range; past 2^53 they may come (and are kept) as decimal strings. */
export function checkInteger(value: unknown): Check {
  let big: bigint
  if (typeof value === 'number' && Number.isInteger(value)) big = BigInt(value)
  else if (typeof value === 'string' && /^-?\d{1,19}$/.test(value)) big = BigInt(value)
  else return invalid('an integer is expected')
  if (big < INT64_MIN || big > INT64_MAX) return invalid('the integer is out of the 64-bit range')
  const asNumber = Number(big)
  return valid(Number.isSafeInteger(asNumber) ? asNumber : big.toString())
}

/** Any JSON value; a string holding JSON text is parsed first (proposal §7.1). */
export function checkJson(value: unknown, limits: TypeLimits): Check {
  let parsed = value
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value)
    } catch {
      // Not JSON text: the string itself is the JSON value.
    }
  }
  const text = JSON.stringify(parsed)
  if (text === undefined) return invalid('a JSON value is expected')
  if (Buffer.byteLength(text) > limits.maxBlobLength) {
    return invalid(`the serialized JSON is longer than ${limits.maxBlobLength} bytes`)
  }
  return valid(parsed)
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/

/** Decoded size of standard base64 text. */
export function base64Size(text: string): number {
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0
  return (text.length / 4) * 3 - padding
}

export function checkBlob(value: unknown, limits: TypeLimits): Check {
  if (typeof value !== 'string' || !BASE64.test(value))
    return invalid('standard base64 is expected')
  if (base64Size(value) > limits.maxBlobLength) {
    return invalid(`the decoded size exceeds ${limits.maxBlobLength} bytes`)
  }
  return valid(value)
}

export const STANDARD_TYPES: readonly BuiltinType[] = [
  stringType({ name: 'STRING', description: 'Text.', canSubstringIndex: true }),
  stringType({
    name: 'LONG_TEXT',
    description: 'Long text, up to SVC_DB_MAX_BLOB_LENGTH characters.',
    maxLength: (limits) => limits.maxBlobLength,
    canIndex: false,
    canSubstringIndex: true,
  }),
  valueType({
    name: 'JSON',
    description: 'Any JSON value.',
    jsonType: 'json',
    canIndex: false,
    check: checkJson,
    mask: maskJson,
  }),
  valueType({
    name: 'INTEGER',
    description: 'A signed 64-bit integer.',
    jsonType: 'integer',
    canIndex: true,
    check: checkInteger,
    mask: (value) => maskNumber(value as number | string),
  }),
  valueType({
    name: 'BOOLEAN',
    description: 'true or false.',
    jsonType: 'boolean',
    canIndex: true,
    check: (value) =>
      typeof value === 'boolean' ? valid(value) : invalid('a boolean is expected'),
    mask: constantMask('*'),
  }),
  valueType({
    name: 'DOUBLE',
    description: 'A double-precision floating-point number.',
    jsonType: 'number',
    canIndex: true,
    check: (value) =>
      typeof value === 'number' && Number.isFinite(value)
        ? valid(value)
        : invalid('a finite number is expected'),
    mask: (value) => maskNumber(value as number),
  }),
  valueType({
    name: 'BLOB',
    description: 'Binary data in standard base64.',
    jsonType: 'string',
    canIndex: false,
    check: checkBlob,
    mask: constantMask('<BLOB>'),
    extraTransformers: { size: valueTransformer((value) => base64Size(String(value))) },
  }),
]
