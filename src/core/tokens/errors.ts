// src/core/tokens/errors.ts: the errors token operations raise, with the spec's codes and context keys
import { VaultError } from '../errors.ts'

/** 400 ERR1012 naming the item and member. */
export function invalidItem(message: string, field: string): VaultError {
  return new VaultError('invalidRequest', { message, context: { field } })
}

export function tokenIdUsed(tokenId: string): VaultError {
  return new VaultError('alreadyExists', {
    message: `The token ID ${tokenId.slice(0, 128)} is already used.`,
    context: { token_id: tokenId.slice(0, 128) },
  })
}

export function noTokenMatched(): VaultError {
  return new VaultError('tokenNotFound', { message: 'No token matched the request.' })
}

export function tokenIdsNotFound(ids: readonly string[]): VaultError {
  const shown = ids.map((id) => id.slice(0, 128)).join(',')
  return new VaultError('tokenIdsNotFound', {
    message: `One or more token IDs were not found: ${shown}.`,
    context: { token_ids: shown },
  })
}

export function invalidTokenizeValue(property: string, why: string): VaultError {
  return new VaultError('invalidTokenizeValues', {
    message: `The value of property ${property} is invalid: ${why}.`,
    context: { property },
  })
}

export function tenantTagUsed(tag: string): VaultError {
  return new VaultError('tenantTagUsed', {
    message: 'A tag that must be unique within the tenant is already used by another token.',
    context: { tag: tag.slice(0, 64) },
  })
}
