// test/api/data-types.test.ts: data types over HTTP: list and get the built-in types (endpoints §6.1, §6.3)
import { afterAll, beforeAll, expect, it } from 'vitest'
import { expectError } from '../helpers/collections.ts'
import { describeEngines } from '../helpers/engines.ts'
import { API, type Json, startTestServer, type TestServer } from '../helpers/server.ts'

const BASE = `${API}/ctl/types`

describeEngines('data types API', (engine) => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ engine })
  })
  afterAll(() => server.close())

  it('lists only custom types by default, of which there are none yet', async () => {
    const res = await server.request('GET', BASE)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual([])
  })

  it('lists every built-in type of the spec with show_builtins', async () => {
    const types = await (await server.request('GET', `${BASE}?options=show_builtins`)).json()
    expect(types).toHaveLength(28)
    for (const type of types) {
      expect(type).toEqual({
        name: expect.stringMatching(/^[A-Z_]+$/),
        base_type_name: type.name,
        description: expect.stringMatching(/\.$/),
        is_builtin: true,
        transformers: expect.arrayContaining(['token']),
        ...(type.name === 'OBJECT_ID' ? {} : { default_transformer: 'mask' }),
      })
    }
    const byName = new Map<string, Json>(types.map((t: Json) => [t.name, t]))
    expect(byName.get('BLOB')?.transformers).toEqual(['mask', 'size', 'token'])
    expect(byName.get('DATE_OF_BIRTH')?.transformers).toEqual(['mask', 'age', 'age_frac', 'token'])
    expect(byName.get('OBJECT_ID')?.transformers).toEqual(['token'])
  })

  it('keeps only types depending on a bundle when bundle is given', async () => {
    const res = await server.request('GET', `${BASE}?options=show_builtins&bundle=string_ssn`)
    expect(await res.json()).toEqual([])
  })

  it('gets a built-in type by its exact name', async () => {
    const res = await server.request('GET', `${BASE}/SSN`)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      name: 'SSN',
      base_type_name: 'SSN',
      description: 'A US social security number.',
      is_builtin: true,
      transformers: ['mask', 'token'],
      default_transformer: 'mask',
    })
  })

  it('answers 404 ERR1004 for an unknown type, naming it', async () => {
    const body = await expectError(await server.request('GET', `${BASE}/ssn`), 404, 'ERR1004')
    expect(body.context).toEqual({ data_type: 'ssn' })
  })

  it('refuses unknown options with 400 ERR1012', async () => {
    await expectError(await server.request('GET', `${BASE}?options=everything`), 400, 'ERR1012')
  })

  it('records the calls in the audit log', async () => {
    await server.request('GET', `${BASE}/EMAIL?custom_audit=t`)
    const rows = await server.app.store.audit.list({ limit: 1000 })
    expect(JSON.parse(rows.at(-1)?.record ?? '{}')).toMatchObject({
      operation: 'get_type',
      custom_audit: 't',
    })
  })
})
