// src/core/crypto/aead.test.ts: the v1 AEAD: round trip, batches, binding, tamper detection, known answer
import { createCipheriv, randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  AEAD_OVERHEAD,
  DecryptionError,
  deriveAeadKey,
  keyVersionOf,
  open,
  openMany,
  seal,
  sealMany,
} from './aead.ts'

const key = deriveAeadKey(randomBytes(32), 7)
const aad = Buffer.from('people|ssn|0b6f')

describe('aead v1 (AES-256-CTR + HMAC-SHA256)', () => {
  it('round-trips and names its key version', () => {
    const sealed = seal(key, Buffer.from('123-45-6789'), aad)
    expect(sealed.length).toBe(11 + AEAD_OVERHEAD)
    expect(keyVersionOf(sealed)).toBe(7)
    expect(open(key, sealed, aad).toString()).toBe('123-45-6789')
  })

  it('round-trips batches of many lengths, including empty and multi-block values', () => {
    const plaintexts = Array.from({ length: 60 }, (_, i) => randomBytes(i * 3))
    const sealed = sealMany(
      key,
      plaintexts.map((plaintext, i) => ({ plaintext, aad: Buffer.from(`a${i}`) })),
    )
    const opened = openMany(
      key,
      sealed.map((s, i) => ({ sealed: s, aad: Buffer.from(`a${i}`) })),
    )
    for (const [i, plaintext] of opened.entries()) {
      expect(plaintext.equals(plaintexts[i] as Buffer)).toBe(true)
    }
  })

  it('is AES-256-CTR under the derived key: the ciphertext matches an independent CTR encryption', () => {
    const dataKey = randomBytes(32)
    const derived = deriveAeadKey(dataKey, 1)
    // The key's ECB cipher is reused from call to call: every call must still be plain CTR.
    for (const length of [50, 16, 1, 33]) {
      const plaintext = randomBytes(length)
      const sealed = seal(derived, plaintext, aad)
      const iv = sealed.subarray(5, 21)
      const reference = createCipheriv('aes-256-ctr', derived.enc, iv).update(plaintext)
      expect(sealed.subarray(21, 21 + length).equals(reference)).toBe(true)
    }
  })

  it('tags with truncated HMAC-SHA256 over header, IV, AAD length, AAD and ciphertext', () => {
    const sealed = seal(key, Buffer.from('x'), aad)
    const length = Buffer.alloc(8)
    length.writeBigUInt64BE(BigInt(aad.length))
    const body = Buffer.concat([sealed.subarray(0, 21), length, aad, sealed.subarray(21, 22)])
    expect(key.mac(body).subarray(0, 16).equals(sealed.subarray(22))).toBe(true)
  })

  it('gives different ciphertexts for equal plaintexts (random IVs)', () => {
    expect(seal(key, Buffer.from('x'), aad).equals(seal(key, Buffer.from('x'), aad))).toBe(false)
  })

  it('detects a flipped bit at every byte position', () => {
    const sealed = seal(key, Buffer.from('4111111111111111'), aad)
    for (let i = 0; i < sealed.length; i++) {
      const tampered = Buffer.from(sealed)
      tampered[i] = (tampered[i] ?? 0) ^ 0x01
      expect(() => open(key, tampered, aad), `byte ${i}`).toThrow(DecryptionError)
    }
  })

  it('refuses other associated data, another key, another version and truncated input', () => {
    const sealed = seal(key, Buffer.from('secret'), aad)
    expect(() => open(key, sealed, Buffer.from('people|ssn|other'))).toThrow(DecryptionError)
    expect(() => open(deriveAeadKey(randomBytes(32), 7), sealed, aad)).toThrow(DecryptionError)
    expect(() => open(deriveAeadKey(randomBytes(32), 8), sealed, aad)).toThrow(DecryptionError)
    expect(() => open(key, sealed.subarray(0, 20), aad)).toThrow(DecryptionError)
    expect(() => open(key, Buffer.alloc(0), aad)).toThrow(DecryptionError)
  })
})
