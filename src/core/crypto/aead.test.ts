// src/core/crypto/aead.test.ts: AES-256-GCM v1 format: round trip, binding, tamper detection
import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { AEAD_OVERHEAD, DecryptionError, keyVersionOf, open, seal } from './aead.ts'

const key = randomBytes(32)
const aad = Buffer.from('people|ssn|0b6f')

describe('aead v1', () => {
  it('round-trips and names its key version', () => {
    const sealed = seal(key, 7, Buffer.from('123-45-6789'), aad)
    expect(sealed.length).toBe(11 + AEAD_OVERHEAD)
    expect(keyVersionOf(sealed)).toBe(7)
    expect(open(key, sealed, aad).toString()).toBe('123-45-6789')
  })

  it('gives different ciphertexts for equal plaintexts (random nonce)', () => {
    expect(seal(key, 1, Buffer.from('x'), aad).equals(seal(key, 1, Buffer.from('x'), aad))).toBe(
      false,
    )
  })

  it('detects a flipped bit at every byte position', () => {
    const sealed = seal(key, 3, Buffer.from('4111111111111111'), aad)
    for (let i = 0; i < sealed.length; i++) {
      const tampered = Buffer.from(sealed)
      tampered[i] = (tampered[i] ?? 0) ^ 0x01
      expect(() => open(key, tampered, aad), `byte ${i}`).toThrow(DecryptionError)
    }
  })

  it('refuses other associated data, another key and truncated input', () => {
    const sealed = seal(key, 1, Buffer.from('secret'), aad)
    expect(() => open(key, sealed, Buffer.from('people|ssn|other'))).toThrow(DecryptionError)
    expect(() => open(randomBytes(32), sealed, aad)).toThrow(DecryptionError)
    expect(() => open(key, sealed.subarray(0, 20), aad)).toThrow(DecryptionError)
    expect(() => open(key, Buffer.alloc(0), aad)).toThrow(DecryptionError)
  })
})
