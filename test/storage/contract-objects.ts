// test/storage/contract-objects.ts: the objects part of the Store contract, run on SQLite and PostgreSQL
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type IndexEntry, KeyTaken, type ObjectRecord } from '../../src/core/objects/store.ts'
import type { Repos, Store } from '../../src/core/store.ts'
import type { TestStore } from '../helpers/store.ts'

export const T0 = 1_700_000_000_000_000
const digest = (n: number) => new Uint8Array(16).fill(n)

/** An object row of `people` created at T0, changed by `patch`. */
export function object(id: string, patch: Partial<ObjectRecord> = {}): ObjectRecord {
  return {
    collection: 'people',
    id,
    tenantId: undefined,
    ownerId: undefined,
    ownerCollection: undefined,
    createdAt: T0,
    modifiedAt: T0,
    expiresAt: undefined,
    version: 1,
    fields: '{}',
    sealed: '{}',
    digests: '{}',
    ...patch,
  }
}

const entry = (property: string, n: number, objectId: string): IndexEntry => ({
  collection: 'people',
  property,
  digest: digest(n),
  objectId,
})

export function describeObjectsContract(name: string, open: () => Promise<TestStore>) {
  describe(`objects Store contract on ${name}`, () => {
    let handle: TestStore
    let store: Store
    const active = { collection: 'people', state: 'active' as const, now: T0 + 50 }
    beforeAll(async () => {
      handle = await open()
      store = handle.store
      await store.objects.insert([
        object('a1', {
          createdAt: T0 + 1,
          fields: '{"name":"Ann","age":30,"vip":true}',
          tenantId: 't1',
        }),
        object('a2', { createdAt: T0 + 2, fields: '{"name":"Bob","age":30}', tenantId: 't2' }),
        object('a3', {
          createdAt: T0 + 2,
          fields: '{"name":"Cid","age":null}',
          expiresAt: T0 + 10,
        }),
        object('a4', { createdAt: T0 + 3, fields: '{"name":"Dee"}', expiresAt: T0 + 100 }),
        object('x1', { collection: 'other', createdAt: T0 }),
      ])
    })
    afterAll(() => handle?.close())

    it('reports ids that are already taken in the collection and inserts the rest', async () => {
      const taken = await store.objects.insert([
        object('a1'),
        object('a9', { createdAt: T0 + 9 }),
        object('x1', { collection: 'people', createdAt: T0 + 9 }),
      ])
      expect([...taken]).toEqual(['a1'])
      expect((await store.objects.get('people', ['a9', 'x1'])).map((o) => o.id).sort()).toEqual([
        'a9',
        'x1',
      ])
      await store.objects.delete('people', ['a9', 'x1'])
    })

    it('pages in creation order, ties by id, after a keyset position', async () => {
      const all = await store.objects.search(active, [], undefined, 10)
      expect(all.map((o) => o.id)).toEqual(['a1', 'a2', 'a4'])
      const next = await store.objects.search(active, [], { createdAt: T0 + 2, id: 'a2' }, 10)
      expect(next.map((o) => o.id)).toEqual(['a4'])
      expect(await store.objects.countAfter(active, [], { createdAt: T0 + 1, id: 'a1' }, 10)).toBe(
        2,
      )
      expect(await store.objects.countAfter(active, [], undefined, 2)).toBe(2)
      expect(
        await store.objects.searchKeys(active, [], { createdAt: T0 + 1, id: 'a1' }, 10),
      ).toEqual([
        { createdAt: T0 + 2, id: 'a2' },
        { createdAt: T0 + 3, id: 'a4' },
      ])
      const byIds = [{ kind: 'ids' as const, ids: ['a4', 'a1', 'a2'] }]
      expect(await store.objects.searchKeys(active, byIds, undefined, 2)).toEqual([
        { createdAt: T0 + 1, id: 'a1' },
        { createdAt: T0 + 2, id: 'a2' },
      ])
      expect((await store.objects.search(active, byIds, undefined, 2)).map((o) => o.id)).toEqual([
        'a1',
        'a2',
      ])
    })

    it('selects active, archived or all objects by expiry time, and counts them', async () => {
      const archived = await store.objects.search(
        { ...active, state: 'archived' },
        [],
        undefined,
        10,
      )
      expect(archived.map((o) => o.id)).toEqual(['a3'])
      expect(
        (await store.objects.search({ ...active, state: 'all' }, [], undefined, 10)).length,
      ).toBe(4)
      expect(await store.objects.count('people', T0 + 50)).toEqual({ active: 3, archived: 1 })
      expect(await store.objects.count('people', T0 + 200)).toEqual({ active: 2, archived: 2 })
    })

    it('filters by tenant', async () => {
      const t1 = await store.objects.search({ ...active, tenantIds: ['t1'] }, [], undefined, 10)
      expect(t1.map((o) => o.id)).toEqual(['a1'])
      expect(await store.objects.search({ ...active, tenantIds: [] }, [], undefined, 10)).toEqual(
        [],
      )
    })

    it('matches plain JSON values, and null as absent or null', async () => {
      const byName = await store.objects.search(
        active,
        [{ kind: 'plain', property: 'name', values: ['"Bob"', '"Ann"'] }],
        undefined,
        10,
      )
      expect(byName.map((o) => o.id)).toEqual(['a1', 'a2'])
      const byAge = await store.objects.search(
        active,
        [{ kind: 'plain', property: 'age', values: ['30'] }],
        undefined,
        10,
      )
      expect(byAge.map((o) => o.id)).toEqual(['a1', 'a2'])
      const byTrue = await store.objects.search(
        active,
        [{ kind: 'plain', property: 'vip', values: ['true'] }],
        undefined,
        10,
      )
      expect(byTrue.map((o) => o.id)).toEqual(['a1'])
      const noAge = await store.objects.search(
        { ...active, state: 'all' },
        [{ kind: 'plain', property: 'age', values: ['null'] }],
        undefined,
        10,
      )
      expect(noAge.map((o) => o.id)).toEqual(['a3', 'a4'])
    })

    it('finds objects through blind-index digests and intersects conditions', async () => {
      await store.searchIndex.insertIndex([
        entry('email', 1, 'a1'),
        entry('email', 2, 'a2'),
        entry('email', 1, 'a4'),
        entry('ssn', 9, 'a4'),
      ])
      const byEmail = await store.objects.search(
        active,
        [{ kind: 'digests', property: 'email', digests: [digest(1)] }],
        undefined,
        10,
      )
      expect(byEmail.map((o) => o.id)).toEqual(['a1', 'a4'])
      const both = await store.objects.search(
        active,
        [
          { kind: 'digests', property: 'email', digests: [digest(1), digest(2)] },
          { kind: 'digests', property: 'ssn', digests: [digest(9)] },
        ],
        undefined,
        10,
      )
      expect(both.map((o) => o.id)).toEqual(['a4'])
      expect(
        await store.objects.search(active, [{ kind: 'ids', ids: ['a2', 'a3'] }], undefined, 10),
      ).toHaveLength(1)
      await store.searchIndex.deleteIndex([entry('email', 1, 'a4')])
      const after = await store.objects.search(
        active,
        [{ kind: 'digests', property: 'email', digests: [digest(1)] }],
        undefined,
        10,
      )
      expect(after.map((o) => o.id)).toEqual(['a1'])
    })

    it('finds objects holding every n-gram of a pattern', async () => {
      await store.substring.enqueue('people', ['a1', 'a2', 'a1'], T0)
      expect(await store.substring.countPending('people')).toBe(2)
      const queued = await store.substring.pending('people', 10)
      expect(queued).toEqual([
        { collection: 'people', key: expect.any(String), queuedAt: T0, objectIds: ['a1', 'a2'] },
      ])
      const name = (ns: number[]) => ns.map((n) => ({ property: 'name', gram: digest(n) }))
      await store.substring.replaceGrams(
        'people',
        [
          { objectId: 'a1', grams: name([1, 2, 3]) },
          { objectId: 'a2', grams: name([2, 3, 4]) },
        ],
        queued.map((q) => q.key),
      )
      expect(await store.substring.countPending('people')).toBe(0)
      const grams = (ns: number[]) => [
        { kind: 'grams' as const, property: 'name', grams: ns.map(digest) },
      ]
      expect(
        (await store.objects.search(active, grams([2, 3]), undefined, 10)).map((o) => o.id),
      ).toEqual(['a1', 'a2'])
      expect(
        (await store.objects.search(active, grams([1, 2]), undefined, 10)).map((o) => o.id),
      ).toEqual(['a1'])
      await store.substring.replaceGrams('people', [{ objectId: 'a1', grams: name([7]) }], [])
      expect(
        (await store.objects.search(active, grams([1, 2]), undefined, 10)).map((o) => o.id),
      ).toEqual([])
      await store.substring.deleteObjects('people', ['a2'])
      expect(
        (await store.objects.search(active, grams([2]), undefined, 10)).map((o) => o.id),
      ).toEqual([])
    })

    it('answers searches alike after the search tables are maintained', async () => {
      await store.substring.enqueue('people', ['a1', 'a4'], T0)
      const queued = await store.substring.pending('people', 10)
      await store.substring.replaceGrams(
        'people',
        [
          { objectId: 'a1', grams: [{ property: 'nick', gram: digest(41) }] },
          { objectId: 'a4', grams: [{ property: 'nick', gram: digest(41) }] },
        ],
        queued.map((entry) => entry.key),
      )
      const grams = [{ kind: 'grams' as const, property: 'nick', grams: [digest(41)] }]
      const before = await store.objects.searchKeys(active, grams, undefined, 10)
      expect(before.map((key) => key.id)).toEqual(['a1', 'a4'])
      await store.maintainSearchTables()
      expect(await store.objects.searchKeys(active, grams, undefined, 10)).toEqual(before)
      expect(await store.substring.pending('people', 10)).toEqual([])
      await store.substring.deleteObjects('people', ['a1', 'a4'])
    })

    it('keeps an object queued when it was queued again after its grams were computed', async () => {
      await store.substring.enqueue('people', ['a4'], T0)
      const [first] = await store.substring.pending(undefined, 10)
      await store.substring.enqueue('people', ['a4'], T0 + 5)
      expect(await store.substring.countPending('people')).toBe(2)
      await store.substring.replaceGrams(
        'people',
        [{ objectId: 'a4', grams: [] }],
        [first?.key ?? ''],
      )
      expect(await store.substring.pending(undefined, 10)).toEqual([
        { collection: 'people', key: expect.any(String), queuedAt: T0 + 5, objectIds: ['a4'] },
      ])
      const [second] = await store.substring.pending('people', 10)
      await store.substring.replaceGrams(
        'people',
        [{ objectId: 'a4', grams: [] }],
        [second?.key ?? ''],
      )
      expect(await store.substring.countPending('people')).toBe(0)
      await store.substring.enqueue('people', ['a4'], T0)
      await store.substring.deleteCollection('people')
      expect(await store.substring.countPending('people')).toBe(0)
    })

    it('hands out whole queue entries up to the limit, at least one', async () => {
      const ids = (from: number) => Array.from({ length: 300 }, (_, i) => `q${from + i}`)
      for (let n = 0; n < 25; n++) await store.substring.enqueue('queue', ids(n * 300), T0 + n)
      expect(await store.substring.countPending('queue')).toBe(7500)
      expect(await store.substring.pending('queue', 1)).toHaveLength(1)
      expect(await store.substring.pending('queue', 301)).toHaveLength(2)
      const all = await store.substring.pending('queue', 100_000)
      expect(all).toHaveLength(25)
      expect(new Set(all.flatMap((q) => q.objectIds)).size).toBe(7500)
      expect(await store.substring.pending('elsewhere', 10)).toEqual([])
      await store.substring.replaceGrams(
        'queue',
        [],
        all.slice(0, 24).map((q) => q.key),
      )
      expect(await store.substring.countPending('queue')).toBe(300)
      await store.substring.deleteCollection('queue')
      expect(await store.substring.countPending('queue')).toBe(0)
    })

    it('pages large index matches in creation order through the database', async () => {
      const ids = Array.from({ length: 2100 }, (_, i) => `big${String(i).padStart(5, '0')}`)
      await store.objects.insert(
        ids.map((id, i) => object(id, { collection: 'big', createdAt: T0 + (i % 700) })),
      )
      await store.searchIndex.insertIndex(
        ids.map((id) => ({ ...entry('tag', 3, id), collection: 'big' })),
      )
      const filter = { collection: 'big', state: 'active' as const, now: T0 + 50 }
      const condition = [{ kind: 'digests' as const, property: 'tag', digests: [digest(3)] }]
      const first = await store.objects.search(filter, condition, undefined, 1000)
      const sorted = [...ids].sort(
        (a, b) => (Number(a.slice(3)) % 700) - (Number(b.slice(3)) % 700) || a.localeCompare(b),
      )
      expect(first.map((o) => o.id)).toEqual(sorted.slice(0, 1000))
      const last = first.at(-1) as ObjectRecord
      const second = await store.objects.search(
        filter,
        condition,
        { createdAt: last.createdAt, id: last.id },
        1000,
      )
      expect(second.map((o) => o.id)).toEqual(sorted.slice(1000, 2000))
      expect(
        await store.objects.countAfter(
          filter,
          condition,
          { createdAt: last.createdAt, id: last.id },
          10_000,
        ),
      ).toBe(1100)
      const grams = [digest(5), digest(6)]
      await store.substring.replaceGrams(
        'big',
        ids.map((id, i) => ({
          objectId: id,
          grams: (i % 3 === 0 ? grams : grams.slice(0, 1)).map((gram) => ({
            property: 'tag',
            gram,
          })),
        })),
        [],
      )
      const byGrams = [{ kind: 'grams' as const, property: 'tag', grams }]
      const withGrams = sorted.filter((id) => Number(id.slice(3)) % 3 === 0)
      expect(
        (await store.objects.search(filter, byGrams, undefined, 1000)).map((o) => o.id),
      ).toEqual(withGrams.slice(0, 700))
      expect(await store.objects.countAfter(filter, byGrams, undefined, 10_000)).toBe(700)
      const single = [{ kind: 'grams' as const, property: 'tag', grams: grams.slice(0, 1) }]
      expect(await store.objects.countAfter(filter, single, undefined, 10_000)).toBe(2100)
      expect(
        (await store.objects.searchKeys(filter, single, undefined, 3)).map((k) => k.id),
      ).toEqual(sorted.slice(0, 3))
      await store.objects.deleteCollection('big')
      await store.searchIndex.deleteCollection('big')
      await store.substring.deleteCollection('big')
    })

    it('gives a unique value to one object and names the holder to the others', async () => {
      expect(await store.searchIndex.claimUnique([entry('ssn', 5, 'a1')])).toEqual([])
      expect(
        await store.searchIndex.claimUnique([entry('ssn', 5, 'a2'), entry('ssn', 6, 'a2')]),
      ).toEqual([entry('ssn', 5, 'a1')])
      await store.searchIndex.releaseUnique([entry('ssn', 5, 'a2')])
      expect(await store.searchIndex.claimUnique([entry('ssn', 5, 'a4')])).toEqual([
        entry('ssn', 5, 'a1'),
      ])
      await store.searchIndex.releaseUnique([entry('ssn', 5, 'a1')])
      expect(await store.searchIndex.claimUnique([entry('ssn', 5, 'a4')])).toEqual([])
    })

    it('writes batches larger than one statement: taken ids, lost claims and queue rows', async () => {
      const ids = Array.from({ length: 1203 }, (_, i) => `many${String(i).padStart(5, '0')}`)
      const wide = (n: number) => {
        const bytes = new Uint8Array(16)
        new DataView(bytes.buffer).setUint32(0, n + 1000)
        return bytes
      }
      const records = ids.map((id, i) =>
        object(id, {
          collection: 'many',
          createdAt: T0 + i,
          modifiedAt: T0 + i + 1,
          expiresAt: i % 2 === 0 ? undefined : T0 + 10_000,
          tenantId: i % 3 === 0 ? 't1' : undefined,
          fields: JSON.stringify({ n: i, quote: `"\\'{},${i}` }),
          sealed: `{"s":"${i} é€😀 NULL"}`,
          ownerId: i % 5 === 0 ? '' : undefined,
        }),
      )
      expect(await store.objects.insert(records.slice(0, 10))).toEqual(new Set())
      // 1202 rows, the 9 taken ones past the first 500.
      const taken = await store.objects.insert([...records.slice(10), ...records.slice(0, 9)])
      expect([...taken].sort()).toEqual(ids.slice(0, 9))
      expect([
        ...(await store.objects.insert([
          records[700] as ObjectRecord,
          object('many99999', { collection: 'many' }),
        ])),
      ]).toEqual(['many00700'])
      // One row goes as plain VALUES on PostgreSQL, not as arrays.
      const single = object('many-single', {
        collection: 'many',
        fields: '{"q":"\\"\\\\,{}NULL"}',
        sealed: '{"s":"é€😀"}',
        tenantId: 'NULL',
      })
      expect(await store.objects.insert([single])).toEqual(new Set())
      expect(await store.objects.get('many', ['many-single'])).toEqual([single])
      const stored = await store.objects.get('many', ['many00700', 'many00701'])
      expect(stored.sort((a, b) => (a.id < b.id ? -1 : 1))).toEqual([records[700], records[701]])

      const entries = ids.map((id, i) => ({ ...entry('code', 0, id), digest: wide(i) }))
      await store.searchIndex.insertIndex(entries.map((e) => ({ ...e, collection: 'many' })))
      await store.searchIndex.insertIndex([{ ...(entries[3] as IndexEntry), collection: 'many' }])
      const found = await store.objects.search(
        { collection: 'many', state: 'all', now: T0 },
        [{ kind: 'digests', property: 'code', digests: [wide(3), wide(1202)] }],
        undefined,
        10,
      )
      expect(found.map((o) => o.id)).toEqual(['many00003', 'many01202'])

      const claims = entries.map((e) => ({ ...e, collection: 'many' }))
      expect(await store.searchIndex.claimUnique(claims.slice(0, 600))).toEqual([])
      const rivals = claims.slice(590, 1203).map((e) => ({ ...e, objectId: `${e.objectId}x` }))
      expect(await store.searchIndex.claimUnique(rivals)).toEqual(claims.slice(590, 600))

      await store.substring.enqueue('many', [...ids, 'many00001'], T0)
      expect(await store.substring.countPending('many')).toBe(1203)
      await store.substring.enqueue('many', ['many00001'], T0 + 7)
      const pending = await store.substring.pending('many', 2000)
      expect(pending.filter((p) => p.queuedAt === T0 + 7).map((p) => p.objectIds)).toEqual([
        ['many00001'],
      ])
      await store.objects.deleteCollection('many')
      await store.searchIndex.deleteCollection('many')
      await store.substring.deleteCollection('many')
    })

    it('inserts new rows plainly and throws KeyTaken, writing nothing, when a key is taken', async () => {
      const batch = (n: number) =>
        Array.from({ length: n }, (_, i) => object(`new${i}`, { collection: 'fresh' }))
      const inTransaction = (work: (tx: Repos) => Promise<void>) =>
        store.transaction(async (tx) => work(tx))
      // 600 rows: the taken id is in the second statement on SQLite (500 rows per statement).
      await inTransaction((tx) => tx.objects.insertNew(batch(2)))
      await expect(
        inTransaction((tx) =>
          tx.objects.insertNew([...batch(600).slice(2), object('new1', { collection: 'fresh' })]),
        ),
      ).rejects.toBeInstanceOf(KeyTaken)
      expect(await store.objects.count('fresh', T0)).toEqual({ active: 2, archived: 0 })

      const own = (n: number, id: string) => ({ ...entry('ssn', n, id), collection: 'fresh' })
      await inTransaction((tx) => tx.searchIndex.insertNew([own(1, 'new0')], [own(1, 'new0')]))
      for (const [entries, claims] of [
        [[own(2, 'new1')], [own(1, 'new1')]], // a value another object holds
        [[own(1, 'new0')], [own(3, 'new0')]], // an index entry already there
      ]) {
        await expect(
          inTransaction(async (tx) => {
            await tx.objects.insertNew([object('new7', { collection: 'fresh' })])
            await tx.searchIndex.insertNew(entries as IndexEntry[], claims as IndexEntry[])
          }),
        ).rejects.toBeInstanceOf(KeyTaken)
      }
      expect(await store.objects.get('fresh', ['new7'])).toEqual([])
      expect(await store.searchIndex.claimUnique([own(3, 'new5'), own(1, 'new5')])).toEqual([
        own(1, 'new0'),
      ])
      await store.objects.deleteCollection('fresh')
      await store.searchIndex.deleteCollection('fresh')
    })

    it('lets exactly one of several concurrent transactions claim a unique value', async () => {
      const attempts = ['c1', 'c2', 'c3', 'c4'].map((id) =>
        store.transaction(async (tx) => {
          const conflicts = await tx.searchIndex.claimUnique([entry('phone', 42, id)])
          if (conflicts.length > 0) throw new Error('taken')
          return id
        }),
      )
      const results = await Promise.allSettled(attempts)
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
    })

    it('replaces a row only at the expected version', async () => {
      const [current] = await store.objects.get('people', ['a2'])
      if (current === undefined) throw new Error('missing a2')
      expect(
        await store.objects.replace({ ...current, fields: '{"name":"Bo"}', version: 2 }, 1),
      ).toBe(true)
      expect(
        await store.objects.replace({ ...current, fields: '{"name":"Late"}', version: 2 }, 1),
      ).toBe(false)
      expect((await store.objects.get('people', ['a2']))[0]?.fields).toBe('{"name":"Bo"}')
    })

    it('lists owned objects, expired rows oldest first, and deletes', async () => {
      await store.objects.insert([
        object('d1', { ownerCollection: 'people', ownerId: 'a1', createdAt: T0 + 5 }),
      ])
      expect((await store.objects.ownedBy('people', 'a1')).map((o) => o.id)).toEqual(['d1'])
      expect((await store.objects.expired(T0 + 200, 10)).map((o) => o.id)).toEqual(['a3', 'a4'])
      expect((await store.objects.expired(T0 + 200, 1)).map((o) => o.id)).toEqual(['a3'])
      expect(await store.objects.delete('people', ['d1', 'nope'])).toBe(1)
      expect(await store.objects.hasAny('other')).toBe(true)
      await store.objects.deleteCollection('other')
      expect(await store.objects.hasAny('other')).toBe(false)
    })

    it('matches built-in columns, null as no value', async () => {
      const byTenant = await store.objects.search(
        active,
        [{ kind: 'column', column: 'tenant_id', values: ['t2', null] }],
        undefined,
        10,
      )
      expect(byTenant.map((o) => o.id)).toEqual(['a2', 'a4'])
      const both = await store.objects.search(
        active,
        [
          { kind: 'column', column: 'tenant_id', values: ['t1', 't2'] },
          { kind: 'digests', property: 'email', digests: [digest(1)] },
        ],
        undefined,
        10,
      )
      expect(both.map((o) => o.id)).toEqual(['a1'])
    })

    it('counts only the given tenants', async () => {
      expect(await store.objects.count('people', T0 + 50, ['t1'])).toEqual({
        active: 1,
        archived: 0,
      })
      expect(await store.objects.count('people', T0 + 50, [])).toEqual({ active: 0, archived: 0 })
    })

    it('drops claims or every entry of a property, and whole collections', async () => {
      await store.searchIndex.insertIndex([entry('code', 1, 'z1'), entry('code', 2, 'z2')])
      expect(await store.searchIndex.claimUnique([entry('code', 1, 'z1')])).toEqual([])
      await store.searchIndex.deleteClaims('people', 'code')
      expect(await store.searchIndex.claimUnique([entry('code', 1, 'z9')])).toEqual([])
      const byCode = [{ kind: 'digests' as const, property: 'code', digests: [digest(1)] }]
      await store.objects.insert([object('z1', { createdAt: T0 + 20 })])
      expect((await store.objects.search(active, byCode, undefined, 10)).map((o) => o.id)).toEqual([
        'z1',
      ])
      await store.searchIndex.deleteProperty('people', 'code')
      expect(await store.objects.search(active, byCode, undefined, 10)).toEqual([])
      expect(await store.searchIndex.claimUnique([entry('code', 1, 'z2')])).toEqual([])
      await store.substring.replaceGrams(
        'people',
        [{ objectId: 'z1', grams: [{ property: 'nick', gram: digest(4) }] }],
        [],
      )
      const byGram = [{ kind: 'grams' as const, property: 'nick', grams: [digest(4)] }]
      expect(await store.objects.search(active, byGram, undefined, 10)).toHaveLength(1)
      await store.substring.deleteProperty('people', 'nick')
      expect(await store.objects.search(active, byGram, undefined, 10)).toEqual([])
      await store.searchIndex.insertIndex([{ ...entry('code', 3, 'q1'), collection: 'gone' }])
      await store.searchIndex.deleteCollection('gone')
      await store.objects.delete('people', ['z1'])
    })

    it('removes a property from every row of a collection', async () => {
      await store.objects.insert([
        object('r1', {
          createdAt: T0 + 30,
          fields: '{"keep":1,"drop":"x"}',
          sealed: '{"drop":"c2VhbGVk","other":"b3RoZXI="}',
          digests: '{"drop":"ZGln"}',
        }),
      ])
      await store.objects.removeProperty('people', 'drop')
      const [row] = await store.objects.get('people', ['r1'])
      expect(JSON.parse(row?.fields ?? '')).toEqual({ keep: 1 })
      expect(JSON.parse(row?.sealed ?? '')).toEqual({ other: 'b3RoZXI=' })
      expect(JSON.parse(row?.digests ?? '')).toEqual({})
      await store.objects.delete('people', ['r1'])
    })
  })
}
