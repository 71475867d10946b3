// test/api/objects-lifecycle.test.ts: update and delete objects, expiry, archive and restore, owners (endpoints §3.6–3.9)
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectError } from '../helpers/collections.ts'
import { describeEngines } from '../helpers/engines.ts'
import {
  addCollection,
  addObject,
  type ObjectsApi,
  objectsOf,
  ok,
  PEOPLE,
  testClock,
} from '../helpers/objects.ts'
import { startTestServer, type TestServer } from '../helpers/server.ts'

const NOTES = {
  name: 'notes',
  type: 'DATA',
  properties: [
    { name: 'text', data_type_name: 'STRING' },
    { name: 'code', data_type_name: 'STRING', is_unique: true, is_nullable: true },
  ],
}

describeEngines('object lifecycle', (engine) => {
  let server: TestServer
  let people: ObjectsApi
  let notes: ObjectsApi
  const clock = testClock()
  let serial = 1000
  const person = (extra: Record<string, unknown> = {}) =>
    addObject(people, { name: 'Pat Doe', ssn: `400-10-${serial++}`, ...extra })
  beforeAll(async () => {
    server = await startTestServer({ engine, clock: clock.now })
    await addCollection(server, PEOPLE)
    await addCollection(server, NOTES)
    people = objectsOf(server, 'people')
    notes = objectsOf(server, 'notes')
  })
  afterAll(() => server.close())

  describe('update object', () => {
    it('changes the given values, removes nullable ones with null, and keeps the rest', async () => {
      const id = await person({ email: 'pat@example.com', age: 20, city: 'Oslo' })
      expect(await ok(people.update(id, { email: null, age: 21, name: 'Pat Roe' }))).toBeUndefined()
      expect(await ok(people.get(id, 'props=name,email,age,city'))).toEqual({
        name: 'Pat Roe',
        email: null,
        age: 21,
        city: 'Oslo',
      })
      expect(
        (await ok(people.search({ match: { email: 'pat@example.com' } }, 'props=id'))).results,
      ).toEqual([])
      expect(
        (await ok(people.search({ match: { age: 21, city: 'Oslo' } }, 'props=id'))).results,
      ).toEqual([{ id }])
    })

    it('moves the modification time and keeps the creation time', async () => {
      const id = await person()
      clock.advanceSeconds(5)
      await ok(people.update(id, { age: 1 }))
      const got = await ok(people.get(id, 'props=_creation_time,_modification_time'))
      expect(got._modification_time > got._creation_time).toBe(true)
    })

    it('refuses null for non-nullable properties, invalid values and unknown properties', async () => {
      const id = await person()
      await expectError(await people.update(id, { name: null }), 400, 'ERR3002')
      await expectError(await people.update(id, { ssn: 'x' }), 400, 'ERR3002')
      await expectError(await people.update(id, { nick: 'x' }), 404, 'ERR3004')
      await expectError(
        await people.update(id, { _creation_time: '2020-01-01T00:00:00Z' }),
        400,
        'ERR3002',
      )
      await ok(people.update(id, { _creation_time: '2020-01-01T00:00:00Z' }, 'import=true'))
      expect(await ok(people.get(id, 'props=_creation_time'))).toEqual({
        _creation_time: '2020-01-01T00:00:00.000000000Z',
      })
    })

    it('refuses an id in the body that is not the path id', async () => {
      const id = await person()
      await expectError(await people.update(id, { id: crypto.randomUUID() }), 400, 'ERR1012')
      await ok(people.update(id, { id: id.toUpperCase(), age: 3 }))
    })

    it('answers 404 ERR3005 for unknown and archived objects', async () => {
      await expectError(await people.update(crypto.randomUUID(), { age: 1 }), 404, 'ERR3005')
      const id = await person()
      await ok(people.remove(id))
      await expectError(await people.update(id, { age: 1 }), 404, 'ERR3005')
      await ok(people.update(id, { age: 2 }, 'options=archived'))
      expect(await ok(people.get(id, 'props=age&options=archived'))).toEqual({ age: 2 })
    })

    it('keeps unique values unique: 409 ERR9002 for a taken value, free once changed', async () => {
      const a = await person({ ssn: '401-10-0001' })
      const b = await person({ ssn: '401-10-0002' })
      await expectError(await people.update(b, { ssn: '401-10-0001' }), 409, 'ERR9002')
      await ok(people.update(a, { ssn: '401-10-0001', age: 5 }))
      await ok(people.update(a, { ssn: '401-10-0003' }))
      await ok(people.update(b, { ssn: '401-10-0001' }))
      expect(
        (await ok(people.search({ match: { ssn: '401-10-0001' } }, 'props=id'))).results,
      ).toEqual([{ id: b }])
    })

    it('answers 409 ERR3218 to updates that lose a race for the same object', async () => {
      const id = await person()
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => people.update(id, { age: i })),
      )
      const codes = await Promise.all(
        results.map(async (res) => (res.status === 200 ? 200 : (await res.json()).error_code)),
      )
      expect(codes.every((code) => code === 200 || code === 'ERR3218')).toBe(true)
      expect(codes).toContain(200)
    })
  })

  describe('expiry', () => {
    it('leaves the expiry alone when expiration_secs is absent, clears it when empty', async () => {
      const id = await person()
      await ok(people.update(id, { age: 1 }, 'expiration_secs=100'))
      const { _expiration_time: set } = await ok(people.get(id, 'props=_expiration_time'))
      expect(set).not.toBeNull()
      await ok(people.update(id, { age: 2 }))
      expect(await ok(people.get(id, 'props=_expiration_time'))).toEqual({ _expiration_time: set })
      await ok(people.update(id, {}, 'expiration_secs='))
      expect(await ok(people.get(id, 'props=_expiration_time'))).toEqual({ _expiration_time: null })
    })

    it('archives at once with expiration_secs=0 and frees its unique values', async () => {
      const id = await person({ ssn: '402-10-0001' })
      await ok(people.update(id, {}, 'expiration_secs=0'))
      await expectError(await people.get(id), 404, 'ERR3005')
      await person({ ssn: '402-10-0001' })
    })

    it('lets a new object take a unique value of an object that expired', async () => {
      const id = await person({ ssn: '403-10-0001' })
      await ok(people.update(id, {}, 'expiration_secs=10'))
      clock.advanceSeconds(11)
      const other = await person({ ssn: '403-10-0001' })
      expect(
        (await ok(people.search({ match: { ssn: '403-10-0001' } }, 'props=id'))).results,
      ).toEqual([{ id: other }])
    })

    it('restores an archived object given a future expiry, unless its unique value was taken', async () => {
      const id = await person({ ssn: '404-10-0001' })
      await ok(people.remove(id))
      await ok(people.update(id, {}, 'options=archived&expiration_secs=3600'))
      expect(await ok(people.get(id, 'props=ssn'))).toEqual({ ssn: '404-10-0001' })
      await ok(people.remove(id))
      await person({ ssn: '404-10-0001' })
      await expectError(
        await people.update(id, {}, 'options=archived&expiration_secs='),
        409,
        'ERR9002',
      )
      await expectError(await people.get(id), 404, 'ERR3005')
    })

    it('refuses expiries it cannot store exactly, and the object stays readable', async () => {
      const id = await person()
      for (const secs of ['9000000000', '999999999999']) {
        await expectError(await people.update(id, {}, `expiration_secs=${secs}`), 400, 'ERR1012')
        await expectError(await people.add({}, `expiration_secs=${secs}`), 400, 'ERR1012')
      }
      const far = { _expiration_time: '9999-12-31T23:59:59Z' }
      const body = await expectError(await people.update(id, far, 'import=true'), 400, 'ERR3002')
      expect(body.context).toEqual({ property: '_expiration_time' })
      const early = { _creation_time: '1600-01-01T00:00:00Z' }
      await expectError(await people.update(id, early, 'import=true'), 400, 'ERR3002')
      expect(await ok(people.get(id, 'props=_expiration_time'))).toEqual({
        _expiration_time: null,
      })
      await ok(people.update(id, {}, 'expiration_secs=3000000000'))
      const { _expiration_time: later } = await ok(people.get(id, 'props=_expiration_time'))
      expect(later).toMatch(/^2125-01-\d\dT/)
    })
  })

  describe('delete object', () => {
    it('archives an active object, then removes it for good with options=archived', async () => {
      const id = await person()
      const before = await ok(people.count())
      expect(await ok(people.remove(id))).toBeUndefined()
      expect(await ok(people.count())).toEqual({
        active: before.active - 1,
        archived: before.archived + 1,
        total: before.total,
      })
      await expectError(await people.remove(id), 404, 'ERR3005')
      await ok(people.remove(id, 'options=archived'))
      await expectError(await people.get(id, 'options=unsafe,archived'), 404, 'ERR3005')
      expect((await ok(people.count())).total).toBe(before.total - 1)
    })

    it('answers 404 ERR3005 for unknown objects and 400 for malformed ids', async () => {
      await expectError(await people.remove(crypto.randomUUID()), 404, 'ERR3005')
      await expectError(
        await people.remove(crypto.randomUUID(), 'options=archived'),
        404,
        'ERR3005',
      )
      await expectError(await people.remove('x'), 400, 'ERR1012')
      await expectError(await people.remove(await person(), 'options=archived'), 404, 'ERR3005')
    })
  })

  describe('owners', () => {
    it('gives owned objects the owner tenant and archives them with their owner', async () => {
      const owner = await person({ _tenant_id: 't1' })
      const note = await addObject(notes, {
        text: 'x',
        _owner_id: owner,
        _owner_collection: 'people',
      })
      expect(await ok(notes.get(note, 'props=_tenant_id,_owner_id,_owner_collection'))).toEqual({
        _tenant_id: 't1',
        _owner_id: owner,
        _owner_collection: 'people',
      })
      await ok(people.update(owner, { _tenant_id: 't2' }))
      expect(await ok(notes.get(note, 'props=_tenant_id'))).toEqual({ _tenant_id: 't2' })
      await ok(people.remove(owner))
      await expectError(await notes.get(note), 404, 'ERR3005')
      await ok(notes.get(note, 'options=unsafe,archived'))
    })

    it('lets owned objects expire no later than their owner', async () => {
      const owner = await person()
      const note = await addObject(notes, {
        text: 'y',
        _owner_id: owner,
        _owner_collection: 'people',
      })
      await ok(people.update(owner, {}, 'expiration_secs=30'))
      clock.advanceSeconds(31)
      await expectError(await notes.get(note), 404, 'ERR3005')
    })

    it('refuses owners that do not exist, are archived or are not PERSONS objects', async () => {
      const note = await addObject(notes, { text: 'z' })
      const owned = (id: string, collection: string) =>
        notes.add({ text: 'w', _owner_id: id, _owner_collection: collection })
      await expectError(await owned(crypto.randomUUID(), 'people'), 404, 'ERR3005')
      await expectError(await owned(note, 'notes'), 400, 'ERR3002')
      await expectError(await owned(crypto.randomUUID(), 'nowhere'), 404, 'ERR1004')
      const gone = await person()
      await ok(people.remove(gone))
      await expectError(await owned(gone, 'people'), 404, 'ERR3005')
      await expectError(await notes.add({ text: 'w', _owner_id: gone }), 400, 'ERR3002')
    })

    it('refuses a _tenant_id on an owned object', async () => {
      const owner = await person()
      const res = await notes.add({
        text: 'v',
        _owner_id: owner,
        _owner_collection: 'people',
        _tenant_id: 't1',
      })
      expect((await expectError(res, 400, 'ERR3002')).context).toEqual({ property: '_tenant_id' })
    })
  })
})
