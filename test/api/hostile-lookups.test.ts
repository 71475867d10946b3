// test/api/hostile-lookups.test.ts: names that are members of Object.prototype are plain names, never 5xx
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectError } from '../helpers/collections.ts'
import { describeEngines } from '../helpers/engines.ts'
import { addCollection, REASON } from '../helpers/objects.ts'
import { API, type Json, startTestServer, type TestServer } from '../helpers/server.ts'

/** Members every object inherits; each a valid name wherever letters are allowed. */
const INHERITED = ['constructor', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf']
const PROTO_NAMES = [...INHERITED, '__proto__', '__defineGetter__', 'propertyIsEnumerable']

describeEngines('inherited member names', (engine) => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ engine })
    await addCollection(server, {
      name: 'protos',
      type: 'PERSONS',
      properties: [
        { name: 'constructor', data_type_name: 'STRING', is_index: true, is_nullable: true },
        {
          name: 'toString',
          data_type_name: 'STRING',
          is_encrypted: false,
          is_index: true,
          is_nullable: true,
        },
        { name: 'valueOf', data_type_name: 'EMAIL', is_nullable: true, is_unique: true },
        { name: 'hasOwnProperty', data_type_name: 'JSON', is_nullable: true },
      ],
    })
  })
  afterAll(() => server.close())

  const data = (path: string, body?: unknown, method = 'POST') =>
    server.request(method, `${API}/data/collections/protos/${path}`, { body })
  const json = async (res: Response | Promise<Response>): Promise<Json> => {
    const answered = await res
    const body = await answered.json()
    expect(answered.status, JSON.stringify(body)).toBe(200)
    return body
  }

  it.each(['\u0000', 'key\u0000', 'a\nb', '\ud800', 'x'.repeat(8193)])(
    'refuses the license key %j with 400 ERR1012 (PostgreSQL text holds no NUL)',
    async (key) => {
      const res = await server.request('POST', `${API}/system/info/license`, { body: { key } })
      await expectError(res, 400, 'ERR1012')
    },
  )

  it.each(PROTO_NAMES)('answers 404 ERR9006 to the configuration variable %s', async (name) => {
    await expectError(await server.request('GET', `${API}/system/confvar/${name}`), 404, 'ERR9006')
    const set = await server.request('POST', `${API}/system/confvar/${name}`, {
      body: { value: 'x' },
    })
    await expectError(set, 404, 'ERR9006')
  })

  it.each(PROTO_NAMES)('answers 4xx to lookups of other resources named %s', async (name) => {
    for (const path of [
      `/ctl/collections/${name}`,
      `/ctl/collections/protos/properties/${name.replace('__', 'x')}x`,
      `/ctl/types/${name}`,
      `/ctl/bundles/${name}`,
      `/ctl/actions/${name}`,
      `/ctl/iam/user/${name}`,
      `/ctl/collections?format=${name}`,
    ]) {
      const res = await server.request('GET', `${API}${path}`)
      expect(res.status, path).toBeGreaterThanOrEqual(400)
      expect(res.status, path).toBeLessThan(500)
    }
  })

  it('stores, reads, searches and updates properties named like inherited members', async () => {
    const values = { constructor: 'Ann', toString: 'plain', valueOf: 'ann@example.com' }
    const created = await json(data(`bulk/objects?${REASON}`, [values]))
    const id = created.results[0].id as string
    const alone = await json(data(`objects?${REASON}`, { hasOwnProperty: { a: 1 } }))
    const read = await json(data(`objects/${id}?${REASON}&options=unsafe`, undefined, 'GET'))
    expect(read).toMatchObject(values)
    // Absent values are null, never the members every object inherits.
    expect(Object.hasOwn(read, 'hasOwnProperty') ? read.hasOwnProperty : 'absent').toBeNull()
    const other = await json(
      data(`objects/${alone.id}?${REASON}&props=toString,constructor,valueOf`, undefined, 'GET'),
    )
    expect(other).toEqual({ toString: null, constructor: null, valueOf: null })
    for (const property of ['constructor', 'toString', 'valueOf']) {
      const found = await json(
        data(`query/objects?${REASON}&props=id`, { match: { [property]: read[property] } }),
      )
      expect(found.results, property).toEqual([{ id }])
    }
    const patched = await data(
      `objects/${id}?${REASON}`,
      { constructor: null, toString: 'next' },
      'PATCH',
    )
    expect(patched.status).toBe(200)
    const updated = await json(data(`objects/${id}?${REASON}&options=unsafe`, undefined, 'GET'))
    expect(updated).toEqual({
      id,
      constructor: null,
      toString: 'next',
      valueOf: 'ann@example.com',
      hasOwnProperty: null,
    })
  })

  it('tokenizes, detokenizes and encrypts such properties', async () => {
    const fields = { constructor: 'Bo', toString: 'plain' }
    const [token] = await json(
      data(`tokens?${REASON}`, [{ type: 'randomized', object: { fields } }]),
    )
    const detokenized = await json(
      data(`tokens?${REASON}&token_ids=${token.token_id}`, undefined, 'GET'),
    )
    expect(detokenized[0].fields).toEqual(fields)
    const [sealed] = await json(data(`encrypt/objects?${REASON}`, [{ object: { fields } }]))
    const [opened] = await json(
      data(`decrypt/objects?${REASON}`, [{ encrypted_object: { ciphertext: sealed.ciphertext } }]),
    )
    expect(opened.fields).toEqual(fields)
  })

  it.each(INHERITED)('refuses an unknown field %s of a DATA collection with 4xx', async (name) => {
    await addCollection(server, {
      name: `plain${name}`,
      type: 'DATA',
      properties: [{ name: 'a', data_type_name: 'STRING', is_nullable: true }],
    })
    const path = `${API}/data/collections/plain${name}`
    for (const [method, url, body] of [
      ['POST', `${path}/objects?${REASON}`, { [name]: 'v' }],
      ['POST', `${path}/query/objects?${REASON}&props=a`, { match: { [name]: 'v' } }],
      [
        'POST',
        `${path}/tokens?${REASON}`,
        [{ type: 'randomized', object: { fields: { [name]: 1 } } }],
      ],
      ['POST', `${path}/encrypt/objects?${REASON}`, [{ object: { fields: { [name]: 'v' } } }]],
      ['GET', `${path}/objects?${REASON}&props=${name}`, undefined],
    ] as const) {
      const res = await server.request(method, url, { body })
      expect(res.status, `${method} ${url}`).toBeGreaterThanOrEqual(400)
      expect(res.status, `${method} ${url}`).toBeLessThan(500)
    }
  })
})

