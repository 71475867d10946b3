// src/core/values/sealing.test.ts: sealed property values round-trip and stay bound to their place
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestStore, type TestStore } from '../../../test/helpers/store.ts'
import { createEnvelope, DecryptionError, type Envelope } from '../crypto/envelope.ts'
import { createKeyring } from '../crypto/keyring.ts'
import { createLocalKms } from '../crypto/kms.ts'
import { openObjects, sealObjects } from './sealing.ts'

let handle: TestStore
let envelope: Envelope
beforeAll(async () => {
  handle = await openTestStore()
  const keyring = createKeyring({
    store: handle.store,
    kms: createLocalKms('seed'),
    clock: () => 1,
  })
  await keyring.load()
  envelope = createEnvelope(keyring)
})
afterAll(() => handle.close())

describe('sealing object values', () => {
  it('round-trips values of many objects in one batch, and only the properties asked for', () => {
    const objects = [
      { collection: 'people', objectId: 'o1', values: { ssn: '123-45-6789', email: 'a@b.co' } },
      {
        collection: 'people',
        objectId: 'o2',
        values: { ssn: '987-65-4321', age: 42, tags: { a: [1, null] } },
      },
    ]
    const sealed = sealObjects(envelope, objects)
    expect(JSON.stringify(sealed)).not.toContain('123-45-6789')
    const opened = openObjects(
      envelope,
      objects.map((o, i) => ({
        collection: o.collection,
        objectId: o.objectId,
        sealed: sealed[i] ?? {},
      })),
    )
    expect(opened).toEqual(objects.map((o) => o.values))
    const some = openObjects(envelope, [
      {
        collection: 'people',
        objectId: 'o2',
        sealed: sealed[1] ?? {},
        properties: ['age', 'missing'],
      },
    ])
    expect(some).toEqual([{ age: 42 }])
  })

  it('refuses a value moved to another object or property', () => {
    const [sealed] = sealObjects(envelope, [
      { collection: 'people', objectId: 'o1', values: { ssn: '123-45-6789' } },
    ])
    const moved = { ssn: sealed?.ssn as string }
    expect(() =>
      openObjects(envelope, [{ collection: 'people', objectId: 'o2', sealed: moved }]),
    ).toThrow(DecryptionError)
    expect(() =>
      openObjects(envelope, [
        { collection: 'people', objectId: 'o1', sealed: { tax_id: moved.ssn } },
      ]),
    ).toThrow(DecryptionError)
  })
})
