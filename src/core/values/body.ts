// src/core/values/body.ts: validates and normalizes an object body against its collection (object writes, tokenize fields)

import type { StoredCollection, StoredProperty } from '../collections/collection.ts'
import { propertyNotFound } from '../collections/errors.ts'
import type { TypeRegistry } from '../data-types/registry.ts'
import { VaultError } from '../errors.ts'
import { ownValue } from '../own.ts'
import { isStorableTime, type Micros } from '../time.ts'

/** 400 ERR3002 naming the property, never the value. */
export function invalidValue(property: string, why: string): VaultError {
  return new VaultError('invalidPropertyValue', {
    message: `The value of property ${property} is invalid: ${why}.`,
    context: { property },
  })
}

/** Built-in properties a body may write; `null` clears a nullable one. */
export type BuiltinValues = {
  tenantId?: string | null
  ownerId?: string | null
  ownerCollection?: string | null
  createdAt?: Micros
  modifiedAt?: Micros
  expiresAt?: Micros | null
}

export type ObjectInput = Readonly<{
  /** The body's `id`, lower-cased; undefined when absent. */
  id: string | undefined
  /** User property → normalized value; `null` removes a nullable value (updates). */
  values: Readonly<Record<string, unknown>>
  builtins: Readonly<BuiltinValues>
  /** Every property the body names (for policies and the audit record). */
  names: readonly string[]
}>

export type BodyRules = Readonly<{ types: TypeRegistry; isImport: boolean; isCreate: boolean }>

const WRITABLE = {
  _tenant_id: 'tenantId',
  _owner_id: 'ownerId',
  _owner_collection: 'ownerCollection',
} as const
const TIMES = {
  _creation_time: 'createdAt',
  _modification_time: 'modifiedAt',
  _expiration_time: 'expiresAt',
} as const

/**
 * Whether a value holds a NUL character anywhere (strings, keys, nested values). Values kept in
 * plain columns cannot: PostgreSQL text and JSON cannot hold U+0000, and the service answers
 * alike on both engines. Encrypted values are sealed, so they may.
 */
export function hasNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000')
  if (Array.isArray(value)) return value.some(hasNul)
  if (value !== null && typeof value === 'object')
    return Object.entries(value).some(([key, item]) => key.includes('\u0000') || hasNul(item))
  return false
}

const NUL_REASON = 'values kept unencrypted cannot contain NUL characters'

/** A normalized TIMESTAMP (`YYYY-MM-DDTHH:MM:SS[.f]Z`) in microseconds. */
export function timestampMicros(normalized: string): Micros {
  const seconds = Date.parse(`${normalized.slice(0, 19)}Z`)
  const fraction = /\.(\d+)Z$/.exec(normalized)?.[1] ?? ''
  return seconds * 1000 + Number(fraction.padEnd(6, '0').slice(0, 6))
}

function readId(rules: BodyRules, value: unknown): string {
  if (value === null) throw invalidValue('id', 'a UUID is expected')
  return rules.types.validate({ name: 'id', dataType: 'OBJECT_ID' }, value) as string
}

function readWritable(rules: BodyRules, name: keyof typeof WRITABLE, value: unknown) {
  if (value === null) return null
  if (hasNul(value)) throw invalidValue(name, NUL_REASON)
  if (name === '_owner_collection') {
    if (typeof value !== 'string' || value === '') throw invalidValue(name, 'a name is expected')
    return value
  }
  const dataType = name === '_tenant_id' ? 'TENANT_ID' : 'OBJECT_ID'
  return rules.types.validate({ name, dataType }, value) as string
}

function readTime(rules: BodyRules, name: keyof typeof TIMES, value: unknown) {
  if (!rules.isImport)
    throw invalidValue(name, 'read-only built-in properties can be written only with import=true')
  if (value === null) {
    if (name === '_expiration_time') return null
    throw invalidValue(name, 'the property is not nullable')
  }
  const text = rules.types.validate({ name, dataType: 'TIMESTAMP' }, value) as string
  const micros = timestampMicros(text)
  if (!isStorableTime(micros))
    throw invalidValue(name, 'the time must fall between 1684-07-28 and 2255-06-05')
  return micros
}

function readUser(rules: BodyRules, property: StoredProperty, value: unknown): unknown {
  if (value === null) {
    if (!property.isNullable) throw invalidValue(property.name, 'the property is not nullable')
    return null
  }
  const normalized = rules.types.validate(property, value)
  if (!property.isEncrypted && hasNul(normalized)) throw invalidValue(property.name, NUL_REASON)
  return normalized
}

function requireMissing(collection: StoredCollection, values: Record<string, unknown>): void {
  for (const property of collection.properties) {
    if (!property.isNullable && (ownValue(values, property.name) ?? null) === null)
      throw invalidValue(property.name, 'the property is required')
  }
}

/**
 * Reads a body: unknown properties are 404 ERR3004, invalid values 400 ERR3002 (naming the
 * property), read-only built-ins need `import`; on create every non-nullable property is required.
 */
export function readObjectBody(
  collection: StoredCollection,
  body: Readonly<Record<string, unknown>>,
  rules: BodyRules,
): ObjectInput {
  const byName = new Map(collection.properties.map((p) => [p.name, p]))
  const values: Record<string, unknown> = {}
  const builtins: BuiltinValues = {}
  let id: string | undefined
  for (const [name, value] of Object.entries(body)) {
    const property = byName.get(name)
    if (property !== undefined) values[name] = readUser(rules, property, value)
    else if (name === 'id') id = readId(rules, value)
    else if (Object.hasOwn(WRITABLE, name)) {
      const key = WRITABLE[name as keyof typeof WRITABLE]
      builtins[key] = readWritable(rules, name as keyof typeof WRITABLE, value)
    } else if (Object.hasOwn(TIMES, name)) {
      const key = TIMES[name as keyof typeof TIMES]
      ;(builtins as Record<string, unknown>)[key] = readTime(
        rules,
        name as keyof typeof TIMES,
        value,
      )
    } else throw propertyNotFound(collection.name, name)
  }
  if (rules.isCreate) requireMissing(collection, values)
  return { id, values, builtins, names: Object.keys(body) }
}
