// test/api/custom-types-data.test.ts: custom data types on the data path: the write pipeline and custom transformers (data-model §8)
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addBundle, ok, SSN_HELPERS } from '../helpers/bundles.ts'
import { expectError } from '../helpers/collections.ts'
import { describeEngines } from '../helpers/engines.ts'
import { addCollection, type ObjectsApi, objectsOf, REASON } from '../helpers/objects.ts'
import { API, startTestServer, type TestServer } from '../helpers/server.ts'

const TYPES = `${API}/ctl/types`

const VIEWS = `
exports.greeting = {
  type: 'transformer',
  dependencies: { properties: ['na*'] },
  handler: (context, object, value) =>
    [context.param ?? '-', context.prop, context.props[context.prop], context.collection,
     context.user, context.reason, object.name ?? 'none', value].join('|'),
}
exports.upper = { type: 'transformer', handler: (c, o, value) => value.toUpperCase() }
exports.throws = { type: 'transformer', handler: () => { throw new TypeError('no ' + 'value') } }
exports.loops = { type: 'transformer', handler: () => { for (;;) {} } }
`

const HOSTILE = `
exports.yes = { type: 'validator', handler: () => 'yes' }
exports.nothing = { type: 'validator', handler: () => undefined }
exports.asyncTrue = { type: 'validator', handler: async () => true }
exports.boom = { type: 'validator', handler: () => { throw new RangeError('x') } }
exports.spin = { type: 'validator', handler: () => { for (;;) {} } }
exports.toNumber = { type: 'normalizer', handler: (v) => v.length }
exports.toLong = { type: 'normalizer', handler: (v) => 'x'.repeat(100000) }
exports.same = { type: 'normalizer', handler: (v) => v }
`

