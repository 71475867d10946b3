// src/core/crypto/aead.test.ts: the v1 AEAD: round trip, batches, binding, tamper detection, IVs, keystream hygiene
import { createCipheriv, randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  AEAD_OVERHEAD,
  createIvPool,
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

describe('IVs', () => {
  /** A fill that writes 16-byte blocks numbered on from where its last call stopped. */
  function countingFill() {
    const state = { fills: 0, next: 0n }
    const fill = (target: Buffer) => {
      state.fills++
      for (let offset = 0; offset < target.length; offset += 16) {
        target.writeBigUInt64BE(0n, offset)
        target.writeBigUInt64BE(state.next++, offset + 8)
      }
    }
    return { state, fill }
  }
  const ivsOf = (bytes: Buffer) =>
    Array.from({ length: bytes.length / 16 }, (_, i) => bytes.subarray(i * 16, (i + 1) * 16))

  it('the pool never hands out the same bytes twice, across refills and for any batch size', () => {
    // Every block the fill writes is distinct, so a repeat can only be the pool reusing bytes.
    const { state, fill } = countingFill()
    const pool = createIvPool(fill)
    const first = pool(3)
    const kept = Buffer.from(first)
    const seen = new Set<string>(ivsOf(first).map((iv) => iv.toString('hex')))
    let handed = 3
    for (let round = 0; round < 40; round++) {
      for (const count of [1, 2, 17, 255, 256, 257, 1000, 31]) {
        const ivs = pool(count)
        expect(ivs.length).toBe(16 * count)
        for (const iv of ivsOf(ivs)) seen.add(iv.toString('hex'))
        handed += count
      }
    }
    expect(seen.size).toBe(handed)
    expect(state.fills).toBeGreaterThan(100)
    // A result is a copy: refills never change IVs already handed out.
    expect(first.equals(kept)).toBe(true)
  })

  it("sealing takes one fresh IV per value from the key's source", () => {
    const { fill } = countingFill()
    const reference = createIvPool(countingFill().fill)
    const key = deriveAeadKey(randomBytes(32), 1, createIvPool(fill))
    for (const count of [1, 200, 300, 5]) {
      const sealed = sealMany(
        key,
        Array.from({ length: count }, () => ({ plaintext: Buffer.from('x'), aad })),
      )
      const expected = ivsOf(reference(count))
      expect(sealed.map((s) => s.subarray(5, 21).toString('hex'))).toEqual(
        expected.map((iv) => iv.toString('hex')),
      )
    }
  })

  it('the CSPRNG pool gives no repeated IV over many refills', () => {
    const seen = new Set<string>()
    const items = Array.from({ length: 100 }, () => ({ plaintext: Buffer.from('x'), aad }))
    for (let batch = 0; batch < 200; batch++)
      for (const sealed of sealMany(key, items)) seen.add(sealed.subarray(5, 21).toString('hex'))
    expect(seen.size).toBe(200 * 100)
  })
})

describe('keystream hygiene', () => {
  it('zeroes the keystream of every seal and open once used', () => {
    const streams: Buffer[] = []
    const watched = {
      ...key,
      blocks: (counters: Buffer) => {
        const stream = key.blocks(counters)
        streams.push(stream)
        return stream
      },
    }
    const plaintexts = [Buffer.from('123-45-6789'), randomBytes(100)]
    const sealed = sealMany(
      watched,
      plaintexts.map((plaintext) => ({ plaintext, aad })),
    )
    const opened = openMany(
      watched,
      sealed.map((s) => ({ sealed: s, aad })),
    )
    expect(opened).toEqual(plaintexts)
    expect(streams.map((s) => s.length)).toEqual([128, 128])
    for (const stream of streams) expect(stream.every((byte) => byte === 0)).toBe(true)
  })
})
