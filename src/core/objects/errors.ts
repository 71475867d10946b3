// src/core/objects/errors.ts: the errors object operations raise, with the spec's codes and context keys
import { VaultError } from '../errors.ts'

/**
 * 404 ERR3005 naming the ids, each cut to `maxLength` characters (ids are not values: they are
 * what the caller sent to address objects).
 */
export function objectsNotFound(ids: readonly string[], maxLength = 64): VaultError {
  const shown = ids.map((id) => id.slice(0, maxLength)).join(',')
  return new VaultError('objectNotFound', {
    message: `One or more objects were not found: ${shown}.`,
    context: { ids: shown },
  })
}

export function duplicateId(id: string): VaultError {
  return new VaultError('alreadyExists', {
    message: `An object with ID ${id} already exists.`,
    context: { id },
  })
}

export function uniqueValueUsed(collection: string, property: string): VaultError {
  return new VaultError('uniqueValueUsed', {
    message: `The value of unique property ${property} is already used by an active object.`,
    context: { collection, property },
  })
}

export function concurrentUpdate(id: string): VaultError {
  return new VaultError('concurrentUpdate', {
    message: `The object ${id} was changed by another request at the same time; retry.`,
    context: { id },
  })
}