describeEngines('custom data types on the data path', (engine) => {
  let server: TestServer
  let people: ObjectsApi
  const addType = (body: unknown) => ok(server.request('POST', TYPES, { body }))

  beforeAll(async () => {
    server = await startTestServer({ engine })
    await addBundle(server, 'string_ssn', SSN_HELPERS)
    await addBundle(server, 'views', VIEWS)
    await addBundle(server, 'hostile', HOSTILE)
    await addType({
      name: 'STRING_SSN',
      base_type_name: 'STRING',
      validator: 'string_ssn.validate',
      normalizer: 'string_ssn.normalize',
      transformers: ['string_ssn.mask', 'views.greeting', 'views.throws', 'views.loops'],
      default_transformer: 'mask',
    })
    await addType({ name: 'SHOUT', base_type_name: 'NAME', transformers: ['views.upper'] })
    for (const [name, functions] of Object.entries({
      YES: { validator: 'hostile.yes' },
      NOTHING: { validator: 'hostile.nothing' },
      ASYNC_TRUE: { validator: 'hostile.asyncTrue' },
      BOOM: { validator: 'hostile.boom' },
      SPIN: { validator: 'hostile.spin' },
      TO_NUMBER: { normalizer: 'hostile.toNumber' },
      TO_LONG: { normalizer: 'hostile.toLong' },
    }))
      await addType({ name, base_type_name: 'STRING', ...functions })
    await addCollection(server, {
      name: 'people',
      type: 'PERSONS',
      properties: [
        { name: 'name', data_type_name: 'SHOUT' },
        { name: 'ssn', data_type_name: 'STRING_SSN', is_unique: true },
        { name: 'plain', data_type_name: 'STRING_SSN', is_encrypted: false, is_nullable: true },
        ...['YES', 'NOTHING', 'ASYNC_TRUE', 'BOOM', 'SPIN', 'TO_NUMBER', 'TO_LONG'].map((t) => ({
          name: t.toLowerCase(),
          data_type_name: t,
          is_nullable: true,
        })),
      ],
    })
    people = objectsOf(server, 'people')
  })
  afterAll(() => server.close())

  describe('write pipeline', () => {
    let id: string
    it('validates with the base type, then the custom validator, then normalizes', async () => {
      id = (await ok(people.add({ name: 'Ann Lee', ssn: '123-45-6789', plain: '987-65-4321' }))).id
      expect(await ok(people.get(id, 'props=ssn,plain'))).toEqual({
        ssn: '123456789',
        plain: '987654321',
      })
    })

    it('refuses a value the custom validator rejects with 400 ERR3002 naming bundle and function', async () => {
      const body = await expectError(
        await people.add({ name: 'Bo', ssn: '12-345' }),
        400,
        'ERR3002',
      )
      expect(body.message).toBe(
        'The value of property ssn is invalid: the validator string_ssn.validate rejected it.',
      )
      expect(body.context).toEqual({ property: 'ssn', bundle: 'string_ssn', function: 'validate' })
    })

    it('applies the base type first: a wrong JSON type never reaches the validator', async () => {
      const body = await expectError(await people.add({ name: 'Bo', ssn: 123 }), 400, 'ERR3002')
      expect(body.context).toEqual({ property: 'ssn' })
    })

    it('refuses validators that do not answer true with a boolean, naming them', async () => {
      const cases: [string, RegExp][] = [
        ['yes', /validator hostile\.yes returned a string instead of a boolean/],
        ['nothing', /validator hostile\.nothing returned/],
        ['boom', /validator hostile\.boom failed: it threw RangeError/],
      ]
      for (const [property, message] of cases) {
        const res = await people.add({ name: 'Bo', ssn: '111-22-3333', [property]: 'v' })
        const body = await expectError(res, 400, 'ERR3002')
        expect(body.message).toMatch(message)
        expect(body.context.property).toBe(property)
      }
      await ok(people.add({ name: 'Bo', ssn: '111-22-3334', async_true: 'v' }))
    })

    it('reports the first bad property in collection order when several are bad', async () => {
      for (let i = 0; i < 3; i++) {
        const res = await people.add({ yes: 'v', boom: 'v', name: 'Bo', ssn: 'bad' })
        expect((await expectError(res, 400, 'ERR3002')).context.property).toBe('ssn')
      }
    })

    it('answers 503 ERR1009 when a validator never returns; health keeps answering', async () => {
      const res = await people.add({ name: 'Bo', ssn: '111-22-3335', spin: 'v' })
      const body = await expectError(res, 503, 'ERR1009')
      expect(body.context).toEqual({ bundle: 'hostile', function: 'spin' })
      expect((await server.request('GET', '/api/pvlt/1.0/data/info/health')).status).toBe(200)
    })

    it('checks the normalized value with the base type again', async () => {
      const cases: [string, RegExp][] = [
        ['to_number', /normalizer hostile\.toNumber returned a value that is not a valid STRING/],
        ['to_long', /normalizer hostile\.toLong returned a value that is not a valid STRING/],
      ]
      for (const [property, message] of cases) {
        const res = await people.add({ name: 'Bo', ssn: '111-22-3336', [property]: 'v' })
        const body = await expectError(res, 400, 'ERR3002')
        expect(body.message).toMatch(message)
      }
      const count = await ok(people.count())
      expect(count.active).toBe(2)
    })

    it('enforces uniqueness on the normalized value', async () => {
      await expectError(await people.add({ name: 'Cy', ssn: '123456789' }), 409, 'ERR9002')
    })

    it('runs the pipeline per item on bulk add; nothing is written when one item fails', async () => {
      const res = await people.addMany([
        { name: 'Di', ssn: '222-33-4444' },
        { name: 'Ed', ssn: 'nope' },
        { name: 'Fa', ssn: '222-33-4445', yes: 'x' },
      ])
      const body = await res.json()
      expect(body.ok).toBe(false)
      expect(body.results.map((r: { ok: boolean }) => r.ok)).toEqual([true, false, false])
      expect(body.results[1].error).toMatchObject({
        error_code: 'ERR3002',
        context: { property: 'ssn', bundle: 'string_ssn', function: 'validate' },
      })
      expect(body.results[2].error.context).toMatchObject({ property: 'yes', function: 'yes' })
      expect((await ok(people.count())).active).toBe(2)
      const added = await ok(
        people.addMany([
          { name: 'Di', ssn: '222-33-4444' },
          { name: 'Ed', ssn: '222-33-4446' },
        ]),
      )
      expect(added.ok).toBe(true)
      const listed = await ok(people.list('props=ssn'))
      expect(listed.results.map((r: { ssn: string }) => r.ssn)).toContain('222334446')
    })

    it('runs the pipeline on update', async () => {
      await ok(people.update(id, { ssn: '555-66-7777' }))
      expect(await ok(people.get(id, 'props=ssn'))).toEqual({ ssn: '555667777' })
      await expectError(await people.update(id, { ssn: 'bad' }), 400, 'ERR3002')
      const bulk = await (await people.updateMany([{ id, ssn: 'bad' }])).json()
      expect(bulk.results[0]).toMatchObject({ ok: false, id, error: { error_code: 'ERR3002' } })
      expect(await ok(people.get(id, 'props=ssn'))).toEqual({ ssn: '555667777' })
    })
  })

  describe('custom transformers', () => {
    it('applies a custom transformer by function name, and the inherited built-ins', async () => {
      const list = await ok(people.list('props=ssn.mask,name.upper,name.mask,ssn.token'))
      expect(list.results[0]).toEqual({
        'ssn.mask': '*****7777',
        'name.upper': 'ANN LEE',
        'name.mask': 'A** L**',
        'ssn.token': null,
      })
    })

    it('passes the context, X-Trans-Param and the dependency properties', async () => {
      const [first] = (await ok(people.list('props=ssn.greeting'))).results
      expect(first['ssn.greeting']).toBe(
        '-|ssn|STRING_SSN|people|Admin|AppFunctionality|Ann Lee|555667777',
      )
      const res = await server.request(
        'GET',
        `${API}/data/collections/people/objects?${REASON}&props=ssn.greeting`,
        { headers: { 'X-Trans-Param': 'p1' } },
      )
      expect((await ok(res)).results[0]['ssn.greeting']).toMatch(/^p1\|/)
    })

    it('applies transformers on get, search and ids', async () => {
      const [first] = (await ok(people.list('props=id'))).results
      expect(await ok(people.get(first.id, 'props=ssn.mask'))).toEqual({ 'ssn.mask': '*****7777' })
      const found = await ok(people.search({ match: { ssn: '555-66-7777' } }, 'props=ssn.mask'))
      expect(found.results).toEqual([{ 'ssn.mask': '*****7777' }])
      const within = await ok(
        people.search({ in: { ssn: ['555667777', '000-00-0000'] } }, 'props=ssn'),
      )
      expect(within.results).toEqual([{ ssn: '555667777' }])
      await expectError(await people.search({ match: { ssn: 'bad' } }), 400, 'ERR3002')
    })

    it('answers null for a null value without calling the transformer', async () => {
      const list = await ok(people.list('props=plain.mask'))
      expect(list.results.map((r: { 'plain.mask': unknown }) => r['plain.mask'])).toContain(null)
    })

    it('refuses a transformer the type does not have (404 ERR3004)', async () => {
      await expectError(await people.list('props=ssn.upper'), 404, 'ERR3004')
    })

    it('fails a throwing transformer with 400 ERR9008 and a looping one with 503 ERR1009', async () => {
      const thrown = await expectError(await people.list('props=ssn.throws'), 400, 'ERR9008')
      expect(thrown.message).toMatch(/views\.throws/)
      await expectError(await people.list('props=ssn.loops'), 503, 'ERR1009')
    })
  })

  describe('tokens and crypto', () => {
    const tokens = `${API}/data/collections/people/tokens?${REASON}`
    const crypto = `${API}/data/collections/people`

    it('tokenize fields go through the pipeline; detokenize applies custom transformers', async () => {
      const bad = await server.request('POST', tokens, {
        body: [{ type: 'pci', object: { fields: { ssn: 'bad' } } }],
      })
      await expectError(bad, 400, 'ERR3002')
      const [token] = await ok(
        server.request('POST', tokens, {
          body: [{ type: 'pci', object: { fields: { ssn: '333-44-5555', name: 'Gi' } } }],
        }),
      )
      const detokenized = await ok(
        server.request(
          'GET',
          `${tokens}&token_ids=${token.token_id}&props=ssn,ssn.mask,ssn.greeting,name.upper`,
        ),
      )
      expect(detokenized[0].fields).toEqual({
        ssn: '333445555',
        'ssn.mask': '*****5555',
        'ssn.greeting': '-|ssn|STRING_SSN|people|Admin|AppFunctionality|Gi|333445555',
        'name.upper': 'GI',
      })
    })

    it('encrypt fields go through the pipeline; decrypt applies custom transformers', async () => {
      const bad = await server.request('POST', `${crypto}/encrypt/objects?${REASON}`, {
        body: [{ object: { fields: { ssn: 'bad' } } }],
      })
      await expectError(bad, 400, 'ERR3002')
      const [sealed] = await ok(
        server.request('POST', `${crypto}/encrypt/objects?${REASON}`, {
          body: [{ object: { fields: { ssn: '444-55-6666' } } }],
        }),
      )
      const [opened] = await ok(
        server.request('POST', `${crypto}/decrypt/objects?${REASON}`, {
          body: [
            { encrypted_object: { ciphertext: sealed.ciphertext }, props: ['ssn', 'ssn.mask'] },
          ],
        }),
      )
      expect(opened.fields).toEqual({ ssn: '444556666', 'ssn.mask': '*****6666' })
    })
  })
})
