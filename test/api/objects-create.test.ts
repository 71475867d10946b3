// test/api/objects-create.test.ts: add object over HTTP: ids, validation, normalization, built-ins, expiry (endpoints §3.1)
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectError, NANO } from '../helpers/collections.ts'
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
import { API, startTestServer, type TestServer } from '../helpers/server.ts'

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
const JOHN = { name: 'John Smith', ssn: '123-45-6789' }

describeEngines('add object', (engine) => {
  let server: TestServer
  let people: ObjectsApi
  const clock = testClock()
  beforeAll(async () => {
    server = await startTestServer({ engine, clock: clock.now })
    await addCollection(server, PEOPLE)
    people = objectsOf(server, 'people')
  })
  afterAll(() => server.close())

  it('stores an object and answers a new lower-case UUID v4', async () => {
    const { id } = await ok(people.add({ ...JOHN, email: 'john@example.com' }))
    expect(id).toMatch(UUID_V4)
    expect(await ok(people.get(id))).toEqual({
      id,
      ...JOHN,
      email: 'john@example.com',
      phone: null,
      age: null,
      city: null,
      birth: null,
    })
  })

  it('keeps a caller-supplied UUID, lower-cased, and refuses anything else', async () => {
    const id = '8D0F1C1E-8B6C-4EC3-A7F4-3B1AD8A0AD4E'
    expect(await ok(people.add({ id, name: 'Ann', ssn: '111-22-3333' }))).toEqual({
      id: id.toLowerCase(),
    })
    const bad = await expectError(await people.add({ id: 'nope', ...JOHN }), 400, 'ERR3002')
    expect(bad.context).toEqual({ property: 'id' })
    await expectError(await people.add({ id: 42, ...JOHN }), 400, 'ERR3002')
  })

  it('answers 409 ERR9001 for an id that is taken, and stores nothing', async () => {
    const id = await addObject(people, { name: 'Bea', ssn: '222-33-4444' })
    const before = await ok(people.count())
    await expectError(await people.add({ id, name: 'Bo', ssn: '222-33-5555' }), 409, 'ERR9001')
    expect(await ok(people.count())).toEqual(before)
  })

  it('normalizes values by their data type before storing them', async () => {
    const id = await addObject(people, {
      name: 'Cy',
      ssn: '333 44 5555',
      phone: '+1-202-555-0143',
      email: 'cy@example.com',
      birth: '1990-05-17',
      age: 33,
    })
    expect(await ok(people.get(id, 'props=ssn,phone,email,age'))).toEqual({
      ssn: '333-44-5555',
      phone: '+12025550143',
      email: 'cy@example.com',
      age: 33,
    })
  })

  it('requires every non-nullable property and accepts null for nullable ones', async () => {
    const missing = await expectError(await people.add({ name: 'Di' }), 400, 'ERR3002')
    expect(missing.context).toEqual({ property: 'ssn' })
    const nulled = await expectError(await people.add({ ...JOHN, name: null }), 400, 'ERR3002')
    expect(nulled.context).toEqual({ property: 'name' })
    const id = await addObject(people, { name: 'Di', ssn: '444-55-6666', email: null })
    expect(await ok(people.get(id, 'props=email'))).toEqual({ email: null })
  })

  it('answers 404 ERR3004 for an unknown property', async () => {
    const body = await expectError(await people.add({ ...JOHN, nick: 'J' }), 404, 'ERR3004')
    expect(body.context).toMatchObject({ property: 'nick' })
  })

  it('answers 400 ERR3002 naming the property for invalid values and wrong JSON types, never the value', async () => {
    for (const [property, value] of [
      ['ssn', '000-00-0000x'],
      ['ssn', 123456789],
      ['email', 'not-an-email'],
      ['age', 'thirty'],
      ['age', 1.5],
      ['birth', '1990-02-30'],
      ['name', { first: 'x' }],
    ] as const) {
      const res = await people.add({ ...JOHN, [property]: value })
      const body = await expectError(res, 400, 'ERR3002')
      expect(body.context).toEqual({ property })
      expect(body.message).not.toContain(String(value))
    }
  })

  it('refuses a body that is not a JSON object', async () => {
    for (const body of [[JOHN], 'text', 42])
      await expectError(await people.add(body), 400, 'ERR1012')
    const res = await server.request(
      'POST',
      `${API}/data/collections/people/objects?reason=AppFunctionality`,
      {
        body: '{"name":',
        headers: { 'content-type': 'application/json' },
      },
    )
    await expectError(res, 400, 'ERR1012')
  })

  it('answers 404 ERR1004 for an unknown collection and 400 ERR1001 without a reason', async () => {
    await expectError(await objectsOf(server, 'nobody').add(JOHN), 404, 'ERR1004')
    const res = await server.request('POST', `${API}/data/collections/people/objects`, {
      body: JOHN,
    })
    await expectError(res, 400, 'ERR1001')
  })

  it('answers 409 ERR9002 for a unique value an active object holds, naming the property', async () => {
    await addObject(people, { name: 'Ed', ssn: '555-66-7777' })
    const body = await expectError(
      await people.add({ name: 'Eve', ssn: '555667777' }),
      409,
      'ERR9002',
    )
    expect(body.context).toMatchObject({ property: 'ssn' })
  })

  describe('built-in properties', () => {
    it('refuses read-only built-ins without import=true', async () => {
      for (const name of ['_creation_time', '_modification_time', '_expiration_time']) {
        const res = await people.add({
          ...JOHN,
          ssn: '666-77-8888',
          [name]: '2024-01-01T00:00:00Z',
        })
        expect((await expectError(res, 400, 'ERR3002')).context).toEqual({ property: name })
      }
    })

    it('writes imported times with import=true', async () => {
      const id = await addObject(
        people,
        {
          name: 'Fay',
          ssn: '666-77-8888',
          _creation_time: '2024-01-02T03:04:05.123456Z',
          _modification_time: 'Tue, 02 Jan 2024 04:00:00 GMT',
          _expiration_time: null,
        },
        'import=true',
      )
      expect(
        await ok(people.get(id, 'props=_creation_time,_modification_time,_expiration_time')),
      ).toEqual({
        _creation_time: '2024-01-02T03:04:05.123456000Z',
        _modification_time: '2024-01-02T04:00:00.000000000Z',
        _expiration_time: null,
      })
    })

    it('accepts import=false as the published client sends it', async () => {
      await ok(people.add({ name: 'Gus', ssn: '777-88-9999' }, 'import=false'))
    })

    it('refuses owner fields on PERSONS objects', async () => {
      const res = await people.add({
        ...JOHN,
        _owner_id: crypto.randomUUID(),
        _owner_collection: 'people',
      })
      await expectError(res, 400, 'ERR3002')
    })

    it('refuses imported times the store cannot hold (400 ERR3002), and stores nothing', async () => {
      const before = await ok(people.count())
      for (const name of ['_creation_time', '_modification_time', '_expiration_time']) {
        for (const time of ['9999-12-31T23:59:59Z', '0001-01-01T00:00:00Z']) {
          const body = { name: 'Old', ssn: '666-77-9999', [name]: time }
          const res = await people.add(body, 'import=true')
          expect((await expectError(res, 400, 'ERR3002')).context).toEqual({ property: name })
        }
      }
      expect(await ok(people.count())).toEqual(before)
      await ok(people.list('options=unsafe,show_builtins&page_size=1000'))
    })

    it('answers the creation and modification times in RFC 3339 with nanoseconds', async () => {
      const id = await addObject(people, { name: 'Hal', ssn: '888-99-1111' })
      const got = await ok(people.get(id, 'options=unsafe,show_builtins'))
      expect(got._creation_time).toMatch(NANO)
      expect(got._modification_time).toBe(got._creation_time)
      expect(got).toMatchObject({ _tenant_id: null, _owner_id: null, _owner_collection: null })
    })
  })

  describe('expiration_secs', () => {
    it('sets the expiry from now, or never with an empty value', async () => {
      const id = await addObject(
        people,
        { name: 'Ida', ssn: '123-11-1111' },
        'expiration_secs=3600',
      )
      const expected = new Date(clock.now() / 1000 + 3_600_000).toISOString().slice(0, 19)
      expect((await ok(people.get(id, 'props=_expiration_time')))._expiration_time).toMatch(
        expected,
      )
      const never = await addObject(people, { name: 'Jo', ssn: '123-11-2222' }, 'expiration_secs=')
      expect(await ok(people.get(never, 'props=_expiration_time'))).toEqual({
        _expiration_time: null,
      })
    })

    it('refuses 0 and values that are not whole seconds', async () => {
      for (const value of ['0', 'abc', '-5', '1.5']) {
        const res = await people.add(
          { name: 'Kim', ssn: '123-11-3333' },
          `expiration_secs=${value}`,
        )
        expect((await expectError(res, 400, 'ERR1012')).context).toEqual({
          field: 'expiration_secs',
        })
      }
    })

    it('refuses an expiry past the storable range (June 2255), on single and bulk adds', async () => {
      const before = await ok(people.count())
      for (const value of ['7300000000', '999999999999']) {
        const res = await people.add(
          { name: 'Max', ssn: '123-11-5555' },
          `expiration_secs=${value}`,
        )
        expect((await expectError(res, 400, 'ERR1012')).context).toEqual({
          field: 'expiration_secs',
        })
        const bulk = await people.addMany(
          [{ name: 'Max', ssn: '123-11-5555' }],
          `expiration_secs=${value}`,
        )
        await expectError(bulk, 400, 'ERR1012')
      }
      expect(await ok(people.count())).toEqual(before)
      await ok(people.list('options=unsafe,show_builtins&page_size=1000'))
      const far = await addObject(
        people,
        { name: 'Ned', ssn: '123-11-6666' },
        'expiration_secs=7000000000',
      )
      const { _expiration_time } = await ok(people.get(far, 'props=_expiration_time'))
      expect(_expiration_time).toMatch(/^225\d-/)
    })

    it('hides an object once its expiry passes', async () => {
      const id = await addObject(people, { name: 'Lu', ssn: '123-11-4444' }, 'expiration_secs=60')
      clock.advanceSeconds(61)
      await expectError(await people.get(id), 404, 'ERR3005')
      expect(await ok(people.get(id, 'options=unsafe,archived'))).toMatchObject({ id, name: 'Lu' })
    })
  })
})

