// test/api/bundles.test.ts: bundles over HTTP: list, add, get, update, delete, their errors and access (endpoints §6.6–6.10)
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  ACTIONS,
  addAction,
  addBundle,
  auditRecords,
  BUNDLES,
  code,
  ok,
} from '../helpers/bundles.ts'
import { expectError, NANO } from '../helpers/collections.ts'
import { describeEngines } from '../helpers/engines.ts'
import { apiKeyOf, rolesToml, setIam } from '../helpers/iam.ts'
import { API, startTestServer, type TestServer } from '../helpers/server.ts'

const HELPERS = `
exports.mask = {
  type: 'transformer',
  description: 'Masks all but the last four characters.',
  dependencies: { properties: ['ssn', 'name*'] },
  handler: (context, object, value) => '*'.repeat(Math.max(0, value.length - 4)) + value.slice(-4),
}
exports.isSsn = { type: 'validator', handler: (value) => /^\\d{9}$/.test(value) }
exports.compact = { type: 'normalizer', handler: (value) => value.replace(/-/g, '') }
exports.notify = { type: 'action', handler: (context) => ({ seen: context.body }) }
exports.ticket = { type: 'fptemplate', handler: (context, object, seed) => 'T' + seed.slice(0, 8) }
`

const EXPORTS = {
  validators: [{ name: 'isSsn', type: 'validator' }],
  normalizers: [{ name: 'compact', type: 'normalizer' }],
  transformers: [
    {
      name: 'mask',
      type: 'transformer',
      description: 'Masks all but the last four characters.',
      dependencies: { properties: ['ssn', 'name*'] },
    },
  ],
  actions: [{ name: 'notify', type: 'action' }],
  fptemplates: [{ name: 'ticket', type: 'fptemplate' }],
}

