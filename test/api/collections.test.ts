// test/api/collections.test.ts: collections over HTTP in JSON and PVSchema: every operation, rule and error (endpoints §1)
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditRoute, type RequestContext } from '../../src/core/context.ts'
import { expectError, NANO, userProperty } from '../helpers/collections.ts'
import { describeEngines } from '../helpers/engines.ts'
import { API, type Json, startTestServer, type TestServer } from '../helpers/server.ts'

const BASE = `${API}/ctl/collections`
const PVSCHEMA = { 'content-type': 'application/pvschema' }

const CUSTOMERS_PVSCHEMA = `customers PERSONS (
  ssn SSN UNIQUE COMMENT 'Social security number',
  email EMAIL,
  phone_number PHONE_NUMBER NULL,
  zip_code_us ZIP_CODE_US NULL,
);`

describeEngines('collections API', (engine) => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ engine })
  })
  afterAll(() => server.close())

  const add = (body: unknown, query = '', headers?: Record<string, string>) =>
    server.request('POST', `${BASE}${query}`, { body, headers })
  const get = (name: string, query = '', headers?: Record<string, string>) =>
    server.request('GET', `${BASE}/${name}${query}`, { headers })
  const patch = (name: string, body: unknown, query = '', headers?: Record<string, string>) =>
    server.request('PATCH', `${BASE}/${name}${query}`, { body, headers })
  const remove = (name: string) => server.request('DELETE', `${BASE}/${name}`)

  describe('add, get and list', () => {
    it('adds a collection from JSON and answers it with every attribute filled in', async () => {
      const res = await add({
        name: 'people',
        type: 'PERSONS',
        properties: [
          { name: 'ssn', data_type_name: 'SSN', is_unique: true, description: 'SSN' },
          { name: 'email', data_type_name: 'EMAIL', is_nullable: true, is_index: true },
          { name: 'notes', data_type_name: 'LONG_TEXT', is_encrypted: false },
        ],
      })
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toMatch(/^application\/json/)
      expect(await res.json()).toEqual({
        name: 'people',
        type: 'PERSONS',
        properties: [
          userProperty('ssn', 'SSN', { is_unique: true, description: 'SSN' }),
          userProperty('email', 'EMAIL', { is_nullable: true, is_index: true }),
          userProperty('notes', 'LONG_TEXT', { is_encrypted: false }),
        ],
        creation_time: expect.stringMatching(NANO),
        modification_time: expect.stringMatching(NANO),
      })
    })

    it('gets a collection by its exact, case-sensitive name', async () => {
      const res = await get('people')
      expect(res.status).toBe(200)
      expect((await res.json()).properties.map((p: Json) => p.name)).toEqual([
        'ssn',
        'email',
        'notes',
      ])
      const body = await expectError(await get('People'), 404, 'ERR1004')
      expect(body.context).toEqual({ collection: 'People' })
    })

    it('shows the built-in properties first with show_builtins, as the spec defines them', async () => {
      const body = await (await get('people', '?options=show_builtins')).json()
      const builtins = body.properties.filter((p: Json) => p.is_builtin)
      expect(builtins.map((p: Json) => [p.name, p.data_type_name])).toEqual([
        ['id', 'OBJECT_ID'],
        ['_owner_id', 'OBJECT_ID'],
        ['_owner_collection', 'OBJECT_ID'],
        ['_tenant_id', 'TENANT_ID'],
        ['_creation_time', 'TIMESTAMP'],
        ['_modification_time', 'TIMESTAMP'],
        ['_expiration_time', 'TIMESTAMP'],
      ])
      expect(body.properties[0]).toMatchObject({
        is_unique: true,
        is_index: true,
        is_encrypted: false,
        is_nullable: false,
        is_readonly: true,
      })
      const flags = (p: Json) => [p.is_nullable, p.is_readonly]
      expect(builtins.slice(1).map(flags)).toEqual([
        [true, false],
        [true, false],
        [true, false],
        [false, true],
        [false, true],
        [true, true],
      ])
      expect(body.properties.slice(7).map((p: Json) => p.name)).toEqual(['ssn', 'email', 'notes'])
    })

    it('adds a collection from PVSchema text and answers JSON by default', async () => {
      const res = await add(CUSTOMERS_PVSCHEMA, '', PVSCHEMA)
      expect(res.status).toBe(200)
      const body = await res.json()
      expect(body.properties).toEqual([
        userProperty('ssn', 'SSN', { is_unique: true, description: 'Social security number' }),
        userProperty('email', 'EMAIL'),
        userProperty('phone_number', 'PHONE_NUMBER', { is_nullable: true }),
        userProperty('zip_code_us', 'ZIP_CODE_US', { is_nullable: true }),
      ])
    })

    it('answers PVSchema for format=pvschema, in the spec rendering', async () => {
      const res = await get('customers', '?format=pvschema')
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toMatch(/^application\/pvschema/)
      expect(await res.text()).toBe(CUSTOMERS_PVSCHEMA)
    })

    it('honours Accept, answers in the media type asked for, and lets format beat Accept', async () => {
      const xschema = await get('customers', '', { accept: 'application/xschema' })
      expect(xschema.headers.get('content-type')).toMatch(/^application\/xschema/)
      expect(await xschema.text()).toBe(CUSTOMERS_PVSCHEMA)
      const pv = await get('customers', '', { accept: 'text/html, application/pvschema;q=0.9' })
      expect(pv.headers.get('content-type')).toMatch(/^application\/pvschema/)
      const json = await get('customers', '?format=json', { accept: 'application/pvschema' })
      expect((await json.json()).name).toBe('customers')
      const x = await get('customers', '?format=xschema', { accept: 'application/json' })
      expect(x.headers.get('content-type')).toMatch(/^application\/xschema/)
    })

    it('accepts application/xschema bodies and JSON strings holding PVSchema', async () => {
      const xs = await add('orders DATA (\n  total INTEGER NULL\n)', '?format=pvschema', {
        'content-type': 'application/xschema',
      })
      expect(xs.status).toBe(200)
      expect(await xs.text()).toBe('orders DATA (\n  total INTEGER NULL,\n);')
      const json = await add(JSON.stringify('notes DATA (text LONG_TEXT)'), '', {
        'content-type': 'application/json',
      })
      expect((await json.json()).properties).toEqual([userProperty('text', 'LONG_TEXT')])
    })

    it('lists collections by name, in JSON or as PVSchema joined by newlines', async () => {
      const names = (await (await server.request('GET', BASE)).json()).map((c: Json) => c.name)
      expect(names).toEqual(['customers', 'notes', 'orders', 'people'])
      const res = await server.request('GET', `${BASE}?format=pvschema`)
      const text = await res.text()
      expect(text.split('\n);\n').length).toBe(4)
      expect(text.startsWith(`${CUSTOMERS_PVSCHEMA}\nnotes DATA (`)).toBe(true)
      const withBuiltins = await (
        await server.request('GET', `${BASE}?options=show_builtins`)
      ).json()
      expect(withBuiltins[0].properties[0].name).toBe('id')
    })

    it('gives the same collection from JSON and from its PVSchema rendering', async () => {
      const json = await (await get('people')).json()
      const text = await (await get('people', '?format=pvschema&options=show_builtins')).text()
      expect((await remove('people')).status).toBe(200)
      expect((await add(text, '', PVSCHEMA)).status).toBe(200)
      const again = await (await get('people')).json()
      const strip = (c: Json) =>
        c.properties.map(({ creation_time, modification_time, ...p }: Json) => p)
      expect(strip(again)).toEqual(strip(json))
      expect(again.type).toBe(json.type)
    })

    it('ignores invalid optional attributes and output-only members in JSON (seed 2.2)', async () => {
      const res = await add({
        name: 'lenient',
        type: 'DATA',
        creation_time: 'yesterday',
        properties: [
          {
            name: 'a',
            data_type_name: 'STRING',
            is_index: 'yes',
            is_nullable: 1,
            description: 42,
            is_builtin: true,
            is_readonly: true,
            modification_time: 'x',
          },
        ],
      })
      expect(res.status).toBe(200)
      expect((await res.json()).properties).toEqual([userProperty('a', 'STRING')])
    })

    it('accepts a collection without properties, and built-ins listed exactly as defined', async () => {
      expect((await add({ name: 'empty', type: 'DATA', properties: [] })).status).toBe(200)
      const res = await add({
        name: 'withid',
        type: 'DATA',
        properties: [
          { name: 'id', data_type_name: 'OBJECT_ID', is_unique: true, is_encrypted: false },
          { name: '_creation_time', data_type_name: 'TIMESTAMP' },
          { name: 'x', data_type_name: 'STRING' },
        ],
      })
      expect((await res.json()).properties.map((p: Json) => p.name)).toEqual(['x'])
    })
  })

  describe('add: bad input', () => {
    it.each([
      ['9lives', 'it must start with a letter'],
      ['_hidden', 'reserved for built-in properties'],
      ['with-dash', 'only letters, digits and _ are allowed'],
      ['', 'it is empty'],
      ['a'.repeat(41), 'longer than 40 characters'],
      ['a'.repeat(10_000), 'longer than 450 characters'],
    ])('refuses the collection name %j with 400 ERR1008', async (name, reason) => {
      const body = await expectError(await add({ name, type: 'DATA' }), 400, 'ERR1008')
      expect(body.message).toContain(reason)
    })

    it('refuses a collection name plus longest property name over 40 with 400 ERR1008', async () => {
      const res = await add({
        name: 'a'.repeat(20),
        type: 'DATA',
        properties: [{ name: 'b'.repeat(21), data_type_name: 'STRING' }],
      })
      const body = await expectError(res, 400, 'ERR1008')
      expect(body.context).toEqual({ collection: 'a'.repeat(20), property: 'b'.repeat(21) })
      const fits = await add({
        name: 'c'.repeat(20),
        type: 'DATA',
        properties: [{ name: 'd'.repeat(20), data_type_name: 'STRING' }],
      })
      expect(fits.status).toBe(200)
    })

    it('refuses an unknown schema prototype with 400 ERR1012 naming the collection', async () => {
      const body = await expectError(await add({ name: 'things', type: 'THINGS' }), 400, 'ERR1012')
      expect(body.context.collection).toBe('things')
      await expectError(await add('things THINGS ()', '', PVSCHEMA), 400, 'ERR1012')
    })

    it('answers 404 ERR1004 for an unknown data type, naming the property', async () => {
      const res = await add({
        name: 'bad',
        type: 'DATA',
        properties: [{ name: 'x', data_type_name: 'NOPE' }],
      })
      const body = await expectError(res, 404, 'ERR1004')
      expect(body.context).toMatchObject({ collection: 'bad', property: 'x', data_type: 'NOPE' })
    })

    it.each([
      ['is_index', 'JSON'],
      ['is_unique', 'BLOB'],
      ['is_index', 'LONG_TEXT'],
      ['is_substring_index', 'INTEGER'],
      ['is_substring_index', 'PHONE_NUMBER'],
    ])('refuses %s on %s with 400 ERR1012 naming the property', async (flag, dataType) => {
      const res = await add({
        name: 'bad',
        type: 'DATA',
        properties: [{ name: 'x', data_type_name: dataType, [flag]: true }],
      })
      const body = await expectError(res, 400, 'ERR1012')
      expect(body.message).toBe(
        `The property x cannot set ${flag}: data type ${dataType} does not support it.`,
      )
      expect(body.context).toEqual({ collection: 'bad', property: 'x' })
    })

    it.each(['id', 'ID', '_secret', '1st', 'has space'])(
      'refuses the property name %j with 400 ERR1012',
      async (name) => {
        const res = await add({
          name: 'bad',
          type: 'DATA',
          properties: [{ name, data_type_name: 'STRING' }],
        })
        const body = await expectError(res, 400, 'ERR1012')
        expect(body.context.collection).toBe('bad')
      },
    )

    it('refuses a built-in listed differently from its definition', async () => {
      const res = await add({
        name: 'bad',
        type: 'DATA',
        properties: [{ name: 'id', data_type_name: 'OBJECT_ID', is_encrypted: true }],
      })
      const body = await expectError(res, 400, 'ERR1012')
      expect(body.message).toBe('The built-in property id cannot be defined or changed.')
    })

    it('answers 409 ERR9001 for property names that differ only by case', async () => {
      const res = await add({
        name: 'dups',
        type: 'DATA',
        properties: [
          { name: 'email', data_type_name: 'EMAIL' },
          { name: 'Email', data_type_name: 'EMAIL' },
        ],
      })
      const body = await expectError(res, 409, 'ERR9001')
      expect(body.context).toEqual({ collection: 'dups', property: 'Email' })
    })

    it('answers 409 ERR9001 for a collection name taken in any case', async () => {
      await expectError(await add({ name: 'CUSTOMERS', type: 'DATA' }), 409, 'ERR9001')
      await expectError(await add({ name: 'customers', type: 'PERSONS' }), 409, 'ERR9001')
    })

    it('answers 400 ERR1012 with line and column for malformed PVSchema', async () => {
      const res = await add('broken DATA (\n  a STRING,\n  b\n)', '', PVSCHEMA)
      const body = await expectError(res, 400, 'ERR1012')
      expect(body.message).toBe(
        "The PVSchema text is invalid at line 4, column 1: expected a data type after property b, found ')'.",
      )
      expect(body.context).toEqual({ line: '4', column: '1' })
      const two = await add('a DATA () b DATA ()', '', PVSCHEMA)
      expect((await expectError(two, 400, 'ERR1012')).message).toContain('exactly one collection')
    })

    it.each([
      [{ name: 5, type: 'DATA' }, 'name'],
      [{ type: 'DATA' }, 'name'],
      [{ name: 'x', type: 'DATA', properties: {} }, 'properties'],
      [{ name: 'x', type: 'DATA', properties: [5] }, 'properties.0'],
      [{ name: 'x', type: 'DATA', properties: [{ name: 'a' }] }, 'properties.0.data_type_name'],
      [
        { name: 'x', type: 'DATA', properties: [{ name: 'a', data_type_name: 1 }] },
        'properties.0.data_type_name',
      ],
      [[], 'body'],
    ])('answers 400 ERR1012 naming the field for %j', async (body, field) => {
      const error = await expectError(await add(body), 400, 'ERR1012')
      expect(error.context.field).toBe(field)
    })

    it('refuses unknown format and options values with 400 ERR1012', async () => {
      await expectError(await server.request('GET', `${BASE}?format=yaml`), 400, 'ERR1012')
      await expectError(await server.request('GET', `${BASE}?options=archived`), 400, 'ERR1012')
      await expectError(await get('customers', '?options=show_builtins,unsafe'), 400, 'ERR1012')
    })
  })

  describe('update', () => {
    beforeAll(async () => {
      await add({
        name: 'accounts',
        type: 'PERSONS',
        properties: [
          { name: 'email', data_type_name: 'EMAIL', is_unique: true, description: 'old' },
          { name: 'nick', data_type_name: 'NAME', is_substring_index: true },
          { name: 'phone', data_type_name: 'PHONE_NUMBER', is_nullable: true },
          { name: 'blob', data_type_name: 'BLOB' },
        ],
      })
    })

    const accounts = (properties: Json[]) => ({ name: 'accounts', type: 'PERSONS', properties })

    it('adds new properties, applies allowed changes, ignores the rest and keeps missing ones', async () => {
      const before = await (await get('accounts')).json()
      const res = await patch(
        'accounts',
        accounts([
          {
            name: 'email',
            data_type_name: 'STRING',
            is_unique: false,
            is_index: true,
            description: 'new',
            is_encrypted: false,
          },
          { name: 'nick', data_type_name: 'NAME', is_substring_index: false, is_nullable: true },
          { name: 'age', data_type_name: 'INTEGER', is_nullable: true },
        ]),
      )
      expect(res.status).toBe(200)
      const body = await res.json()
      expect(body.properties).toEqual([
        userProperty('email', 'EMAIL', { is_index: true, description: 'new' }),
        userProperty('nick', 'NAME', { is_nullable: true }),
        userProperty('phone', 'PHONE_NUMBER', { is_nullable: true }),
        userProperty('blob', 'BLOB'),
        userProperty('age', 'INTEGER', { is_nullable: true }),
      ])
      expect(body.modification_time > before.modification_time).toBe(true)
      expect(body.properties[0].modification_time > before.properties[0].modification_time).toBe(
        true,
      )
      expect(body.properties[2].modification_time).toBe(before.properties[2].modification_time)
    })

    it('turns is_index off again and leaves absent JSON attributes unchanged', async () => {
      const res = await patch(
        'accounts',
        accounts([{ name: 'email', data_type_name: 'EMAIL', is_index: false }]),
      )
      const email = (await res.json()).properties[0]
      expect(email).toMatchObject({ is_index: false, description: 'new', is_unique: false })
    })

    it.each([
      [
        { name: 'phone', data_type_name: 'PHONE_NUMBER', is_nullable: false },
        'is_nullable from true to false',
      ],
      [
        { name: 'phone', data_type_name: 'PHONE_NUMBER', is_unique: true },
        'is_unique from false to true',
      ],
      [
        { name: 'email', data_type_name: 'EMAIL', is_substring_index: true },
        'is_substring_index from false to true',
      ],
      [
        { name: 'blob', data_type_name: 'BLOB', is_index: true },
        'cannot set is_index: data type BLOB',
      ],
    ])(
      'refuses a forbidden change %j with 400 ERR1012 naming the property',
      async (property, text) => {
        const body = await expectError(
          await patch('accounts', accounts([property])),
          400,
          'ERR1012',
        )
        expect(body.message).toContain(text)
        expect(body.context).toEqual({ collection: 'accounts', property: property.name })
      },
    )

    it('applies nothing when one change of the request is forbidden', async () => {
      const res = await patch(
        'accounts',
        accounts([
          { name: 'extra', data_type_name: 'STRING', is_nullable: true },
          { name: 'phone', data_type_name: 'PHONE_NUMBER', is_nullable: false },
        ]),
      )
      await expectError(res, 400, 'ERR1012')
      const names = (await (await get('accounts')).json()).properties.map((p: Json) => p.name)
      expect(names).not.toContain('extra')
    })

    it('refuses a body name different from the path, even by case', async () => {
      const res = await patch('accounts', { name: 'Accounts', type: 'PERSONS', properties: [] })
      await expectError(res, 400, 'ERR1012')
    })

    it('refuses a prototype change', async () => {
      const res = await patch('accounts', { name: 'accounts', type: 'DATA', properties: [] })
      expect((await expectError(res, 400, 'ERR1012')).message).toContain('cannot change')
    })

    it('refuses changed built-ins and accepts identical ones', async () => {
      const changed = accounts([
        { name: '_tenant_id', data_type_name: 'TENANT_ID', is_nullable: false },
      ])
      await expectError(await patch('accounts', changed), 400, 'ERR1012')
      const same = accounts([
        { name: '_tenant_id', data_type_name: 'TENANT_ID', is_nullable: true },
      ])
      expect((await patch('accounts', same)).status).toBe(200)
    })

    it('answers 409 for a new property whose name differs only by case from an existing one', async () => {
      const res = await patch('accounts', accounts([{ name: 'EMAIL', data_type_name: 'EMAIL' }]))
      await expectError(res, 409, 'ERR9001')
    })

    it('applies the name length rule to new properties with 400 ERR1012', async () => {
      const res = await patch(
        'accounts',
        accounts([{ name: 'p'.repeat(33), data_type_name: 'STRING', is_nullable: true }]),
      )
      await expectError(res, 400, 'ERR1012')
    })

    it('updates from PVSchema and answers PVSchema', async () => {
      const text = await (await get('accounts', '?format=pvschema')).text()
      const changed = text
        .replace('  blob BLOB,', "  blob BLOB COMMENT 'raw',")
        .replace(/\);$/, '  city ADDRESS NULL,\n);')
      const res = await patch('accounts', changed, '?format=pvschema', PVSCHEMA)
      expect(res.status).toBe(200)
      expect(await res.text()).toBe(changed)
    })

    it('answers 404 ERR1004 for an unknown collection', async () => {
      await expectError(
        await patch('ghost', { name: 'ghost', type: 'DATA', properties: [] }),
        404,
        'ERR1004',
      )
    })

    it('is exempt from the call timeout', async () => {
      const slow = await startTestServer({ engine, env: { SVC_SERVICE_TIMEOUT_SECONDS: '0.001' } })
      try {
        await slow.app.services.collections.create(slowContext(slow), {
          name: 'c',
          type: 'DATA',
          properties: [{ name: 'p', dataType: 'STRING' }],
        })
        for (let i = 0; i < 5; i++) {
          const res = await slow.request('PATCH', `${BASE}/c`, {
            body: {
              name: 'c',
              type: 'DATA',
              properties: [{ name: `n${i}`, data_type_name: 'STRING', is_nullable: true }],
            },
          })
          expect(res.status).toBe(200)
          const prop = await slow.request('PATCH', `${BASE}/c/properties/p`, {
            body: { description: `d${i}` },
          })
          expect(prop.status).toBe(200)
        }
      } finally {
        await slow.close()
      }
    })
  })

  describe('delete', () => {
    it('deletes a collection with an empty 200 and frees its name', async () => {
      await add({
        name: 'temp',
        type: 'DATA',
        properties: [{ name: 'a', data_type_name: 'STRING' }],
      })
      const res = await remove('temp')
      expect(res.status).toBe(200)
      expect(await res.text()).toBe('')
      await expectError(await get('temp'), 404, 'ERR1004')
      await expectError(await remove('temp'), 404, 'ERR1004')
      expect((await add({ name: 'TEMP', type: 'PERSONS' })).status).toBe(200)
    })
  })

  it('records each control call in the audit log with the collection name', async () => {
    await get('customers', '?custom_audit=ticket-9')
    const rows = await server.app.store.audit.list({ limit: 10_000 })
    const event = JSON.parse(rows.at(-1)?.record ?? '{}')
    expect(event).toMatchObject({
      operation: 'get_collection',
      collection: 'customers',
      custom_audit: 'ticket-9',
      status: 200,
    })
  })
})

/** A context for calling the service directly, where the HTTP timeout would get in the way. */
function slowContext(server: TestServer): RequestContext {
  return {
    requestId: 'test',
    principal: { username: 'Admin', role: 'Admin', isAdmin: true, authKind: 'api_key' },
    now: server.app.services.clock(),
    signal: new AbortController().signal,
    reason: undefined,
    customAudit: undefined,
    tenantIds: [],
    transParam: undefined,
    remoteAddr: undefined,
    audit: auditRoute('add_collection', 'POST', BASE),
  }
}
