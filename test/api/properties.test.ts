// test/api/properties.test.ts: collection properties over HTTP: list, add, get, update, delete and their errors (endpoints §2)
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectError, userProperty } from '../helpers/collections.ts'
import { describeEngines } from '../helpers/engines.ts'
import { API, type Json, startTestServer, type TestServer } from '../helpers/server.ts'

const BASE = `${API}/ctl/collections`

describeEngines('collection properties API', (engine) => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ engine })
    const res = await server.request('POST', BASE, {
      body: {
        name: 'people',
        type: 'PERSONS',
        properties: [
          { name: 'ssn', data_type_name: 'SSN', is_unique: true, description: 'SSN' },
          { name: 'name', data_type_name: 'NAME', is_substring_index: true },
          { name: 'phone', data_type_name: 'PHONE_NUMBER', is_nullable: true },
          { name: 'doc', data_type_name: 'JSON' },
        ],
      },
    })
    expect(res.status).toBe(200)
  })
  afterAll(() => server.close())

  const path = (property: string, collection = 'people') =>
    `${BASE}/${collection}/properties/${property}`
  const add = (name: string, body: unknown, collection = 'people') =>
    server.request('POST', path(name, collection), { body })
  const update = (name: string, body: unknown, collection = 'people') =>
    server.request('PATCH', path(name, collection), { body })

  describe('list and get', () => {
    it('lists user properties, with built-ins first on show_builtins', async () => {
      const res = await server.request('GET', `${BASE}/people/properties`)
      expect(res.status).toBe(200)
      expect((await res.json()).map((p: Json) => p.name)).toEqual(['ssn', 'name', 'phone', 'doc'])
      const all = await (
        await server.request('GET', `${BASE}/people/properties?options=show_builtins`)
      ).json()
      expect(all.map((p: Json) => p.name).slice(0, 2)).toEqual(['id', '_owner_id'])
      expect(all).toHaveLength(11)
    })

    it('answers 404 ERR1004 listing an unknown collection', async () => {
      await expectError(await server.request('GET', `${BASE}/ghost/properties`), 404, 'ERR1004')
    })

    it('gets user and built-in properties by name', async () => {
      const ssn = await server.request('GET', path('ssn'))
      expect(await ssn.json()).toEqual(
        userProperty('ssn', 'SSN', { is_unique: true, description: 'SSN' }),
      )
      const id = await (await server.request('GET', path('id'))).json()
      expect(id).toMatchObject({ name: 'id', is_builtin: true, is_readonly: true, is_unique: true })
    })

    it('answers 404 ERR3004 for an unknown property and ERR1004 for an unknown collection', async () => {
      const body = await expectError(await server.request('GET', path('nope')), 404, 'ERR3004')
      expect(body.context).toEqual({ collection: 'people', property: 'nope' })
      await expectError(await server.request('GET', path('SSN')), 404, 'ERR3004')
      await expectError(await server.request('GET', path('ssn', 'ghost')), 404, 'ERR1004')
    })
  })

  describe('add', () => {
    it('adds a property and answers it with defaults applied', async () => {
      const res = await add('email', { name: 'email', data_type_name: 'EMAIL', is_index: true })
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual(userProperty('email', 'EMAIL', { is_index: true }))
      const names = (await (await server.request('GET', `${BASE}/people`)).json()).properties
      expect(names.map((p: Json) => p.name)).toEqual(['ssn', 'name', 'phone', 'doc', 'email'])
    })

    it('changes the collection modification time', async () => {
      const before = (await (await server.request('GET', `${BASE}/people`)).json())
        .modification_time
      await add('city', { name: 'city', data_type_name: 'ADDRESS', is_nullable: true })
      const after = (await (await server.request('GET', `${BASE}/people`)).json()).modification_time
      expect(after > before).toBe(true)
    })

    it('ignores invalid optional attributes (seed 2.2)', async () => {
      const res = await add('note', { name: 'note', data_type_name: 'STRING', is_unique: 'true' })
      expect((await res.json()).is_unique).toBe(false)
    })

    it('refuses a body name different from the path with 400 ERR1012', async () => {
      const body = await expectError(
        await add('zip', { name: 'Zip', data_type_name: 'ZIP_CODE_US' }),
        400,
        'ERR1012',
      )
      expect(body.context).toEqual({ collection: 'people', property: 'zip' })
    })

    it('answers 409 ERR9001 for a name taken in any case', async () => {
      const body = await expectError(
        await add('SSN', { name: 'SSN', data_type_name: 'SSN' }),
        409,
        'ERR9001',
      )
      expect(body.context).toEqual({ collection: 'people', property: 'SSN' })
    })

    it.each(['id', '_owner_id', '_x', '2fa'])(
      'refuses the name %j with 400 ERR1012',
      async (name) => {
        await expectError(await add(name, { name, data_type_name: 'STRING' }), 400, 'ERR1012')
      },
    )

    it('refuses a name that makes collection + property longer than 40 with 400 ERR1012', async () => {
      const name = 'p'.repeat(35)
      const body = await expectError(
        await add(name, { name, data_type_name: 'STRING' }),
        400,
        'ERR1012',
      )
      expect(body.context).toEqual({ collection: 'people', property: name })
      const fits = 'q'.repeat(34)
      expect((await add(fits, { name: fits, data_type_name: 'STRING' })).status).toBe(200)
    })

    it('answers 404 ERR1004 for an unknown data type or collection', async () => {
      await expectError(await add('x', { name: 'x', data_type_name: 'NOPE' }), 404, 'ERR1004')
      await expectError(
        await add('x', { name: 'x', data_type_name: 'STRING' }, 'ghost'),
        404,
        'ERR1004',
      )
    })

    it('refuses is_index on LONG_TEXT with 400 ERR1012 naming the property', async () => {
      const res = await add('bio', { name: 'bio', data_type_name: 'LONG_TEXT', is_index: true })
      const body = await expectError(res, 400, 'ERR1012')
      expect(body.context).toEqual({ collection: 'people', property: 'bio' })
    })

    it('answers 400 ERR1012 for a body of the wrong shape', async () => {
      await expectError(await add('x', { name: 'x' }), 400, 'ERR1012')
      await expectError(await add('x', 'x STRING'), 400, 'ERR1012')
    })
  })

  describe('update', () => {
    it('changes the description and sets it to empty when absent (seed)', async () => {
      const res = await update('ssn', { description: 'Social security number' })
      expect((await res.json()).description).toBe('Social security number')
      const cleared = await (await update('ssn', { is_unique: true })).json()
      expect(cleared).toMatchObject({ description: '', is_unique: true })
    })

    it('applies the allowed one-way changes and is_index both ways', async () => {
      const before = await (await server.request('GET', path('name'))).json()
      const res = await update('name', {
        is_substring_index: false,
        is_nullable: true,
        is_index: true,
        description: 'd',
      })
      const after = await res.json()
      expect(after).toMatchObject({ is_substring_index: false, is_nullable: true, is_index: true })
      expect(after.modification_time > before.modification_time).toBe(true)
      expect(after.creation_time).toBe(before.creation_time)
      expect((await (await update('name', { is_index: false })).json()).is_index).toBe(false)
      expect((await (await update('ssn', { is_unique: false })).json()).is_unique).toBe(false)
    })

    it.each([
      ['name', { is_substring_index: true }, 'is_substring_index from false to true'],
      ['phone', { is_nullable: false }, 'is_nullable from true to false'],
      ['ssn', { is_unique: true }, 'is_unique from false to true'],
      ['doc', { is_index: true }, 'cannot set is_index: data type JSON'],
    ])('refuses %s %j with 400 ERR1012', async (name, body, text) => {
      const error = await expectError(await update(name, body), 400, 'ERR1012')
      expect(error.message).toContain(text)
      expect(error.context).toEqual({ collection: 'people', property: name })
    })

    it('refuses a body name different from the path and accepts a matching one', async () => {
      await expectError(await update('phone', { name: 'other' }), 400, 'ERR1012')
      expect((await update('phone', { name: 'phone', description: 'p' })).status).toBe(200)
    })

    it('refuses changes to built-ins with 400 ERR1012', async () => {
      const body = await expectError(
        await update('_tenant_id', { description: 'x' }),
        400,
        'ERR1012',
      )
      expect(body.message).toBe('The built-in property _tenant_id cannot be changed.')
    })

    it('answers 404 for an unknown property or collection', async () => {
      await expectError(await update('nope', { description: 'x' }), 404, 'ERR3004')
      await expectError(await update('ssn', { description: 'x' }, 'ghost'), 404, 'ERR1004')
    })

    it('answers 400 ERR1012 for a body that is not an object', async () => {
      await expectError(await update('phone', [1]), 400, 'ERR1012')
    })
  })

  describe('delete', () => {
    it('deletes a property with an empty 200; the name can be added again', async () => {
      const res = await server.request('DELETE', path('city'))
      expect(res.status).toBe(200)
      expect(await res.text()).toBe('')
      await expectError(await server.request('GET', path('city')), 404, 'ERR3004')
      await expectError(await server.request('DELETE', path('city')), 404, 'ERR3004')
      const again = await add('City', { name: 'City', data_type_name: 'STRING', is_nullable: true })
      expect(again.status).toBe(200)
    })

    it('refuses to delete built-ins with 400 ERR1012', async () => {
      for (const name of ['id', '_creation_time', '_expiration_time'])
        await expectError(await server.request('DELETE', path(name)), 400, 'ERR1012')
    })

    it('answers 404 ERR1004 for an unknown collection', async () => {
      await expectError(await server.request('DELETE', path('x', 'ghost')), 404, 'ERR1004')
    })
  })

  it('records the property in the audit log', async () => {
    await server.request('GET', path('ssn'))
    const rows = await server.app.store.audit.list({ limit: 10_000 })
    const event = JSON.parse(rows.at(-1)?.record ?? '{}')
    expect(event).toMatchObject({
      operation: 'get_property',
      collection: 'people',
      properties: ['ssn'],
    })
  })
})
