// test/api/objects-schema.test.ts: schema changes follow the object data (index built or dropped, values removed) and audit
import { afterAll, beforeAll, expect, it } from 'vitest'
import { expectError } from '../helpers/collections.ts'
import { describeEngines } from '../helpers/engines.ts'
import { addCollection, addObject, type ObjectsApi, objectsOf, ok } from '../helpers/objects.ts'
import { API, startTestServer, type TestServer } from '../helpers/server.ts'

const CONTACTS = {
  name: 'contacts',
  type: 'DATA',
  properties: [
    { name: 'email', data_type_name: 'EMAIL' },
    { name: 'code', data_type_name: 'STRING', is_unique: true, is_nullable: true },
    { name: 'nick', data_type_name: 'STRING', is_substring_index: true, is_nullable: true },
  ],
}

describeEngines('objects and schema changes', (engine) => {
  let server: TestServer
  let contacts: ObjectsApi
  const property = (name: string, body?: unknown, method = 'PATCH') =>
    server.request(method, `${API}/ctl/collections/contacts/properties/${name}`, { body })
  beforeAll(async () => {
    server = await startTestServer({ engine })
    await addCollection(server, CONTACTS)
    contacts = objectsOf(server, 'contacts')
  })
  afterAll(() => server.close())

  it('finds the same objects as is_index is turned on (index built) and off (scan)', async () => {
    const id = await addObject(contacts, { email: 'a@example.com' })
    const found = async () =>
      (await ok(contacts.search({ match: { email: 'a@example.com' } }, 'props=id'))).results
    // Without the index the search scans: the index makes it fast, not possible.
    expect(await found()).toEqual([{ id }])
    await ok(property('email', { is_index: true }))
    expect(await found()).toEqual([{ id }])
    await ok(property('email', { is_index: false }))
    expect(await found()).toEqual([{ id }])
    await ok(property('email', { is_index: true }))
    expect(
      (await ok(contacts.search({ match: { email: 'a@example.com' } }, 'props=id'))).results,
    ).toEqual([{ id }])
  })

  it('lets duplicate values in once is_unique is turned off, keeping equality search', async () => {
    await addObject(contacts, { email: 'b@example.com', code: 'C1' })
    await expectError(await contacts.add({ email: 'c@example.com', code: 'C1' }), 409, 'ERR9002')
    await ok(property('code', { is_unique: false, is_index: true }))
    await addObject(contacts, { email: 'c@example.com', code: 'C1' })
    expect(
      (await ok(contacts.search({ match: { code: 'C1' } }, 'props=email'))).results,
    ).toHaveLength(2)
  })

  it('stops substring search when is_substring_index is turned off', async () => {
    await addObject(contacts, { email: 'd@example.com', nick: 'Slartibartfast' })
    expect(
      (await ok(contacts.search({ like: { nick: '*bartfast*' } }, 'props=nick'))).results,
    ).toHaveLength(1)
    await ok(property('nick', { is_substring_index: false }))
    await expectError(
      await contacts.search({ like: { nick: '*bartfast*' } }, 'props=nick'),
      400,
      'ERR1012',
    )
  })

  it('removes the values of a deleted property, so a new property of that name starts empty', async () => {
    const id = await addObject(contacts, { email: 'e@example.com', nick: 'Zaphod' })
    await ok(property('nick', undefined, 'DELETE'))
    await expectError(await contacts.get(id, 'props=nick'), 404, 'ERR3004')
    await ok(
      property('nick', { name: 'nick', data_type_name: 'STRING', is_nullable: true }, 'POST'),
    )
    expect(await ok(contacts.get(id, 'props=nick,email'))).toEqual({
      nick: null,
      email: 'e@example.com',
    })
  })

  it('refuses a non-nullable new property once objects exist', async () => {
    const res = await property('extra', { name: 'extra', data_type_name: 'STRING' }, 'POST')
    await expectError(res, 400, 'ERR1012')
  })

  it('deletes the objects of a deleted collection', async () => {
    await ok(server.request('DELETE', `${API}/ctl/collections/contacts`))
    await addCollection(server, CONTACTS)
    expect(await ok(contacts.count())).toEqual({ active: 0, archived: 0, total: 0 })
    await addObject(contacts, { email: 'a@example.com', code: 'C1' })
  })

  it('gives a unique value to exactly one of several concurrent adds', async () => {
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        contacts.add({ email: `r${i}@example.com`, code: 'RACE' }),
      ),
    )
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409])
  })

  it('records audit events with names and ids, never values', async () => {
    const id = await addObject(contacts, { email: 'audited@example.com' }, 'custom_audit=ticket-7')
    await ok(contacts.get(id, 'props=email'))
    const events = (await server.app.store.audit.list({ limit: 1000 })).map((e) =>
      JSON.parse(e.record),
    )
    const add = events.find((e) => e.operation === 'add_object' && e.object_ids?.includes(id))
    const get = events.find((e) => e.operation === 'get_object' && e.object_ids?.includes(id))
    expect(add).toMatchObject({
      collection: 'contacts',
      properties: ['email'],
      custom_audit: 'ticket-7',
      status: 200,
    })
    expect(get).toMatchObject({
      collection: 'contacts',
      properties: ['email'],
      reason: 'AppFunctionality',
    })
    expect(JSON.stringify(events)).not.toContain('audited@example.com')
  })
})
