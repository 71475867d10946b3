// src/core/crypto/aead.ts: AES-256-GCM sealing in the versioned format every stored ciphertext uses
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'

/**
 * Format v1: [0x01][key version: uint32 BE][nonce: 12][ciphertext][tag: 16]. The first five bytes
 * (format and key version) are authenticated together with the caller's associated data, so a
 * ciphertext cannot be relabelled with another key version or moved to another place.
 */
const FORMAT_V1 = 0x01
const HEADER = 5
const NONCE = 12
const TAG = 16

export const AEAD_OVERHEAD = HEADER + NONCE + TAG

export class DecryptionError extends Error {
  override readonly name = 'DecryptionError'
}

function header(keyVersion: number): Buffer {
  const head = Buffer.alloc(HEADER)
  head[0] = FORMAT_V1
  head.writeUInt32BE(keyVersion, 1)
  return head
}

/** Encrypts with a fresh random 96-bit nonce (NIST SP 800-38D §8.2.2: random IVs, well under 2^32 uses per key). */
export function seal(
  key: Uint8Array,
  keyVersion: number,
  plaintext: Uint8Array,
  aad: Uint8Array,
): Buffer {
  const head = header(keyVersion)
  const nonce = randomBytes(NONCE)
  const cipher = createCipheriv('aes-256-gcm', key, nonce)
  cipher.setAAD(Buffer.concat([head, aad]))
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()])
  return Buffer.concat([head, nonce, body, cipher.getAuthTag()])
}

/** The key version a sealed value names, or undefined when it is not a v1 ciphertext. */
export function keyVersionOf(sealed: Uint8Array): number | undefined {
  if (sealed.length < AEAD_OVERHEAD || sealed[0] !== FORMAT_V1) return undefined
  return Buffer.from(sealed.buffer, sealed.byteOffset, sealed.length).readUInt32BE(1)
}

/** Decrypts and authenticates; any tampering, wrong key or wrong associated data throws DecryptionError. */
export function open(key: Uint8Array, sealed: Uint8Array, aad: Uint8Array): Buffer {
  if (keyVersionOf(sealed) === undefined) throw new DecryptionError('not a v1 ciphertext')
  const data = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.length)
  const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(HEADER, HEADER + NONCE))
  decipher.setAAD(Buffer.concat([data.subarray(0, HEADER), aad]))
  decipher.setAuthTag(data.subarray(data.length - TAG))
  try {
    return Buffer.concat([
      decipher.update(data.subarray(HEADER + NONCE, data.length - TAG)),
      decipher.final(),
    ])
  } catch {
    throw new DecryptionError('authentication failed')
  }
}
