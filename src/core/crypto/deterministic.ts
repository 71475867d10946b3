// src/core/crypto/deterministic.ts: deterministic authenticated encryption (AES-256-SIV, RFC 5297) with keyring keys
import { createRequire } from 'node:module'
import type { aessiv as AesSiv } from '@noble/ciphers/aes.js'
import { DecryptionError } from './aead.ts'
import type { Keyring } from './keyring.ts'

/**
 * Format: [key version: uint32 BE][SIV: 16][ciphertext]. The SIV is S2V (CMAC-based PRF) over
 * the key version, every associated-data part and the plaintext, so equal inputs give equal
 * outputs and anything else gives unrelated ones: the misuse-resistant construction RFC 5297
 * designed for deterministic encryption, with no nonce to get wrong. @noble/ciphers is audited
 * pure JS (Node's OpenSSL binding has no SIV mode).
 *
 * Keys come from the `siv` derivation purpose, which is never rotated: a deterministic
 * ciphertext is compared by equality, and a new key would make equal inputs differ.
 */
const VERSION_BYTES = 4
const SIV_BYTES = 16
/** The `siv` purpose has exactly one version (derivation purposes do not rotate). */
const SIV_KEY_VERSION = 1

export const DETERMINISTIC_OVERHEAD = VERSION_BYTES + SIV_BYTES

const require = createRequire(import.meta.url)
let loaded: typeof AesSiv | undefined

/** @noble/ciphers' AES module builds its tables when loaded (~20 ms): on first use, not at start. */
function aessiv(...args: Parameters<typeof AesSiv>): ReturnType<typeof AesSiv> {
  loaded ??= (require('@noble/ciphers/aes.js') as { aessiv: typeof AesSiv }).aessiv
  return loaded(...args)
}

export function createDeterministicCipher(keyring: Keyring) {
  const keys = new Map<string, Uint8Array>()

  /** A 512-bit AES-SIV key (MAC half ‖ CTR half) for one use, e.g. one collection. */
  function keyFor(context: string): Uint8Array {
    let key = keys.get(context)
    if (key === undefined) {
      key = new Uint8Array(64)
      key.set(keyring.derive('siv', `${context}\u0000s2v`), 0)
      key.set(keyring.derive('siv', `${context}\u0000ctr`), 32)
      keys.set(context, key)
    }
    return key
  }

  function header(version: number): Uint8Array {
    const bytes = Buffer.alloc(VERSION_BYTES)
    bytes.writeUInt32BE(version)
    return bytes
  }

  return {
    seal(context: string, aad: readonly Uint8Array[], plaintext: Uint8Array): Buffer {
      const head = header(SIV_KEY_VERSION)
      const sealed = aessiv(keyFor(context), head, ...aad).encrypt(plaintext)
      return Buffer.concat([head, sealed])
    },

    /** Authenticates and decrypts; any mismatch (key, data, associated data) throws DecryptionError. */
    open(context: string, aad: readonly Uint8Array[], sealed: Uint8Array): Buffer {
      if (sealed.length < DETERMINISTIC_OVERHEAD) throw new DecryptionError('too short')
      const data = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.length)
      const version = data.readUInt32BE(0)
      if (version !== SIV_KEY_VERSION) throw new DecryptionError(`unknown siv key version`)
      try {
        const head = data.subarray(0, VERSION_BYTES)
        const opened = aessiv(keyFor(context), head, ...aad).decrypt(data.subarray(VERSION_BYTES))
        return Buffer.from(opened)
      } catch {
        throw new DecryptionError('authentication failed')
      }
    },
  }
}

export type DeterministicCipher = ReturnType<typeof createDeterministicCipher>
