// src/core/data-types/string-type.ts: builds string-valued built-in types: NFC and the length limit first, then the type's own rule
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
import { maskText } from './transformers/mask.ts'

/** Length in characters (code points), counted only when UTF-16 length could exceed the limit. */
function exceeds(text: string, max: number): boolean {
  if (text.length <= max) return false
  let count = 0
  for (const _ of text) if (++count > max) return true
  return false
}

/** A JSON string, NFC-normalized, at most `maxLength` characters. */
export function checkText(value: unknown, maxLength: number): Check {
  if (typeof value !== 'string') return invalid('a string is expected')
  const text = value.normalize('NFC')
  if (exceeds(text, maxLength)) return invalid(`it is longer than ${maxLength} characters`)
  return valid(text)
}

export type StringTypeSpec = Readonly<{
  name: string
  description: string
  /** The type's own rule, applied to the NFC text; returns the normalized text. */
  check?: (text: string, limits: TypeLimits) => Check
  /** Defaults to SVC_DB_MAX_STRING_LENGTH. */
  maxLength?: (limits: TypeLimits) => number
  canIndex?: boolean
  canSubstringIndex?: boolean
  /** The `mask` transformer; defaults to masking every non-whitespace character; `none`: no mask. */
  mask?: ((text: string) => string) | 'none'
  extraTransformers?: Readonly<Record<string, Transformer>>
}>

export function stringType(spec: StringTypeSpec): BuiltinType {
  const mask = spec.mask ?? maskText
  const masks: Record<string, Transformer> =
    mask === 'none' ? {} : { mask: valueTransformer((value) => mask(String(value))) }
  return {
    name: spec.name,
    description: spec.description,
    jsonType: 'string',
    canIndex: spec.canIndex ?? true,
    canSubstringIndex: spec.canSubstringIndex ?? false,
    isStringLimited: spec.maxLength === undefined,
    check(value, limits) {
      const text = checkText(value, spec.maxLength?.(limits) ?? limits.maxStringLength)
      if (!text.isValid || spec.check === undefined) return text
      return spec.check(text.value as string, limits)
    },
    transformers: { ...masks, ...spec.extraTransformers, token: TOKEN_TRANSFORMER },
    defaultTransformer: mask === 'none' ? undefined : 'mask',
  }
}

/** A check that accepts text matching `pattern` unchanged. */
export function matching(pattern: RegExp, reason: string): (text: string) => Check {
  return (text) => (pattern.test(text) ? valid(text) : invalid(reason))
}
