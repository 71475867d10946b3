// src/core/crypto/deterministic.test.ts: AES-SIV ciphertexts are deterministic, bound to their data, and tamper-evident
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestStore, type TestStore } from '../../../test/helpers/store.ts'
import { DecryptionError } from './aead.ts'
import { createDeterministicCipher, type DeterministicCipher } from './deterministic.ts'
import { createKeyring } from './keyring.ts'
import { createLocalKms } from './kms.ts'

let handle: TestStore
let siv: DeterministicCipher
const aad = [Buffer.from('header'), Buffer.from('people|scope')]
beforeAll(async () => {
  handle = await openTestStore()
  const keyring = createKeyring({
    store: handle.store,
    kms: createLocalKms('seed'),
    clock: () => 1,
  })
  await keyring.load()
  siv = createDeterministicCipher(keyring)
})
afterAll(() => handle.close())

describe('deterministic cipher (AES-256-SIV)', () => {
  it('gives equal ciphertexts for equal inputs and opens them', () => {
    const a = siv.seal('people', aad, Buffer.from('{"ssn":"123-45-6789"}'))
    const b = siv.seal('people', aad, Buffer.from('{"ssn":"123-45-6789"}'))
    expect(a.equals(b)).toBe(true)
    expect(a.toString()).not.toContain('123-45-6789')
    expect(siv.open('people', aad, a).toString()).toBe('{"ssn":"123-45-6789"}')
  })

  it('gives unrelated ciphertexts for another value, context or associated data', () => {
    const base = siv.seal('people', aad, Buffer.from('x'))
    expect(siv.seal('people', aad, Buffer.from('y')).equals(base)).toBe(false)
    expect(siv.seal('orders', aad, Buffer.from('x')).equals(base)).toBe(false)
    expect(siv.seal('people', [aad[0] as Buffer], Buffer.from('x')).equals(base)).toBe(false)
  })

  it('refuses another context or associated data', () => {
    const sealed = siv.seal('people', aad, Buffer.from('x'))
    expect(() => siv.open('orders', aad, sealed)).toThrow(DecryptionError)
    expect(() => siv.open('people', [Buffer.from('header')], sealed)).toThrow(DecryptionError)
  })

  it('detects a change at every byte position and any truncation', () => {
    const sealed = siv.seal('people', aad, Buffer.from('a value of some length'))
    for (let i = 0; i < sealed.length; i++) {
      const tampered = Buffer.from(sealed)
      tampered[i] = (tampered[i] as number) ^ 0x01
      expect(() => siv.open('people', aad, tampered), `byte ${i}`).toThrow(DecryptionError)
    }
    for (let length = 0; length < sealed.length; length++)
      expect(() => siv.open('people', aad, sealed.subarray(0, length))).toThrow(DecryptionError)
  })
})
