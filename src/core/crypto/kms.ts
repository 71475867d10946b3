// src/core/crypto/kms.ts: the KMS port (root of the key hierarchy) and the local, seed-based KMS
import { createHash, hkdfSync } from 'node:crypto'
import { deriveAeadKey, type IvSource, open, seal } from './aead.ts'

export type KmsType = 'LOCAL' | 'AWS' | 'GCP' | 'AZURE'

/**
 * Wraps and unwraps data keys with a root key that never leaves the KMS. A cloud KMS implements
 * the same two calls with its Encrypt/Decrypt API; `context` is bound as associated data
 * (AWS: EncryptionContext, GCP: additionalAuthenticatedData, Azure: not supported → omitted).
 */
export type Kms = {
  readonly type: KmsType
  wrap(key: Uint8Array, context: string): Promise<Uint8Array>
  unwrap(wrapped: Uint8Array, context: string): Promise<Uint8Array>
  /**
   * A key that is a function of the root key and `context` only, the same on every node with
   * this KMS configuration (stateless nodes derive their data keys instead of storing random
   * ones). Absent when the KMS cannot (a cloud KMS would use its MAC API, e.g. AWS GenerateMac).
   */
  derive?(context: string): Promise<Uint8Array>
}

const ROOT_INFO = 'strongroom kms root key v1'
const DERIVE_INFO = 'strongroom kms derived key v1:'

/**
 * The local KMS: the root key is derived from the seed with HKDF-SHA256 (RFC 5869), so any node
 * configured with the same seed unwraps the same data keys. The seed is the secret; keep it out
 * of the database's backups.
 *
 * Wrapped key = the v1 AEAD of aead.ts (version 0) under
 *   root = HKDF-SHA256(UTF-8 seed, salt SHA-256("strongroom kms salt"), info ROOT_INFO, 32 bytes)
 * with AAD the UTF-8 of "kms:" + context (not length-prefixed): "data-key:<purpose>:<version>"
 * for data keys (keyring.ts), "export-key" for the export key.
 *
 * Derived key (stateless nodes) = HKDF-SHA256(root, empty salt, info "strongroom kms derived
 * key v1:" + context, 32 bytes).
 */
export function createLocalKms(seed: string, options: Readonly<{ ivs?: IvSource }> = {}): Kms {
  const salt = createHash('sha256').update('strongroom kms salt').digest()
  const rootKey = new Uint8Array(hkdfSync('sha256', seed, salt, ROOT_INFO, 32))
  const root = deriveAeadKey(rootKey, 0, options.ivs)
  const aad = (context: string) => Buffer.from(`kms:${context}`)
  return {
    type: 'LOCAL',
    async wrap(key, context) {
      return seal(root, key, aad(context))
    },
    async unwrap(wrapped, context) {
      return open(root, wrapped, aad(context))
    },
    async derive(context) {
      return new Uint8Array(
        hkdfSync('sha256', rootKey, Buffer.alloc(0), `${DERIVE_INFO}${context}`, 32),
      )
    },
  }
}
