// test/api/custom-types.test.ts: custom data types over HTTP: add, get, list, update, delete and their errors (endpoints §6.1–6.5)
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addBundle, auditRecords, BUNDLES, ok, SSN_HELPERS } from '../helpers/bundles.ts'
import { expectError, NANO } from '../helpers/collections.ts'
import { describeEngines } from '../helpers/engines.ts'
import { apiKeyOf, rolesToml, setIam } from '../helpers/iam.ts'
import { addCollection } from '../helpers/objects.ts'
import { API, startTestServer, type TestServer } from '../helpers/server.ts'

const TYPES = `${API}/ctl/types`

describeEngines('custom data types API', (engine) => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ engine })
    await addBundle(server, 'string_ssn', SSN_HELPERS)
    await addBundle(server, 'other', 'exports.upper = { type: "normalizer", handler: (v) => v }')
  })
  afterAll(() => server.close())

  const add = (body: unknown) => server.request('POST', TYPES, { body })
  const patch = (name: string, body: unknown) =>
    server.request('PATCH', `${TYPES}/${name}`, { body })

  describe('add, get and list', () => {
    it('adds a type with string and object function references', async () => {
      const body = await ok(
        add({
          name: 'STRING_SSN',
          base_type_name: 'STRING',
          description: 'Relaxed SSN',
          validator: 'string_ssn.validate',
          normalizer: { bundle: 'string_ssn', function: 'normalize' },
          transformers: ['string_ssn.mask'],
          default_transformer: 'mask',
        }),
      )
      expect(body).toEqual({
        name: 'STRING_SSN',
        base_type_name: 'STRING',
        description: 'Relaxed SSN',
        is_builtin: false,
        validator: 'string_ssn.validate',
        normalizer: 'string_ssn.normalize',
        transformers: ['string_ssn.mask'],
        default_transformer: 'mask',
        creation_time: expect.stringMatching(NANO),
      })
      expect(await ok(server.request('GET', `${TYPES}/STRING_SSN`))).toEqual(body)
    })

    it('adds a type without functions, and one whose default is an inherited transformer', async () => {
      const plain = await ok(add({ name: 'PLAIN', base_type_name: 'EMAIL' }))
      expect(plain).toMatchObject({ name: 'PLAIN', description: '', transformers: [] })
      await ok(add({ name: 'MASKED', base_type_name: 'SSN', default_transformer: 'mask' }))
    })

    it('lists custom types by name; show_builtins adds the built-ins first', async () => {
      const names = (await ok(server.request('GET', TYPES))).map((t: { name: string }) => t.name)
      expect(names).toEqual(['MASKED', 'PLAIN', 'STRING_SSN'])
      const all = await ok(server.request('GET', `${TYPES}?options=show_builtins`))
      expect(all).toHaveLength(28 + 3)
      expect(all[0].is_builtin).toBe(true)
      expect(all.at(-1).name).toBe('STRING_SSN')
    })

    it('filters by bundle', async () => {
      const listed = await ok(server.request('GET', `${TYPES}?bundle=string_ssn`))
      expect(listed.map((t: { name: string }) => t.name)).toEqual(['STRING_SSN'])
      expect(await ok(server.request('GET', `${TYPES}?bundle=other`))).toEqual([])
    })
  })

  describe('add: bad input', () => {
    it('refuses a name clash with a built-in type (any case) or a custom one with 409', async () => {
      for (const name of ['SSN', 'email', 'string_ssn']) {
        const body = await expectError(
          await add({ name, base_type_name: 'STRING' }),
          409,
          'ERR9001',
        )
        expect(body.message).toContain(name)
      }
    })

    it('refuses a custom base type with 400 and an unknown base type with 404', async () => {
      const custom = await expectError(
        await add({ name: 'ON_CUSTOM', base_type_name: 'STRING_SSN' }),
        400,
        'ERR1012',
      )
      expect(custom.context).toEqual({ data_type: 'ON_CUSTOM', field: 'base_type_name' })
      await expectError(await add({ name: 'ON_NOTHING', base_type_name: 'NOPE' }), 404, 'ERR1004')
    })

    it('refuses an invalid name', async () => {
      await expectError(await add({ name: '9lives', base_type_name: 'STRING' }), 400, 'ERR1012')
    })

    it('refuses an unknown bundle or function with 404 naming both', async () => {
      const cases = [
        { validator: 'nope.validate' },
        { normalizer: { bundle: 'string_ssn', function: 'missing' } },
        { transformers: ['string_ssn.gone'] },
      ]
      for (const functions of cases) {
        const body = await expectError(
          await add({ name: 'BAD', base_type_name: 'STRING', ...functions }),
          404,
          'ERR1004',
        )
        expect(body.message).toMatch(/The function \w+\.\w+ is not found/)
        expect(body.context.bundle).toEqual(expect.any(String))
        expect(body.context.function).toEqual(expect.any(String))
      }
    })

    it('refuses a function of the wrong type with 400 naming bundle and function', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ validator: 'string_ssn.normalize' }, 'validator'],
        [{ normalizer: 'string_ssn.mask' }, 'normalizer'],
        [{ transformers: ['string_ssn.notify'] }, 'transformers'],
      ]
      for (const [functions, field] of cases) {
        const body = await expectError(
          await add({ name: 'BAD', base_type_name: 'STRING', ...functions }),
          400,
          'ERR1012',
        )
        expect(body.message).toContain('string_ssn.')
        expect(body.context.field).toBe(field)
      }
    })

    it('refuses a malformed reference and a default that is not a transformer', async () => {
      await expectError(
        await add({ name: 'BAD', base_type_name: 'STRING', validator: 'no_dot' }),
        400,
        'ERR1012',
      )
      const body = await expectError(
        await add({ name: 'BAD', base_type_name: 'STRING', default_transformer: 'last4' }),
        400,
        'ERR1012',
      )
      expect(body.context.field).toBe('default_transformer')
      expect((await server.request('GET', `${TYPES}/BAD`)).status).toBe(404)
    })

    it('refuses two transformers with the same function name', async () => {
      await addBundle(
        server,
        'twin',
        'exports.mask = { type: "transformer", handler: (c, o, v) => v }',
      )
      await expectError(
        await add({
          name: 'BAD',
          base_type_name: 'STRING',
          transformers: ['string_ssn.mask', 'twin.mask'],
        }),
        400,
        'ERR1012',
      )
      await ok(server.request('DELETE', `${BUNDLES}/twin`))
    })
  })

  describe('update', () => {
    it('changes description, transformers and default transformer', async () => {
      const body = await ok(
        patch('STRING_SSN', {
          description: 'Relaxed US SSN',
          transformers: ['string_ssn.mask', 'string_ssn.last4'],
          default_transformer: 'last4',
        }),
      )
      expect(body).toMatchObject({
        description: 'Relaxed US SSN',
        transformers: ['string_ssn.mask', 'string_ssn.last4'],
        default_transformer: 'last4',
        normalizer: 'string_ssn.normalize',
      })
    })

    it('accepts the whole type as sent back, ignoring fields that cannot change', async () => {
      const current = await ok(server.request('GET', `${TYPES}/STRING_SSN`))
      expect(await ok(patch('STRING_SSN', { ...current, base_type_name: 'EMAIL' }))).toEqual(
        current,
      )
    })

    it('refuses a new validator on a type with a normalizer, and a new normalizer', async () => {
      await addBundle(server, 'checks', 'exports.v2 = { type: "validator", handler: () => true }')
      await expectError(await patch('STRING_SSN', { validator: 'checks.v2' }), 400, 'ERR1012')
      await expectError(await patch('STRING_SSN', { normalizer: 'other.upper' }), 400, 'ERR1012')
      const body = await ok(patch('PLAIN', { validator: 'checks.v2' }))
      expect(body.validator).toBe('checks.v2')
    })

    it('adds custom transformers to a built-in type, keeping its own', async () => {
      const body = await ok(patch('SSN', { transformers: ['string_ssn.last4'], description: 'x' }))
      expect(body).toMatchObject({
        name: 'SSN',
        is_builtin: true,
        description: 'A US social security number.',
        transformers: ['mask', 'token', 'string_ssn.last4'],
      })
      expect((await ok(server.request('GET', `${TYPES}?bundle=string_ssn`))).length).toBe(1)
    })

    it('answers 404 for an unknown type', async () => {
      await expectError(await patch('NOPE', { description: 'x' }), 404, 'ERR1004')
    })
  })

  describe('delete and the bundles it references', () => {
    it('refuses to delete a bundle a type references, even with force while a property uses it', async () => {
      await addCollection(server, {
        name: 'people',
        type: 'PERSONS',
        properties: [{ name: 'ssn', data_type_name: 'STRING_SSN' }],
      })
      const body = await expectError(
        await server.request('DELETE', `${BUNDLES}/string_ssn?options=force`),
        409,
        'ERR9005',
      )
      expect(body.message).toContain('data type STRING_SSN')
    })

    it('refuses to drop a function a type uses from its bundle', async () => {
      const res = await server.request('PATCH', `${BUNDLES}/string_ssn`, {
        body: {
          code: Buffer.from(
            'exports.validate = { type: "validator", handler: () => true }',
          ).toString('base64'),
        },
      })
      await expectError(res, 400, 'ERR1012')
    })

    it('refuses to delete a built-in type (400) and a type in use (409)', async () => {
      await expectError(await server.request('DELETE', `${TYPES}/SSN`), 400, 'ERR1012')
      const body = await expectError(
        await server.request('DELETE', `${TYPES}/STRING_SSN`),
        409,
        'ERR9005',
      )
      expect(body.message).toContain('people.ssn')
      expect((await server.request('GET', `${TYPES}/STRING_SSN`)).status).toBe(200)
    })

    it('deletes an unused type; 404 after', async () => {
      await ok(server.request('DELETE', `${TYPES}/MASKED`))
      await expectError(await server.request('DELETE', `${TYPES}/MASKED`), 404, 'ERR1004')
      expect((await ok(server.request('GET', TYPES))).map((t: { name: string }) => t.name)).toEqual(
        ['PLAIN', 'STRING_SSN'],
      )
    })

    it('force-deletes a bundle with the unused types that reference it', async () => {
      await expectError(await server.request('DELETE', `${BUNDLES}/checks`), 409, 'ERR9005')
      await ok(server.request('DELETE', `${BUNDLES}/checks?options=force`))
      await expectError(await server.request('GET', `${TYPES}/PLAIN`), 404, 'ERR1004')
    })

    it('records type writes in the audit log', async () => {
      const operations = (await auditRecords(server)).map((r) => r.operation)
      expect(operations).toEqual(expect.arrayContaining(['add_type', 'update_type', 'delete_type']))
    })
  })

  describe('access', () => {
    it('needs CapTypesWriter to write and CapTypesReader to read', async () => {
      await setIam(
        server,
        `${rolesToml({
          Reader: { capabilities: ['CapTypesReader'] },
          Writer: { capabilities: ['CapTypesWriter'] },
        })}\n[policies]\n`,
      )
      const reader = await apiKeyOf(server, 'Reader')
      const writer = await apiKeyOf(server, 'Writer')
      expect((await server.request('GET', TYPES, { token: reader })).status).toBe(200)
      await expectError(
        await server.request('POST', TYPES, {
          token: reader,
          body: { name: 'X', base_type_name: 'STRING' },
        }),
        403,
        'ERR1007',
      )
      await expectError(await server.request('GET', TYPES, { token: writer }), 403, 'ERR1007')
    })
  })
})

describe('custom data types with JavaScript disabled', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ env: { SVC_FEATURES_DISABLE_JAVASCRIPT: 'true' } })
  })
  afterAll(() => server.close())

  it('answers 405 ERR1003 to every write, reads still answer', async () => {
    const body = { name: 'X', base_type_name: 'STRING' }
    await expectError(await server.request('POST', TYPES, { body }), 405, 'ERR1003')
    await expectError(await server.request('PATCH', `${TYPES}/SSN`, { body }), 405, 'ERR1003')
    await expectError(await server.request('DELETE', `${TYPES}/SSN`), 405, 'ERR1003')
    expect((await server.request('GET', TYPES)).status).toBe(200)
  })
})
