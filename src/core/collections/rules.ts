// src/core/collections/rules.ts: attribute rules: what a new property may ask for, and which changes are allowed (seed §3)
import type { IndexSupport } from '../data-types/registry.ts'
import { VaultError } from '../errors.ts'
import {
  builtinProperty,
  DEFAULT_ATTRIBUTES,
  type PropertyAttributes,
  type PropertyFlags,
  type PropertyInput,
} from './collection.ts'

export type Where = Readonly<{ collection: string; property: string }>

const WIRE: Readonly<Record<keyof PropertyFlags, string>> = {
  isEncrypted: 'is_encrypted',
  isIndex: 'is_index',
  isSubstringIndex: 'is_substring_index',
  isNullable: 'is_nullable',
  isUnique: 'is_unique',
}

function refuse(where: Where, message: string): VaultError {
  return new VaultError('invalidRequest', { message, context: { ...where } })
}

function checkSupport(
  attributes: PropertyFlags,
  dataType: string,
  support: IndexSupport,
  where: Where,
) {
  for (const flag of ['isIndex', 'isUnique'] as const) {
    if (attributes[flag] && !support.canIndex) {
      throw refuse(
        where,
        `The property ${where.property} cannot set ${WIRE[flag]}: data type ${dataType} does not support it.`,
      )
    }
  }
  if (attributes.isSubstringIndex && !support.canSubstringIndex) {
    throw refuse(
      where,
      `The property ${where.property} cannot set is_substring_index: data type ${dataType} does not support it.`,
    )
  }
}

/** Descriptions are stored as text; PostgreSQL text cannot hold NUL characters. */
function checkDescription(description: string, where: Where): void {
  if (description.includes('\u0000')) {
    throw refuse(
      where,
      `The description of property ${where.property} must not contain NUL characters.`,
    )
  }
}

/**
 * The attributes of a property being added: defaults for what the request left out, checked
 * against what its data type supports (§7.3). With encryption off, values are stored plain.
 */
export function newAttributes(
  input: PropertyInput,
  support: IndexSupport,
  options: { where: Where; isEncryptionEnabled: boolean },
): PropertyAttributes {
  const merged = { ...DEFAULT_ATTRIBUTES, ...pickAttributes(input) }
  const attributes = { ...merged, isEncrypted: merged.isEncrypted && options.isEncryptionEnabled }
  checkSupport(attributes, input.dataType, support, options.where)
  checkDescription(attributes.description, options.where)
  return attributes
}

export type RequestedChange = Partial<Omit<PropertyAttributes, 'isEncrypted'>>

/** One-way changes (seed §3): only these directions are allowed. */
const ONE_WAY: readonly [keyof PropertyFlags, from: boolean, to: boolean][] = [
  ['isSubstringIndex', true, false],
  ['isNullable', false, true],
  ['isUnique', true, false],
]

/**
 * Applies a requested change to an existing property: `description` any way, `is_index` both
 * ways (true only where the type supports it), `is_substring_index` only true→false,
 * `is_nullable` only false→true, `is_unique` only true→false. Anything else is 400 ERR1012.
 */
export function changeAttributes(
  current: PropertyAttributes,
  requested: RequestedChange,
  context: { where: Where; dataType: string; support: IndexSupport },
): PropertyAttributes {
  const next = { ...current, ...pickAttributes(requested) }
  for (const [flag, from, to] of ONE_WAY) {
    if (current[flag] !== next[flag] && !(current[flag] === from && next[flag] === to)) {
      throw refuse(
        context.where,
        `The property ${context.where.property} cannot change ${WIRE[flag]} from ${current[flag]} to ${next[flag]}; only ${from} to ${to} is allowed.`,
      )
    }
  }
  if (next.isIndex && !current.isIndex)
    checkSupport(next, context.dataType, context.support, context.where)
  checkDescription(next.description, context.where)
  return next
}

export function hasChanged(a: PropertyAttributes, b: PropertyAttributes): boolean {
  return ATTRIBUTE_KEYS.some((key) => a[key] !== b[key])
}

/** Built-ins may be listed in a request only as they are defined (data-model §2). */
export function checkBuiltinListed(input: PropertyInput, where: Where): void {
  const builtin = builtinProperty(input.name)
  if (builtin === undefined) {
    throw refuse(where, `The property name ${input.name} is reserved for built-in properties.`)
  }
  const flags = Object.keys(WIRE) as (keyof PropertyFlags)[]
  const differs =
    builtin.dataType !== input.dataType ||
    flags.some((flag) => input[flag] !== undefined && input[flag] !== builtin[flag])
  if (differs) {
    throw refuse(where, `The built-in property ${input.name} cannot be defined or changed.`)
  }
}

const ATTRIBUTE_KEYS = Object.keys(DEFAULT_ATTRIBUTES) as (keyof PropertyAttributes)[]

/** The attributes a request actually gave (absent or ignored ones are undefined). */
function pickAttributes(source: Partial<PropertyAttributes>): Partial<PropertyAttributes> {
  const picked: Partial<Record<keyof PropertyAttributes, unknown>> = {}
  for (const key of ATTRIBUTE_KEYS) if (source[key] !== undefined) picked[key] = source[key]
  return picked as Partial<PropertyAttributes>
}
