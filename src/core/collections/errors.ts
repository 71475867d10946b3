// src/core/collections/errors.ts: the not-found and already-exists errors of collections, and audit naming
import { type AuditDetails, withProperties } from '../audit/details.ts'
import { VaultError } from '../errors.ts'
import { isValidName, MAX_COMBINED_LENGTH } from './names.ts'

const short = (name: string) => name.slice(0, MAX_COMBINED_LENGTH * 2)

export function collectionNotFound(name: string): VaultError {
  const shown = short(name)
  return new VaultError('collectionNotFound', {
    message: isValidName(name) ? `The collection ${name} is not found.` : undefined,
    context: { collection: shown },
  })
}

/** `details` naming what was asked for, when it is a name at all (never arbitrary text). */
export function namedDetails(
  details: AuditDetails,
  collection: string,
  property?: string,
): AuditDetails {
  const named = isValidName(collection) ? { ...details, collection } : details
  return property !== undefined && isValidName(property)
    ? withProperties(named, [property])
    : Object.freeze(named)
}

export function propertyNotFound(collection: string, name: string): VaultError {
  return new VaultError('propertyNotFound', {
    message: isValidName(name)
      ? `The property ${name} is not found in collection ${collection}.`
      : `The property is not found in collection ${collection}.`,
    context: { collection, property: short(name) },
  })
}

export function alreadyExists(collection: string, property?: string): VaultError {
  const what =
    property === undefined ? `collection ${short(collection)}` : `property ${short(property)}`
  const context: Record<string, string> = { collection: short(collection) }
  if (property !== undefined) context.property = short(property)
  return new VaultError('alreadyExists', {
    message: `A ${what} already exists (names are unique regardless of case).`,
    context,
  })
}
