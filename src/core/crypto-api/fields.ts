// src/core/crypto-api/fields.ts: fields checked against the collection schema, and the `props` selection of crypto items

import { findProperty, type Property, type StoredCollection } from '../collections/collection.ts'
import { propertyNotFound } from '../collections/errors.ts'
import type { TypeRegistry } from '../data-types/registry.ts'
import { VaultError } from '../errors.ts'
import { ownValue } from '../own.ts'

export type Values = Record<string, unknown>

/** The object ID is never part of a ciphertext or a hash (crypto.md §1). */
export const OBJECT_ID = 'id'

/** A property of the collection by exact name, built-in or user; 404 ERR3004 when there is none. */
export function propertyOrThrow(collection: StoredCollection, name: string): Property {
  const property = findProperty(collection, name)
  if (property === undefined) throw propertyNotFound(collection.name, name)
  return property
}

/**
 * Validates and normalizes `fields` as an object write would (unknown property → 404 ERR3004,
 * invalid value → 400 ERR3002, read-only built-in → 400 ERR1012). `null` means no value and is
 * left out; `id` is checked and dropped.
 */
export function validateFields(
  types: TypeRegistry,
  collection: StoredCollection,
  fields: Readonly<Values>,
): Values {
  const values: Values = {}
  for (const [name, value] of Object.entries(fields)) {
    const property = propertyOrThrow(collection, name)
    if (property.isReadonly && name !== OBJECT_ID) {
      throw new VaultError('invalidRequest', {
        message: `The property ${name} is read-only.`,
        context: { property: name },
      })
    }
    if (value === null) continue
    const normalized = types.validate(property, value)
    if (name !== OBJECT_ID) values[name] = normalized
  }
  return values
}

/**
 * Keeps the listed properties of `values`. Every listed name must be a property of the
 * collection (404 ERR3004); a listed property that is absent or null in the values is left out
 * silently, and `id` is never kept (crypto.md §1).
 */
export function selectProps(
  collection: StoredCollection,
  values: Readonly<Values>,
  props: readonly string[],
): Values {
  const selected: Values = {}
  for (const name of props) {
    propertyOrThrow(collection, name)
    const value = ownValue(values, name)
    if (name !== OBJECT_ID && value !== undefined && value !== null) selected[name] = value
  }
  return selected
}

/** The data type of a field for policy resources; '' for a property deleted since encryption. */
export function dataTypeOf(collection: StoredCollection, name: string): string {
  return findProperty(collection, name)?.dataType ?? ''
}
