// src/core/objects/seal-thread.test.ts: the sealing thread computes what inline sealing computes
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { openTestStore, type TestStore } from '../../../test/helpers/store.ts'
import type { StoredCollection, StoredProperty } from '../collections/collection.ts'
import { createEnvelope, type Envelope } from '../crypto/envelope.ts'
import { createKeyring, type Keyring } from '../crypto/keyring.ts'
import { createLocalKms } from '../crypto/kms.ts'
import { openObjects } from '../values/sealing.ts'
import { createIndexing } from './indexing.ts'
import { createSealThread, type SealThread } from './seal-thread.ts'

const property = (name: string, flags: Partial<StoredProperty>): StoredProperty => ({
  id: name,
  name,
  dataType: 'STRING',
  description: '',
  isEncrypted: true,
  isIndex: false,
  isSubstringIndex: false,
  isNullable: true,
  isUnique: false,
  createdAt: 1,
  modifiedAt: 1,
  ...flags,
})

const PEOPLE: StoredCollection = {
  id: 'c1',
  name: 'people',
  type: 'PERSONS',
  createdAt: 1,
  modifiedAt: 1,
  properties: [
    property('ssn', { isUnique: true }),
    property('email', { isIndex: true }),
    property('name', { isSubstringIndex: true }),
    property('age', { isEncrypted: false }),
    property('city', { isEncrypted: false, isIndex: true }),
  ],
}

let handle: TestStore
let keyring: Keyring
let envelope: Envelope
let thread: SealThread
beforeAll(async () => {
  handle = await openTestStore()
  keyring = createKeyring({ store: handle.store, kms: createLocalKms('seed'), clock: () => 1 })
  await keyring.load()
  envelope = createEnvelope(keyring)
  thread = createSealThread(envelope, createIndexing(envelope))
})
afterAll(async () => {
  await thread.stop()
  await handle.close()
})

const objects = Array.from({ length: 300 }, (_, i) => ({
  id: `o${i}`,
  values: {
    ssn: `123-45-${String(1000 + i)}`,
    ...(i % 3 === 0 ? {} : { email: `p${i}@example.com` }),
    name: `Person ${i} Ünïcode`,
    age: i,
    ...(i % 2 === 0 ? { city: 'Paris' } : { city: null }),
  },
}))

describe('the sealing thread', () => {
  it('gives the plain values and digests of inline sealing, and values that open the same', async () => {
    const inline = thread.seal(PEOPLE, objects)
    const aside = await thread.sealAside(PEOPLE, objects)
    expect(aside.map((w) => [w.plain, w.digests])).toEqual(inline.map((w) => [w.plain, w.digests]))
    expect(aside.map((w) => Object.keys(w.sealed))).toEqual(
      inline.map((w) => Object.keys(w.sealed)),
    )
    // Fresh IVs: the ciphertexts differ, the plaintexts they open to do not.
    expect(aside[0]?.sealed.ssn).not.toEqual(inline[0]?.sealed.ssn)
    const open = (written: typeof inline) =>
      openObjects(
        envelope,
        written.map((w, i) => ({ collection: 'people', objectId: `o${i}`, sealed: w.sealed })),
      )
    expect(open(aside)).toEqual(open(inline))
    expect(open(aside)[7]).toEqual({
      ssn: '123-45-1007',
      email: 'p7@example.com',
      name: 'Person 7 Ünïcode',
    })
  })

  it('seals under the newest key version after a rotation, and binds values to their object', async () => {
    await keyring.rotate()
    const [written] = await thread.sealAside(PEOPLE, objects.slice(0, 1))
    const sealed = Buffer.from(written?.sealed.ssn ?? '', 'base64')
    expect(envelope.keyVersionOf(sealed)).toBe(keyring.current('property').version)
    expect(() =>
      openObjects(envelope, [
        { collection: 'people', objectId: 'o2', sealed: written?.sealed ?? {} },
      ]),
    ).toThrow()
  })

  it('stops once it has been idle, and starts again for the next job', async () => {
    const idle = createSealThread(envelope, createIndexing(envelope), { idleMs: 1 })
    try {
      const first = await idle.sealAside(PEOPLE, objects.slice(0, 3))
      await vi.waitFor(() => expect(idle.isStarted).toBe(false))
      const again = await idle.sealAside(PEOPLE, objects.slice(0, 3))
      expect(again.map((w) => [w.plain, w.digests])).toEqual(first.map((w) => [w.plain, w.digests]))
      expect(idle.isStarted).toBe(true)
    } finally {
      await idle.stop()
    }
  })

  it('starts again after being stopped', async () => {
    await thread.stop()
    expect(await thread.sealAside(PEOPLE, objects.slice(0, 2))).toHaveLength(2)
  })
})
