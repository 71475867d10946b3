// src/core/crypto/envelope.ts: envelope encryption and keyed derivations used by the data services
import { DecryptionError, keyVersionOf, open, seal } from './aead.ts'
import { type DerivationPurpose, hmac, type Keyring, type RotatablePurpose } from './keyring.ts'

/**
 * Associated data from a list of parts, each length-prefixed so that ("ab","c") and ("a","bc")
 * never collide.
 */
export function bindingOf(parts: readonly string[]): Buffer {
  const chunks: Buffer[] = []
  for (const part of parts) {
    const bytes = Buffer.from(part, 'utf8')
    const length = Buffer.alloc(4)
    length.writeUInt32BE(bytes.length)
    chunks.push(length, bytes)
  }
  return Buffer.concat(chunks)
}

export function createEnvelope(keyring: Keyring) {
  return {
    /** Seals with the newest key version of the purpose, bound to `binding` (e.g. collection, property, object). */
    seal(purpose: RotatablePurpose, plaintext: Uint8Array, binding: readonly string[]): Buffer {
      const { version, key } = keyring.current(purpose)
      return seal(key, version, plaintext, bindingOf(binding))
    },
    /** Opens a value sealed under any version of the purpose; throws DecryptionError on any mismatch. */
    open(purpose: RotatablePurpose, sealed: Uint8Array, binding: readonly string[]): Buffer {
      const version = keyVersionOf(sealed)
      if (version === undefined) throw new DecryptionError('not a v1 ciphertext')
      let key: Uint8Array
      try {
        key = keyring.byVersion(purpose, version)
      } catch {
        throw new DecryptionError('unknown key version')
      }
      return open(key, sealed, bindingOf(binding))
    },
    /** The key version a sealed value was written with (rotation progress, re-encryption). */
    keyVersionOf,
    /** Keyed digest (HMAC-SHA256) under the sub-key of `purpose` for `scope`; never a plain hash. */
    mac(purpose: DerivationPurpose, scope: readonly string[], data: Uint8Array | string): Buffer {
      return hmac(keyring.derive(purpose, bindingOf(scope).toString('base64')), data)
    },
  }
}

export type Envelope = ReturnType<typeof createEnvelope>
export { DecryptionError }
