// src/core/keys/rotation.test.ts: the re-encryption job on a real store: objects moved to new keys, one worker, resume, races
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openTestStore, type TestStore } from '../../../test/helpers/store.ts'
import { createEnvelope, type Envelope } from '../crypto/envelope.ts'
import { createKeyring, type Keyring } from '../crypto/keyring.ts'
import { createLocalKms } from '../crypto/kms.ts'
import { createObjectsReencryption } from '../objects/reencryption.ts'
import type { ObjectRecord } from '../objects/store.ts'
import type { Store } from '../store.ts'
import { sealObjects } from '../values/sealing.ts'
import {
  createReencryptionJob,
  type ReencryptionDeps,
  type ReencryptionSource,
} from './rotation.ts'

let handle: TestStore
let store: Store
let keyring: Keyring
let envelope: Envelope
const clock = () => Date.now() * 1000

beforeEach(async () => {
  handle = await openTestStore()
  store = handle.store
  keyring = createKeyring({ store, kms: createLocalKms('seed'), clock })
  await keyring.load()
  envelope = createEnvelope(keyring)
})
afterEach(() => handle.close())

async function addObjects(collection: string, count: number): Promise<void> {
  await store.collections.insert({
    id: collection,
    name: collection,
    type: 'DATA',
    properties: [],
    createdAt: 1,
    modifiedAt: 1,
  })
  const rows: ObjectRecord[] = Array.from({ length: count }, (_, i) => {
    const id = `${collection}-${String(i).padStart(4, '0')}`
    const [sealed] = sealObjects(envelope, [
      { collection, objectId: id, values: { ssn: `ssn-${i}`, n: i } },
    ])
    return {
      collection,
      id,
      tenantId: undefined,
      ownerId: undefined,
      ownerCollection: undefined,
      createdAt: 1000 + i,
      modifiedAt: 1000 + i,
      expiresAt: i % 5 === 0 ? 1 : undefined,
      version: 3,
      fields: '{}',
      sealed: JSON.stringify(sealed),
      digests: '{}',
    }
  })
  await store.objects.insert(rows)
}

async function versionsIn(collection: string): Promise<number[]> {
  const rows = await store.objects.search(
    { collection, state: 'all', now: clock() },
    [],
    undefined,
    10_000,
  )
  return rows.flatMap((row) =>
    Object.values(JSON.parse(row.sealed) as Record<string, string>).map(
      (value) => envelope.keyVersionOf(Buffer.from(value, 'base64')) ?? 0,
    ),
  )
}

function job(overrides: Partial<ReencryptionDeps> = {}) {
  return createReencryptionJob({
    store,
    keyring,
    clock,
    sources: [createObjectsReencryption({ store, envelope })],
    workerId: 'w1',
    batchSize: 7,
    pauseMs: 0,
    settleMs: 0,
    pollMs: 60_000,
    leaseMs: 60_000,
    ...overrides,
  })
}

async function until(condition: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (await condition()) return
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  throw new Error('condition not met in time')
}