describe('JSON nesting limit', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(() => server.close())

  const nested = (depth: number, inner = '1') => `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`
  const post = (path: string, body: string) =>
    server.request('POST', `${API}${path}`, {
      body,
      headers: { 'content-type': 'application/json' },
    })

  it.each([65, 5_000, 100_000])('refuses a body nested %i deep with 400 ERR1012', async (depth) => {
    for (const path of [
      '/ctl/collections',
      `/data/collections/x/query/objects?${REASON}`,
      `/data/collections/x/tokens?${REASON}`,
    ]) {
      const body = await expectError(await post(path, nested(depth)), 400, 'ERR1012')
      expect(body).toMatchObject({ context: { field: 'body' } })
      expect(body.message).toMatch(/64 levels/)
    }
    const objects = `{"match":{"a":${nested(depth - 2, '"x"')}}}`
    await expectError(
      await post(`/data/collections/x/query/objects?${REASON}`, objects),
      400,
      'ERR1012',
    )
  })

  it('parses a body nested 64 deep, with brackets inside strings not counted', async () => {
    const body = `{"name":"x[[[{{{\\"[[[","properties":${nested(62)}}`
    const res = await post('/ctl/collections', body)
    const error = await expectError(res, 400, 'ERR1012')
    expect(error.message).not.toMatch(/levels deep/)
  })
})