describe('default expiry', () => {
  it('uses SVC_EXPIRATION_ASSOCIATED_OBJECTS for PERSONS and UNASSOCIATED for unowned DATA', async () => {
    const clock = testClock()
    const server = await startTestServer({
      clock: clock.now,
      env: {
        SVC_EXPIRATION_ASSOCIATED_OBJECTS: '100',
        SVC_EXPIRATION_UNASSOCIATED_OBJECTS: '200',
      },
    })
    await addCollection(server, PEOPLE)
    await addCollection(server, {
      name: 'notes',
      type: 'DATA',
      properties: [{ name: 'text', data_type_name: 'STRING' }],
    })
    const person = await addObject(objectsOf(server, 'people'), JOHN)
    const note = await addObject(objectsOf(server, 'notes'), { text: 'hi' })
    const owned = await addObject(objectsOf(server, 'notes'), {
      text: 'mine',
      _owner_id: person,
      _owner_collection: 'people',
    })
    const expiry = async (collection: string, id: string) =>
      (await ok(objectsOf(server, collection).get(id, 'props=_expiration_time')))._expiration_time
    const at = (secs: number) =>
      new Date(clock.now() / 1000 + secs * 1000).toISOString().slice(0, 19)
    expect(await expiry('people', person)).toMatch(at(100))
    expect(await expiry('notes', note)).toMatch(at(200))
    expect(await expiry('notes', owned)).toMatch(at(100))
    await server.close()
  })
})
