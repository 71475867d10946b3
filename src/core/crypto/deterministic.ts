// src/core/crypto/deterministic.ts: deterministic authenticated encryption (AES-256-SIV, RFC 5297) with keyring keys
import { createRequire } from 'node:module'
import type { aessiv as AesSiv } from '@noble/ciphers/aes.js'
import { DecryptionError } from './aead.ts'
import type { Keyring } from './keyring.ts'

/**
 * Format, byte for byte (docs/adr/0008; frozen in test/vectors/stored-formats.json):
 *
 *   sealed = version (uint32 BE, always 1) ‖ V (16) ‖ C
 *   V ‖ C  = AES-SIV (RFC 5297, AEAD_AES_SIV_CMAC_512) under K = K1 ‖ K2 with the associated-data
 *            vector (version bytes, ...aad): V = S2V(K1; version, aad…, plaintext), and C is the
 *            plaintext under AES-256-CTR(K2) from counter V with the top bits of bytes 8 and 12
 *            cleared
 *   K1     = HKDF-SHA256(siv key, salt empty, info context ‖ 0x00 ‖ "s2v", 32 bytes)
 *   K2     = HKDF-SHA256(siv key, salt empty, info context ‖ 0x00 ‖ "ctr", 32 bytes)
 *
 * Equal inputs give equal outputs and anything else unrelated ones: the misuse-resistant
 * construction RFC 5297 designed for deterministic encryption, with no nonce to get wrong.
 * `sivSeal`/`sivOpen` are exactly RFC 5297 (tested with its appendix A vectors and published
 * 512-bit-key vectors); the version prefix and key derivation are ours. @noble/ciphers is
 * audited pure JS (Node's OpenSSL binding has no SIV mode).
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

/** RFC 5297 AES-SIV: V ‖ C of `plaintext` under `key` (32, 48 or 64 bytes) and the AD vector. */
export function sivSeal(
  key: Uint8Array,
  ad: readonly Uint8Array[],
  plaintext: Uint8Array,
): Uint8Array {
  return aessiv(key, ...ad).encrypt(plaintext)
}

/** Authenticates and decrypts V ‖ C; any mismatch throws DecryptionError. */
export function sivOpen(key: Uint8Array, ad: readonly Uint8Array[], sealed: Uint8Array): Buffer {
  try {
    return Buffer.from(aessiv(key, ...ad).decrypt(sealed))
  } catch {
    throw new DecryptionError('authentication failed')
  }
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
      return Buffer.concat([head, sivSeal(keyFor(context), [head, ...aad], plaintext)])
    },

    /** Authenticates and decrypts; any mismatch (key, data, associated data) throws DecryptionError. */
    open(context: string, aad: readonly Uint8Array[], sealed: Uint8Array): Buffer {
      if (sealed.length < DETERMINISTIC_OVERHEAD) throw new DecryptionError('too short')
      const data = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.length)
      const version = data.readUInt32BE(0)
      if (version !== SIV_KEY_VERSION) throw new DecryptionError(`unknown siv key version`)
      const head = data.subarray(0, VERSION_BYTES)
      return sivOpen(keyFor(context), [head, ...aad], data.subarray(VERSION_BYTES))
    },
  }
}

export type DeterministicCipher = ReturnType<typeof createDeterministicCipher>
