// test/storage/contract.ts: the Store contract, run on SQLite and on PostgreSQL
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { StoredCollection, StoredProperty } from '../../src/core/collections/collection.ts'
import type { Store } from '../../src/core/store.ts'
import type { TestStore } from '../helpers/store.ts'

const T0 = 1_700_000_000_000_000

function storedProperty(
  id: string,
  name: string,
  extra: Partial<StoredProperty> = {},
): StoredProperty {
  return {
    id,
    name,
    dataType: 'STRING',
    description: '',
    isEncrypted: true,
    isIndex: false,
    isSubstringIndex: false,
    isNullable: false,
    isUnique: false,
    createdAt: T0,
    modifiedAt: T0,
    ...extra,
  }
}

function storedCollection(
  id: string,
  name: string,
  properties: StoredProperty[],
): StoredCollection {
  return { id, name, type: 'PERSONS', properties, createdAt: T0, modifiedAt: T0 }
}

export function describeStoreContract(name: string, open: () => Promise<TestStore>) {
  describe(`Store contract on ${name}`, () => {
    let handle: TestStore
    let store: Store
    beforeAll(async () => {
      handle = await open()
      store = handle.store
    })
    afterAll(() => handle?.close())

    it('reports the latest schema version after migrating', async () => {
      expect(await store.schemaVersion()).toBeGreaterThanOrEqual(1)
      await store.ping()
    })

    it('counts generations up from zero without losing concurrent bumps', async () => {
      expect((await store.meta.getGeneration()).generation).toBe(0)
      const results = await Promise.all(
        Array.from({ length: 10 }, () => store.meta.bumpGeneration(T0)),
      )
      expect(new Set(results).size).toBe(10)
      expect(await store.meta.getGeneration()).toEqual({ generation: 10, modifiedAt: T0 })
    })

    it('stores, replaces and deletes meta values', async () => {
      expect(await store.meta.get('k')).toBeUndefined()
      await store.meta.set('k', 'one', T0)
      await store.meta.set('k', 'two', T0)
      expect(await store.meta.get('k')).toBe('two')
      await store.meta.delete('k')
      expect(await store.meta.get('k')).toBeUndefined()
    })

    it('rolls back every write of a failed transaction', async () => {
      await expect(
        store.transaction(async (tx) => {
          await tx.meta.set('rollback', 'x', T0)
          await tx.confvars.set('log_level', 'debug', T0)
          throw new Error('boom')
        }),
      ).rejects.toThrow('boom')
      expect(await store.meta.get('rollback')).toBeUndefined()
      expect((await store.confvars.list()).has('log_level')).toBe(false)
    })

    it('rolls back a transaction whose signal was aborted before commit', async () => {
      const controller = new AbortController()
      const reason = new Error('timed out')
      await expect(
        store.transaction(
          async (tx) => {
            await tx.meta.set('late', 'x', T0)
            controller.abort(reason)
          },
          { signal: controller.signal },
        ),
      ).rejects.toBe(reason)
      expect(await store.meta.get('late')).toBeUndefined()
    })

    it('commits a successful transaction', async () => {
      const value = await store.transaction(async (tx) => {
        await tx.meta.set('committed', 'yes', T0)
        return 42
      })
      expect(value).toBe(42)
      expect(await store.meta.get('committed')).toBe('yes')
    })

    it('appends (one or several at once) and lists audit events in order', async () => {
      const base = {
        requestId: 'r',
        username: 'Admin',
        operation: 'op',
        collection: undefined,
        status: 200,
      }
      await store.audit.insert([
        { ...base, eventId: 'e1', time: T0, outcome: 'success', record: '{"a":1}' },
      ])
      await store.audit.insert([
        { ...base, eventId: 'e2', time: T0 + 1, outcome: 'failure', record: '{}', collection: 'c' },
        { ...base, eventId: 'e3', time: T0 + 2, outcome: 'success', record: '{}' },
      ])
      const rows = await store.audit.list({ limit: 10 })
      expect(rows.map((row) => [row.eventId, row.outcome, row.collection])).toEqual([
        ['e1', 'success', undefined],
        ['e2', 'failure', 'c'],
        ['e3', 'success', undefined],
      ])
      expect(await store.audit.list({ since: T0 + 1, limit: 10 })).toHaveLength(2)
    })

    it('versions the IAM configuration', async () => {
      expect(await store.iam.getConfig()).toBeUndefined()
      expect(await store.iam.setConfig('a = 1', T0)).toBe(1)
      expect(await store.iam.setConfig('a = 2', T0)).toBe(2)
      expect(await store.iam.getConfig()).toEqual({ toml: 'a = 2', version: 2 })
    })

    it('finds API keys by hash and forgets a replaced key at once', async () => {
      const first = new Uint8Array(32).fill(1)
      const second = new Uint8Array(32).fill(2)
      await store.iam.setApiKey({
        username: 'u1',
        keyHash: first,
        expiresAt: T0 + 5,
        createdAt: T0,
      })
      expect((await store.iam.findApiKeyByHash(first))?.username).toBe('u1')
      await store.iam.setApiKey({
        username: 'u1',
        keyHash: second,
        expiresAt: undefined,
        createdAt: T0,
      })
      expect(await store.iam.findApiKeyByHash(first)).toBeUndefined()
      const key = await store.iam.getApiKey('u1')
      expect(key).toEqual({ username: 'u1', keyHash: second, expiresAt: undefined, createdAt: T0 })
      expect(await store.iam.updateApiKeyExpiry('u1', T0 + 9)).toBe(true)
      expect(await store.iam.updateApiKeyExpiry('nobody', T0)).toBe(false)
      expect((await store.iam.getApiKey('u1'))?.expiresAt).toBe(T0 + 9)
    })

    it('deletes the keys of users that left the configuration', async () => {
      await store.iam.setApiKey({
        username: 'keep',
        keyHash: new Uint8Array(32).fill(3),
        expiresAt: undefined,
        createdAt: T0,
      })
      await store.iam.setApiKey({
        username: 'drop',
        keyHash: new Uint8Array(32).fill(4),
        expiresAt: undefined,
        createdAt: T0,
      })
      await store.iam.deleteApiKeysExcept(['keep', 'u1'])
      expect(await store.iam.getApiKey('drop')).toBeUndefined()
      expect(await store.iam.getApiKey('keep')).toBeDefined()
    })

    it('sets, lists and clears confvars', async () => {
      await store.confvars.set('log_level', 'debug', T0)
      await store.confvars.set('log_level', 'warn', T0)
      await store.confvars.set('trace_sql', 'true', T0)
      expect(Object.fromEntries(await store.confvars.list())).toEqual({
        log_level: 'warn',
        trace_sql: 'true',
      })
      await store.confvars.clear()
      expect((await store.confvars.list()).size).toBe(0)
    })

    it('tracks workers and removes stale ones', async () => {
      const worker = {
        workerId: 'w1',
        generationNumber: 3,
        generationCheckedAt: T0,
        refreshIntervalSeconds: 30,
        priority: 0,
        component: 'data,control',
        heartbeatAt: T0,
      }
      await store.workers.upsert(worker)
      await store.workers.upsert({ ...worker, workerId: 'w2', heartbeatAt: T0 + 100 })
      await store.workers.upsert({ ...worker, generationNumber: 4 })
      expect((await store.workers.list()).map((w) => [w.workerId, w.generationNumber])).toEqual([
        ['w1', 4],
        ['w2', 3],
      ])
      expect(await store.workers.removeStale(T0 + 50)).toBe(1)
      await store.workers.remove('w2')
      expect(await store.workers.list()).toEqual([])
    })

    it('refuses a second data key with the same purpose and version', async () => {
      const row = {
        purpose: 'property',
        version: 1,
        wrapped: new Uint8Array([1, 2, 3]),
        createdAt: T0,
      }
      expect(await store.keys.insert(row)).toBe(true)
      expect(await store.keys.insert({ ...row, wrapped: new Uint8Array([9]) })).toBe(false)
      expect(await store.keys.insert({ ...row, version: 2 })).toBe(true)
      const keys = await store.keys.list('property')
      expect(keys.map((key) => [key.version, Array.from(key.wrapped)])).toEqual([
        [1, [1, 2, 3]],
        [2, [1, 2, 3]],
      ])
    })

    it('lists the data key versions above the ones a caller holds', async () => {
      // Purposes of this test only: other tests' keys are in the same database.
      const wrapped = new Uint8Array([1, 2, 3])
      for (const [purpose, version] of [
        ['newer-a', 1],
        ['newer-a', 2],
        ['newer-a', 3],
        ['newer-b', 1],
        ['newer-c', 1],
      ] as const)
        await store.keys.insert({ purpose, version, wrapped, createdAt: T0 })
      const listed = async (after: Record<string, number>) =>
        (await store.keys.listNewer(after))
          .filter((key) => key.purpose.startsWith('newer-'))
          .map((key) => `${key.purpose}:${key.version}`)
      const all = ['newer-a:1', 'newer-a:2', 'newer-a:3', 'newer-b:1', 'newer-c:1']
      expect(await listed({})).toEqual(all)
      expect(await listed({ 'newer-a': 1, 'newer-b': 1, 'newer-c': 1 })).toEqual([
        'newer-a:2',
        'newer-a:3',
      ])
      expect(await listed({ 'newer-a': 3, 'newer-b': 1 })).toEqual(['newer-c:1'])
      expect(await listed({ 'newer-a': 3, 'newer-b': 1, 'newer-c': 1 })).toEqual([])
      const [row] = (
        await store.keys.listNewer({ 'newer-a': 2, 'newer-b': 1, 'newer-c': 1 })
      ).filter((key) => key.purpose === 'newer-a')
      expect(row && [row.purpose, row.version, Array.from(row.wrapped)]).toEqual([
        'newer-a',
        3,
        [1, 2, 3],
      ])
    })

    it('gives a lease to one holder until it expires or is released', async () => {
      expect(await store.leases.acquire('job', 'a', T0 + 10, T0)).toBe(true)
      expect(await store.leases.acquire('job', 'b', T0 + 10, T0 + 1)).toBe(false)
      expect(await store.leases.acquire('job', 'a', T0 + 20, T0 + 2)).toBe(true)
      expect(await store.leases.setState('job', 'b', 'x')).toBe(false)
      expect(await store.leases.setState('job', 'a', 'cursor=5')).toBe(true)
      expect(await store.leases.getState('job')).toBe('cursor=5')
      expect(await store.leases.acquire('job', 'b', T0 + 40, T0 + 21)).toBe(true)
      await store.leases.release('job', 'b')
      expect(await store.leases.acquire('job', 'c', T0 + 50, T0 + 22)).toBe(true)
    })

    it('stores a collection with its properties in order and finds it by exact name', async () => {
      const people = storedCollection('c1', 'People', [
        storedProperty('p1', 'ssn', { dataType: 'SSN', isUnique: true, description: "it's" }),
        storedProperty('p2', 'email', { isNullable: true, isEncrypted: false }),
      ])
      expect(await store.collections.insert(people)).toEqual(people)
      expect(await store.collections.get('People')).toEqual(people)
      expect(await store.collections.get('people')).toBeUndefined()
      expect((await store.collections.list()).map((c) => c.name)).toEqual(['People'])
    })

    it('reports a collection name taken in any case as undefined, writing nothing', async () => {
      const clash = storedCollection('c2', 'PEOPLE', [storedProperty('p3', 'x')])
      expect(await store.collections.insert(clash)).toBeUndefined()
      expect(await store.collections.get('PEOPLE')).toBeUndefined()
    })

    it('lets only one of several racing inserts of the same name win', async () => {
      const results = await Promise.all(
        ['Race', 'race', 'RACE', 'rAce'].map((name, i) =>
          store.transaction((tx) => tx.collections.insert(storedCollection(`r${i}`, name, []))),
        ),
      )
      expect(results.filter((r) => r !== undefined)).toHaveLength(1)
    })

    it('appends, updates and deletes properties; a name taken in any case is refused', async () => {
      expect(await store.collections.insertProperty('c1', storedProperty('p4', 'phone'))).toBe(true)
      expect(await store.collections.insertProperty('c1', storedProperty('p5', 'PHONE'))).toBe(
        false,
      )
      const updated = storedProperty('p4', 'phone', {
        isNullable: true,
        description: 'd',
        modifiedAt: T0 + 5,
      })
      expect(await store.collections.updateProperty(updated)).toBe(true)
      expect(await store.collections.touch('c1', T0 + 5)).toBe(true)
      expect(await store.collections.touch('nope', T0 + 5)).toBe(false)
      const people = await store.collections.get('People')
      expect(people?.properties.map((p) => p.name)).toEqual(['ssn', 'email', 'phone'])
      expect(people?.properties[2]).toEqual(updated)
      expect(people?.modifiedAt).toBe(T0 + 5)
      expect(await store.collections.deleteProperty('p2')).toBe(true)
      expect(await store.collections.deleteProperty('p2')).toBe(false)
      expect((await store.collections.get('People'))?.properties.map((p) => p.id)).toEqual([
        'p1',
        'p4',
      ])
    })

    it('deletes a collection with its properties, freeing the name', async () => {
      expect(await store.collections.delete('c1')).toBe(true)
      expect(await store.collections.delete('c1')).toBe(false)
      expect(await store.collections.get('People')).toBeUndefined()
      const again = storedCollection('c3', 'people', [storedProperty('p1', 'ssn')])
      expect(await store.collections.insert(again)).toEqual(again)
    })

    it('lets only one of several racing holders take a free lease', async () => {
      const holders = ['h1', 'h2', 'h3', 'h4', 'h5']
      const results = await Promise.all(
        holders.map((h) => store.leases.acquire('race', h, T0 + 10, T0)),
      )
      expect(results.filter(Boolean)).toHaveLength(1)
    })
  })
}