describe('re-encryption job', () => {
  it('has nothing to do before any rotation', async () => {
    await addObjects('people', 3)
    const worker = job()
    worker.kick()
    await worker.idle()
    expect(await worker.state()).toBeUndefined()
  })

  it('moves every sealed value of every collection, archived rows included, to the newest version', async () => {
    await addObjects('people', 30)
    await addObjects('orders', 12)
    await keyring.rotate()
    const worker = job()
    worker.kick()
    await until(async () => (await worker.state())?.finishedAt !== undefined)
    expect(new Set([...(await versionsIn('people')), ...(await versionsIn('orders'))])).toEqual(
      new Set([2]),
    )
    const state = await worker.state()
    expect(state).toMatchObject({
      targets: { property: 2 },
      reencrypted: 42,
      conflicts: 0,
      failures: 0,
      pass: 2,
    })
    const rows = await store.objects.get('people', ['people-0001'])
    expect(rows[0]?.version).toBe(3)
  })

  it('resumes where a stopped worker left off, on another node', async () => {
    await addObjects('people', 40)
    await keyring.rotate()
    const first = job({ pauseMs: 30 })
    first.kick()
    await until(async () => ((await first.state())?.scanned ?? 0) >= 14)
    await first.stop()
    const saved = await first.state()
    expect(saved?.finishedAt).toBeUndefined()
    expect(saved?.reencrypted).toBeLessThan(40)
    const second = job({ workerId: 'w2' })
    second.kick()
    await until(async () => (await second.state())?.finishedAt !== undefined)
    expect((await second.state())?.reencrypted).toBe(40)
    expect((await second.state())?.rotatedAt).toBe(saved?.rotatedAt)
    expect(new Set(await versionsIn('people'))).toEqual(new Set([2]))
  })

  it('lets one worker at a time hold the lease', async () => {
    let active = 0
    let maxActive = 0
    let steps = 0
    const source: ReencryptionSource = {
      name: 'counting',
      purpose: 'property',
      async step({ position }) {
        active++
        maxActive = Math.max(maxActive, active)
        await new Promise((resolve) => setTimeout(resolve, 2))
        active--
        steps++
        const n = Number(position ?? 0) + 1
        return {
          next: n < 20 ? String(n) : undefined,
          scanned: 1,
          reencrypted: 0,
          conflicts: 0,
          failures: 0,
        }
      },
    }
    await keyring.rotate()
    const workers = ['a', 'b', 'c'].map((workerId) => job({ workerId, sources: [source] }))
    for (const worker of workers) worker.kick()
    await until(async () => (await workers[0]?.state())?.finishedAt !== undefined)
    await Promise.all(workers.map((worker) => worker.idle()))
    expect(maxActive).toBe(1)
    expect(steps).toBe(20)
  })

  it('retries a row another write changed first, in the next pass', async () => {
    await addObjects('people', 5)
    await keyring.rotate()
    let isRaced = false
    const racing: Store = {
      ...store,
      async transaction(work, options) {
        if (!isRaced) {
          isRaced = true
          const [row] = await store.objects.get('people', ['people-0002'])
          if (row) await store.objects.replace({ ...row, version: row.version + 1 }, row.version)
        }
        return store.transaction(work, options)
      },
    }
    const worker = job({ sources: [createObjectsReencryption({ store: racing, envelope })] })
    worker.kick()
    await until(async () => (await worker.state())?.finishedAt !== undefined)
    expect(await worker.state()).toMatchObject({ conflicts: 1, reencrypted: 5 })
    expect(new Set(await versionsIn('people'))).toEqual(new Set([2]))
  })

  it('reports stored values that fail authentication and still finishes', async () => {
    await addObjects('people', 4)
    const [row] = await store.objects.get('people', ['people-0001'])
    const sealed = JSON.parse(row?.sealed ?? '{}') as Record<string, string>
    const bytes = Buffer.from(sealed.ssn ?? '', 'base64')
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] as number) ^ 1
    await store.objects.replace(
      {
        ...(row as ObjectRecord),
        sealed: JSON.stringify({ ...sealed, ssn: bytes.toString('base64') }),
      },
      3,
    )
    await keyring.rotate()
    const worker = job()
    worker.kick()
    await until(async () => (await worker.state())?.finishedAt !== undefined)
    expect(await worker.state()).toMatchObject({ reencrypted: 3, failures: 2 })
  })

  it('starts over for a newer rotation during a pass', async () => {
    await addObjects('people', 30)
    await keyring.rotate()
    const worker = job({ pauseMs: 20 })
    worker.kick()
    await until(async () => ((await worker.state())?.scanned ?? 0) >= 7)
    await keyring.rotate()
    worker.kick()
    await until(async () => {
      const state = await worker.state()
      return state?.targets.property === 3 && state.finishedAt !== undefined
    })
    expect(new Set(await versionsIn('people'))).toEqual(new Set([3]))
    await worker.stop()
  })
})
