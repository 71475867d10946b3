// src/core/crypto/keyring.test.ts: data keys created once, shared through the database, rotated, derived
import { afterEach, describe, expect, it } from 'vitest'
import { openTestStore, type TestStore } from '../../../test/helpers/store.ts'
import { bindingOf, createEnvelope, DecryptionError } from './envelope.ts'
import { createKeyring } from './keyring.ts'
import { createLocalKms } from './kms.ts'

const clock = () => 1_700_000_000_000_000
let handles: TestStore[] = []
afterEach(async () => {
  for (const handle of handles) await handle.close()
  handles = []
})

async function store() {
  const handle = await openTestStore()
  handles.push(handle)
  return handle.store
}

describe('local KMS', () => {
  it('unwraps what it wrapped, only with the same seed and context', async () => {
    const kms = createLocalKms('seed-a')
    const wrapped = await kms.wrap(new Uint8Array([1, 2, 3]), 'ctx')
    expect(Array.from(await createLocalKms('seed-a').unwrap(wrapped, 'ctx'))).toEqual([1, 2, 3])
    await expect(createLocalKms('seed-b').unwrap(wrapped, 'ctx')).rejects.toThrow(DecryptionError)
    await expect(kms.unwrap(wrapped, 'other')).rejects.toThrow(DecryptionError)
  })
})

describe('keyring', () => {
  it('unwraps each version once: reloads and rotations keep the keys already loaded', async () => {
    const kms = createLocalKms('seed')
    let unwraps = 0
    const counting = {
      ...kms,
      unwrap: (wrapped: Uint8Array, context: string) => {
        unwraps++
        return kms.unwrap(wrapped, context)
      },
    }
    const keyring = createKeyring({ store: await store(), kms: counting, clock })
    await keyring.load()
    const first = keyring.byVersion('property', 1)
    const afterLoad = unwraps
    for (let i = 0; i < 5; i++) {
      await keyring.rotate()
      await keyring.load()
    }
    // Three rotatable purposes, one new version each per rotation; nothing unwrapped twice.
    expect(unwraps - afterLoad).toBe(5 * 3)
    expect(keyring.byVersion('property', 1)).toBe(first)
    expect(keyring.versions('property')).toEqual([1, 2, 3, 4, 5, 6])
  })

  it('reads only versions it does not hold: a reload with nothing new reads no stored key', async () => {
    const shared = await store()
    let rowsRead = 0
    const counting = {
      keys: {
        ...shared.keys,
        list: async (purpose?: string) => {
          const rows = await shared.keys.list(purpose)
          rowsRead += rows.length
          return rows
        },
        listNewer: async (after: Readonly<Record<string, number>>) => {
          const rows = await shared.keys.listNewer(after)
          rowsRead += rows.length
          return rows
        },
      },
    }
    const keyring = createKeyring({ store: counting, kms: createLocalKms('seed'), clock })
    await keyring.load()
    expect(rowsRead).toBe(7)
    for (let i = 0; i < 5; i++) {
      await keyring.rotate()
      await keyring.load()
      await keyring.load()
    }
    // Three new versions per rotation, each read once; the reloads in between read nothing.
    expect(rowsRead).toBe(7 + 5 * 3)
    // A version another node stored is picked up by the next reload.
    const other = createKeyring({ store: shared, kms: createLocalKms('seed'), clock })
    await other.load()
    await other.rotate()
    await keyring.load()
    expect(rowsRead).toBe(7 + 6 * 3)
    expect(keyring.versions('token')).toEqual([1, 2, 3, 4, 5, 6, 7])
    expect(Buffer.from(keyring.current('token').key)).toEqual(
      Buffer.from(other.current('token').key),
    )
  })

  it('keeps each key in bytes of its own, not a view of a shared buffer pool slab', async () => {
    const keyring = createKeyring({ store: await store(), kms: createLocalKms('seed'), clock })
    await keyring.load()
    await keyring.rotate()
    for (const version of [1, 2]) {
      const key = keyring.byVersion('property', version)
      expect(key.byteLength).toBe(32)
      expect(key.buffer.byteLength).toBe(32)
    }
  })

  it('creates version 1 of every purpose once, and a second node loads the same keys', async () => {
    const shared = await store()
    const kms = createLocalKms('seed')
    const a = createKeyring({ store: shared, kms, clock })
    const b = createKeyring({ store: shared, kms, clock })
    await Promise.all([a.load(), b.load()])
    expect(a.versions('property')).toEqual([1])
    expect(
      Buffer.from(a.current('property').key).equals(Buffer.from(b.current('property').key)),
    ).toBe(true)
    expect((await shared.keys.list()).length).toBe(7)
  })

  it('keeps only wrapped keys in the database', async () => {
    const shared = await store()
    const keyring = createKeyring({ store: shared, kms: createLocalKms('seed'), clock })
    await keyring.load()
    const stored = (await shared.keys.list('property'))[0]?.wrapped ?? new Uint8Array()
    expect(Buffer.from(stored).includes(Buffer.from(keyring.current('property').key))).toBe(false)
  })

  it('rotates encryption keys: new seals use the new version, old ones still open', async () => {
    const keyring = createKeyring({ store: await store(), kms: createLocalKms('seed'), clock })
    await keyring.load()
    const envelope = createEnvelope(keyring)
    const old = envelope.seal('property', Buffer.from('v'), ['c', 'p', 'o'])
    await keyring.rotate()
    const fresh = envelope.seal('property', Buffer.from('v'), ['c', 'p', 'o'])
    expect([envelope.keyVersionOf(old), envelope.keyVersionOf(fresh)]).toEqual([1, 2])
    expect(envelope.open('property', old, ['c', 'p', 'o']).toString()).toBe('v')
    expect(keyring.versions('blind_index')).toEqual([1])
  })

  it('binds a sealed value to its place', async () => {
    const keyring = createKeyring({ store: await store(), kms: createLocalKms('seed'), clock })
    await keyring.load()
    const envelope = createEnvelope(keyring)
    const sealed = envelope.seal('property', Buffer.from('v'), ['people', 'ssn', 'id-1'])
    expect(() => envelope.open('property', sealed, ['people', 'ssn', 'id-2'])).toThrow(
      DecryptionError,
    )
    expect(() => envelope.open('property', sealed, ['people', 'email', 'id-1'])).toThrow(
      DecryptionError,
    )
    expect(() => envelope.open('token', sealed, ['people', 'ssn', 'id-1'])).toThrow(DecryptionError)
  })

  it('derives stable per-scope MACs that differ across scopes and seeds', async () => {
    const shared = await store()
    const keyringA = createKeyring({ store: shared, kms: createLocalKms('seed'), clock })
    await keyringA.load()
    const envA = createEnvelope(keyringA)
    const first = envA.mac('blind_index', ['people', 'ssn'], '123-45-6789')
    expect(envA.mac('blind_index', ['people', 'ssn'], '123-45-6789').equals(first)).toBe(true)
    expect(envA.mac('blind_index', ['people', 'tax_id'], '123-45-6789').equals(first)).toBe(false)
    const other = createKeyring({ store: await store(), kms: createLocalKms('seed'), clock })
    await other.load()
    expect(
      createEnvelope(other).mac('blind_index', ['people', 'ssn'], '123-45-6789').equals(first),
    ).toBe(false)
  })

  it('length-prefixes binding parts so different splits never collide', () => {
    expect(bindingOf(['ab', 'c']).equals(bindingOf(['a', 'bc']))).toBe(false)
  })
})