describeEngines('bundles API', (engine) => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ engine })
  })
  afterAll(() => server.close())

  const add = (body: unknown) => server.request('POST', BUNDLES, { body })

  describe('add, get and list', () => {
    it('lists no bundles at first', async () => {
      expect(await ok(server.request('GET', BUNDLES))).toEqual([])
    })

    it('adds a bundle and reports its exports by type, found by loading the code', async () => {
      const body = await ok(
        add({ name: 'helpers', description: 'SSN helpers', code: code(HELPERS) }),
      )
      expect(body).toEqual({
        name: 'helpers',
        description: 'SSN helpers',
        code: code(HELPERS),
        exports: EXPORTS,
        creation_time: expect.stringMatching(NANO),
        modification_time: body.creation_time,
      })
    })

    it('gets the bundle as added and lists it', async () => {
      const got = await ok(server.request('GET', `${BUNDLES}/helpers`))
      expect(got).toMatchObject({ name: 'helpers', code: code(HELPERS), exports: EXPORTS })
      const listed = await ok(server.request('GET', BUNDLES))
      expect(listed).toEqual([got])
    })

    it('sorts exports by name and lists bundles by name', async () => {
      const script = ['b', 'a', 'c']
        .map((n) => `exports.${n} = { type: 'validator', handler: () => true }`)
        .join('\n')
      const body = await addBundle(server, 'abc', script)
      expect(body.exports.validators.map((f: { name: string }) => f.name)).toEqual(['a', 'b', 'c'])
      expect(body.description).toBe('')
      const names = (await ok(server.request('GET', BUNDLES))).map((b: { name: string }) => b.name)
      expect(names).toEqual(['abc', 'helpers'])
    })

    it('takes module.exports = { … } as well as exports.name = …', async () => {
      const body = await addBundle(
        server,
        'moduleStyle',
        `module.exports = { upper: { type: 'normalizer', handler: (v) => v.toUpperCase() } }`,
      )
      expect(body.exports.normalizers).toEqual([{ name: 'upper', type: 'normalizer' }])
    })

    it('accepts base64 split over lines', async () => {
      const wrapped = code(HELPERS).replace(/(.{76})/g, '$1\n')
      await ok(add({ name: 'wrapped', code: wrapped }))
    })

    it('answers 409 ERR9001 for a name taken in any case', async () => {
      const body = await expectError(
        await add({ name: 'HELPERS', code: code(HELPERS) }),
        409,
        'ERR9001',
      )
      expect(body.context).toEqual({ bundle: 'HELPERS' })
    })

    it('answers 404 ERR1004 for an unknown bundle, naming it', async () => {
      const body = await expectError(await server.request('GET', `${BUNDLES}/nope`), 404, 'ERR1004')
      expect(body.context).toEqual({ bundle: 'nope' })
      await expectError(await server.request('GET', `${BUNDLES}/not-a-name`), 404, 'ERR1004')
    })

    it('records each call in the audit log', async () => {
      const events = await auditRecords(server)
      const added = events.filter((e) => e.operation === 'add_bundle')
      expect(added.some((e) => e.outcome === 'success')).toBe(true)
      expect(added.some((e) => e.outcome === 'failure' && e.error_code === 'ERR9001')).toBe(true)
      expect(events.some((e) => e.operation === 'list_bundles')).toBe(true)
    })
  })

  describe('bad code is refused with 400 naming the bundle and function, and nothing is stored', () => {
    const cases: [string, unknown, string, Record<string, string>][] = [
      ['not base64', { code: '%%%not base64%%%' }, 'is not base64', { field: 'code' }],
      [
        'not UTF-8',
        { code: Buffer.from([0xff, 0xfe, 0x41]).toString('base64') },
        'UTF-8',
        { field: 'code' },
      ],
      ['empty', { code: code('   ') }, 'is empty', { field: 'code' }],
      [
        'a syntax error',
        { code: code('exports.a = {\n  type: ,\n}') },
        'at line 2',
        { field: 'code' },
      ],
      [
        'throwing at load',
        { code: code('throw new TypeError("boom")') },
        'threw TypeError',
        { field: 'code' },
      ],
      [
        'a non-object export',
        { code: code('exports.a = 5') },
        'must be an object',
        { function: 'a' },
      ],
      [
        'an unknown function type',
        { code: code("exports.a = { type: 'mapper', handler: () => 1 }") },
        'type must be one of',
        { function: 'a' },
      ],
      [
        'a handler that is not a function',
        { code: code("exports.a = { type: 'validator', handler: 'isValid' }") },
        'handler must be a function',
        { function: 'a' },
      ],
      [
        'a function name against the naming rules',
        { code: code("exports['bad-name'] = { type: 'validator', handler: () => true }") },
        'naming rules',
        { function: 'bad-name' },
      ],
      [
        'a description that is not a string',
        { code: code("exports.a = { type: 'validator', description: 5, handler: () => true }") },
        'description must be a string',
        { function: 'a' },
      ],
      [
        'dependencies of the wrong shape',
        {
          code: code(
            "exports.a = { type: 'transformer', dependencies: { properties: 'ssn' }, handler: () => 1 }",
          ),
        },
        'dependencies must be',
        { function: 'a' },
      ],
      [
        'module.exports that is not an object',
        { code: code('module.exports = 42') },
        'module.exports is not an object',
        { field: 'code' },
      ],
    ]
    for (const [what, body, message, context] of cases) {
      it(`refuses ${what}`, async () => {
        const res = await add({ name: 'bad', ...(body as object) })
        const error = await expectError(res, 400, 'ERR1012')
        expect(error.message).toContain('bundle bad')
        expect(error.message).toContain(message)
        expect(error.context).toEqual({ bundle: 'bad', ...context })
        await expectError(await server.request('GET', `${BUNDLES}/bad`), 404, 'ERR1004')
      })
    }

    it('refuses an invalid name, and a body without code', async () => {
      await expectError(await add({ name: '1bad', code: code(HELPERS) }), 400, 'ERR1012')
      await expectError(await add({ name: 'nocode' }), 400, 'ERR1012')
      await expectError(await add({ name: 'typed', code: 42 }), 400, 'ERR1012')
    })
  })

  describe('update', () => {
    const update = (name: string, body: unknown) =>
      server.request('PATCH', `${BUNDLES}/${name}`, { body })

    it('changes the description and keeps the code', async () => {
      const body = await ok(update('helpers', { description: 'Renamed' }))
      expect(body).toMatchObject({ name: 'helpers', description: 'Renamed', code: code(HELPERS) })
      expect(body.modification_time > body.creation_time).toBe(true)
    })

    it('takes new code that keeps every function with its type and adds more', async () => {
      const next = `${HELPERS}\nexports.extra = { type: 'validator', handler: () => true }`
      const body = await ok(update('helpers', { name: 'helpers', code: code(next) }))
      expect(body.exports.validators.map((f: { name: string }) => f.name)).toEqual([
        'extra',
        'isSsn',
      ])
      expect(body.description).toBe('Renamed')
      expect((await ok(server.request('GET', `${BUNDLES}/helpers`))).code).toBe(code(next))
    })

    it('lets dependencies change', async () => {
      const next = HELPERS.replace("['ssn', 'name*']", "['ssn']")
      const body = await ok(
        update('helpers', {
          code: code(`${next}\nexports.extra = { type: 'validator', handler: () => true }`),
        }),
      )
      expect(body.exports.transformers[0].dependencies).toEqual({ properties: ['ssn'] })
    })

    it('refuses code that drops a function or changes its type, keeping the old code', async () => {
      const before = await ok(server.request('GET', `${BUNDLES}/helpers`))
      const dropped = await expectError(
        await update('helpers', { code: code(HELPERS) }),
        400,
        'ERR1012',
      )
      expect(dropped.message).toContain('must keep the validator extra')
      expect(dropped.context).toEqual({ bundle: 'helpers', function: 'extra' })
      const retyped = `${HELPERS.replace("type: 'validator'", "type: 'normalizer'")}\nexports.extra = { type: 'validator', handler: () => true }`
      const changed = await expectError(
        await update('helpers', { code: code(retyped) }),
        400,
        'ERR1012',
      )
      expect(changed.message).toContain('exports it as a normalizer')
      expect(await ok(server.request('GET', `${BUNDLES}/helpers`))).toEqual(before)
    })

    it('refuses a rename, bad code, and unknown bundles', async () => {
      await expectError(await update('helpers', { name: 'other' }), 400, 'ERR1012')
      await expectError(await update('helpers', { code: code('exports.a = (') }), 400, 'ERR1012')
      await expectError(await update('nope', { description: 'x' }), 404, 'ERR1004')
    })
  })

  describe('delete', () => {
    it('deletes an unreferenced bundle', async () => {
      await ok(server.request('DELETE', `${BUNDLES}/abc`))
      await expectError(await server.request('GET', `${BUNDLES}/abc`), 404, 'ERR1004')
      await expectError(await server.request('DELETE', `${BUNDLES}/abc`), 404, 'ERR1004')
    })

    it('refuses 409 ERR9005 while an action references the bundle, with or without force', async () => {
      await addAction(server, {
        name: 'notifier',
        function: 'helpers.notify',
        role: 'PrivilegedService',
      })
      for (const query of ['', '?options=force']) {
        const body = await expectError(
          await server.request('DELETE', `${BUNDLES}/helpers${query}`),
          409,
          'ERR9005',
        )
        expect(body.context).toEqual({ bundle: 'helpers', used_by: 'action notifier' })
      }
      expect((await ok(server.request('GET', `${BUNDLES}/helpers`))).name).toBe('helpers')
      await ok(server.request('DELETE', `${ACTIONS}/notifier`))
      await ok(server.request('DELETE', `${BUNDLES}/helpers?options=force`))
      await expectError(await server.request('GET', `${BUNDLES}/helpers`), 404, 'ERR1004')
    })
  })

  describe('access', () => {
    let reader: string
    let nobody: string
    beforeAll(async () => {
      await setIam(
        server,
        `${rolesToml({ Reader: { capabilities: ['CapCodeReader'] }, Nobody: { capabilities: ['CapDataReader'] } })}\n[policies]\n`,
      )
      reader = await apiKeyOf(server, 'Reader')
      nobody = await apiKeyOf(server, 'Nobody')
    })

    it('needs CapCodeReader to read and CapCodeWriter to write (403 ERR1007)', async () => {
      await ok(server.request('GET', BUNDLES, { token: reader }))
      await ok(server.request('GET', `${BUNDLES}/moduleStyle`, { token: reader }))
      const denied = await expectError(
        await server.request('POST', BUNDLES, {
          token: reader,
          body: { name: 'x', code: code(HELPERS) },
        }),
        403,
        'ERR1007',
      )
      expect(denied.context).toEqual({ username: 'Reader' })
      await expectError(
        await server.request('DELETE', `${BUNDLES}/moduleStyle`, { token: reader }),
        403,
        'ERR1007',
      )
      await expectError(
        await server.request('PATCH', `${BUNDLES}/moduleStyle`, { token: reader, body: {} }),
        403,
        'ERR1007',
      )
      await expectError(await server.request('GET', BUNDLES, { token: nobody }), 403, 'ERR1007')
      await expectError(await server.request('GET', BUNDLES, { token: null }), 401, 'ERR1005')
    })
  })
})

describe('bundles API with SVC_FEATURES_DISABLE_JAVASCRIPT=true', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ env: { SVC_FEATURES_DISABLE_JAVASCRIPT: 'true' } })
  })
  afterAll(() => server.close())

  it('answers 405 ERR1003 to adding or changing code, and still lists', async () => {
    const body = { name: 'helpers', code: code(HELPERS) }
    await expectError(await server.request('POST', BUNDLES, { body }), 405, 'ERR1003')
    await expectError(
      await server.request('PATCH', `${BUNDLES}/helpers`, { body: {} }),
      405,
      'ERR1003',
    )
    expect(await ok(server.request('GET', BUNDLES))).toEqual([])
    await expectError(await server.request('GET', `${BUNDLES}/helpers`), 404, 'ERR1004')
  })

  it('answers 405 ERR1003 to adding or invoking custom actions', async () => {
    const action = { name: 'a', function: 'helpers.notify', role: 'PrivilegedService' }
    await expectError(await server.request('POST', ACTIONS, { body: action }), 405, 'ERR1003')
    await expectError(
      await server.request('POST', `${API}/data/actions/a?reason=AppFunctionality`, { body: {} }),
      405,
      'ERR1003',
    )
  })
})
