// src/core/crypto-api/ciphertext.test.ts: encrypt-API ciphertexts round-trip, stay bound to collection and scope, and resist tampering
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestStore, type TestStore } from '../../../test/helpers/store.ts'
import { createDeterministicCipher } from '../crypto/deterministic.ts'
import { createEnvelope } from '../crypto/envelope.ts'
import { createKeyring } from '../crypto/keyring.ts'
import { createLocalKms } from '../crypto/kms.ts'
import { isVaultError } from '../errors.ts'
import {
  type Ciphertexts,
  createCiphertexts,
  decodeBase64,
  type EncryptionType,
  type SealInput,
} from './ciphertext.ts'

let handle: TestStore
let ciphertexts: Ciphertexts
beforeAll(async () => {
  handle = await openTestStore()
  const keyring = createKeyring({
    store: handle.store,
    kms: createLocalKms('seed'),
    clock: () => 1,
  })
  await keyring.load()
  ciphertexts = createCiphertexts({
    envelope: createEnvelope(keyring),
    siv: createDeterministicCipher(keyring),
  })
})
afterAll(() => handle.close())

const metadata = { expiresAt: 1_900_000_000, tags: ['a', 'b'], createdAt: 1_700_000_000_000_000 }

function input(
  type: EncryptionType,
  fields: Record<string, unknown> = { ssn: '123-45-6789' },
): SealInput {
  return {
    collection: 'people',
    scope: 'pii',
    type,
    payload: {
      metadata:
        type === 'deterministic' ? { ...metadata, tags: [], createdAt: undefined } : metadata,
      content: { kind: 'fields', fields },
    },
  }
}

function expectInvalid(work: () => unknown): void {
  try {
    work()
  } catch (error) {
    expect(isVaultError(error) && error.code === 'ERR1012' && error.status === 400).toBe(true)
    expect((error as Error).message).toBe(
      'The ciphertext is not valid for this collection and scope.',
    )
    return
  }
  throw new Error('expected the invalid-ciphertext error')
}

describe('encrypt-API ciphertexts', () => {
  it('round-trips both types in one batch, with their metadata', () => {
    const sealed = ciphertexts.sealAll([input('randomized'), input('deterministic', { n: 1 })])
    const opened = ciphertexts.openAll(
      sealed.map((bytes) => ({ bytes, collection: 'people', scope: 'pii' })),
    )
    expect(opened[0]).toEqual({
      type: 'randomized',
      metadata,
      content: { kind: 'fields', fields: { ssn: '123-45-6789' } },
    })
    expect(opened[1]?.type).toBe('deterministic')
    expect(opened[1]?.content).toEqual({ kind: 'fields', fields: { n: 1 } })
    expect(sealed[0]?.toString('latin1')).not.toContain('123-45-6789')
  })

  it('is random for randomized and equal for deterministic inputs, whatever the key order', () => {
    const [a, b] = ciphertexts.sealAll([input('randomized'), input('randomized')])
    expect(a?.equals(b as Buffer)).toBe(false)
    const [c, d] = ciphertexts.sealAll([
      input('deterministic', { x: 1, y: 2 }),
      input('deterministic', { y: 2, x: 1 }),
    ])
    expect(c?.equals(d as Buffer)).toBe(true)
  })

  it('round-trips blob bytes', () => {
    const bytes = Buffer.from([0, 255, 1, 2])
    const [sealed] = ciphertexts.sealAll([
      {
        ...input('randomized'),
        payload: { metadata, content: { kind: 'blob', property: 'file', bytes } },
      },
    ])
    const [opened] = ciphertexts.openAll([
      { bytes: sealed as Buffer, collection: 'people', scope: 'pii' },
    ])
    expect(opened?.content).toEqual({ kind: 'blob', property: 'file', bytes })
  })

  it.each(['randomized', 'deterministic'] as const)(
    'refuses a %s ciphertext with another scope or collection, with one message',
    (type) => {
      const [bytes] = ciphertexts.sealAll([input(type)]) as [Buffer]
      expectInvalid(() => ciphertexts.openAll([{ bytes, collection: 'people', scope: '' }]))
      expectInvalid(() => ciphertexts.openAll([{ bytes, collection: 'others', scope: 'pii' }]))
    },
  )

  it.each(['randomized', 'deterministic'] as const)(
    'detects a change at every byte position and every truncation of a %s ciphertext',
    (type) => {
      const [bytes] = ciphertexts.sealAll([input(type)]) as [Buffer]
      for (let i = 0; i < bytes.length; i++) {
        for (const flip of [0x01, 0x80, 0xff]) {
          const tampered = Buffer.from(bytes)
          tampered[i] = (tampered[i] as number) ^ flip
          expectInvalid(() =>
            ciphertexts.openAll([{ bytes: tampered, collection: 'people', scope: 'pii' }]),
          )
        }
      }
      for (let length = 0; length < bytes.length; length++) {
        const truncated = bytes.subarray(0, length)
        expectInvalid(() =>
          ciphertexts.openAll([{ bytes: truncated, collection: 'people', scope: 'pii' }]),
        )
      }
      const extended = Buffer.concat([bytes, Buffer.from([0])])
      expectInvalid(() =>
        ciphertexts.openAll([{ bytes: extended, collection: 'people', scope: 'pii' }]),
      )
    },
  )

  it('fails the whole batch when one item is invalid', () => {
    const [good, bad] = ciphertexts.sealAll([input('randomized'), input('randomized')]) as Buffer[]
    expectInvalid(() =>
      ciphertexts.openAll([
        { bytes: good as Buffer, collection: 'people', scope: 'pii' },
        { bytes: bad as Buffer, collection: 'people', scope: 'other' },
      ]),
    )
  })

  it('accepts only padded standard base64', () => {
    expect(decodeBase64('AQID').equals(Buffer.from([1, 2, 3]))).toBe(true)
    expect(decodeBase64('AQI=').equals(Buffer.from([1, 2]))).toBe(true)
    for (const text of ['AQI', 'AQ-_', 'A Q I D', 'AQID=', '====', 'AQ==AQ=='])
      expectInvalid(() => decodeBase64(text))
  })
})
