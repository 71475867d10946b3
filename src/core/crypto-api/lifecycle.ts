// src/core/crypto-api/lifecycle.ts: ciphertext expiry: from `expiration_secs`, and the active/archived rule of decrypt
import { VaultError } from '../errors.ts'
import { MICROS_PER_SECOND, type Micros } from '../time.ts'
import { parseExpiration } from '../writes/expiration.ts'
import type { CiphertextMetadata } from './payload.ts'

/**
 * The expiry of a new ciphertext in whole seconds since the epoch (undefined: never), from
 * `expiration_secs`: absent → `defaultSecs` (SVC_EXPIRATION_TOKENS), empty → never, N → now + N.
 */
export function expiryOf(
  raw: string | undefined,
  defaultSecs: number | undefined,
  now: Micros,
): number | undefined {
  const change = parseExpiration(raw, { defaultSecs, isUpdate: false }, now)
  return change.kind === 'at' ? Math.floor(change.at / MICROS_PER_SECOND) : undefined
}

export function isExpired(metadata: CiphertextMetadata, now: Micros): boolean {
  return metadata.expiresAt !== undefined && metadata.expiresAt * MICROS_PER_SECOND <= now
}

/**
 * By default only active (unexpired) ciphertexts are opened; with `options=archived` only
 * expired ones (crypto.md §2). Either mismatch is 400 ERR3233.
 */
export function assertLifecycle(
  metadata: CiphertextMetadata,
  archived: boolean,
  now: Micros,
): void {
  const expired = isExpired(metadata, now)
  if (expired === archived) return
  throw new VaultError('encryptedObjectArchived', {
    message: expired
      ? 'The encrypted object is archived (expired); use options=archived to decrypt it.'
      : 'The encrypted object is not archived; options=archived selects expired ones only.',
  })
}
