// src/core/collections/names.ts: the naming rules of collections and properties (spec README §Naming rules)
import { VaultError } from '../errors.ts'

/** Letters, digits and `_`; the first character a letter (a leading `_` is reserved for built-ins). */
const NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_]*$/

/** The general name limit; collections and properties are bounded by MAX_COMBINED_LENGTH first. */
export const MAX_NAME_LENGTH = 450

/** Seed: collection name length + longest property name length ≤ 40. */
export const MAX_COMBINED_LENGTH = 40

export function isValidName(name: string): boolean {
  return name.length <= MAX_NAME_LENGTH && NAME_PATTERN.test(name)
}

/** Names differ case-sensitively but must be unique case-insensitively: this is the unique key. */
export function nameKey(name: string): string {
  return name.toLowerCase()
}

function describeBadName(name: string): string {
  if (name.length === 0) return 'it is empty'
  if (name.length > MAX_NAME_LENGTH) return `it is longer than ${MAX_NAME_LENGTH} characters`
  if (name.startsWith('_')) return 'names starting with _ are reserved for built-in properties'
  if (!/^[A-Za-z]/.test(name)) return 'it must start with a letter'
  return 'only letters, digits and _ are allowed'
}

/** 400 ERR1008 when the collection name breaks the naming rules or is too long on its own. */
export function checkCollectionName(name: string): void {
  if (!isValidName(name)) {
    throw new VaultError('collectionNameInvalid', {
      message: `The collection name is invalid: ${describeBadName(name)}.`,
      context: { collection: name.slice(0, MAX_COMBINED_LENGTH * 2) },
    })
  }
  if (name.length > MAX_COMBINED_LENGTH) {
    throw new VaultError('collectionNameInvalid', {
      message: `The collection name is invalid: it is longer than ${MAX_COMBINED_LENGTH} characters.`,
      context: { collection: name.slice(0, MAX_COMBINED_LENGTH * 2) },
    })
  }
}

/** 400 ERR1012 when a user property name breaks the naming rules or is reserved (`id`, `_…`). */
export function checkPropertyName(collection: string, name: string): void {
  const context = { collection, property: name.slice(0, MAX_COMBINED_LENGTH * 2) }
  if (!isValidName(name)) {
    throw new VaultError('invalidRequest', {
      message: `The property name is invalid: ${describeBadName(name)}.`,
      context,
    })
  }
  if (nameKey(name) === 'id') {
    throw new VaultError('invalidRequest', {
      message: 'The property name is reserved for the built-in property id.',
      context,
    })
  }
}

/**
 * The combined-length rule over user properties. `ERR1008` when a collection is being created
 * (the collection name is judged), `ERR1012` when properties are added to an existing one
 * (errors.md quick map).
 */
export function checkCombinedLength(
  collection: string,
  propertyNames: readonly string[],
  errorName: 'collectionNameInvalid' | 'invalidRequest',
): void {
  const longest = propertyNames.reduce((a, b) => (b.length > a.length ? b : a), '')
  if (collection.length + longest.length <= MAX_COMBINED_LENGTH) return
  const context: Record<string, string> = { collection }
  if (longest !== '') context.property = longest
  throw new VaultError(errorName, {
    message: `The collection name and the longest property name together exceed ${MAX_COMBINED_LENGTH} characters.`,
    context,
  })
}
