// test/api/collections-fuzz.test.ts: random bodies, PVSchema text and names never produce a 500 (no client input may)
import fc from 'fast-check'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { describeEngines } from '../helpers/engines.ts'
import { API, startTestServer, type TestServer } from '../helpers/server.ts'

const BASE = `${API}/ctl/collections`

const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.constantFrom('', '\u0000', 'a\u0000b', '\ud800'),
)
const name = fc.oneof(
  fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,12}$/),
  text,
  fc.constant('x'.repeat(500)),
)
const anyJson = fc.jsonValue({ maxDepth: 2 })
const attribute = fc.oneof(fc.boolean(), anyJson)
const property = fc.record(
  {
    name: fc.oneof(name, anyJson),
    data_type_name: fc.oneof(
      fc.constantFrom('STRING', 'EMAIL', 'JSON', 'BLOB', 'SSN'),
      text,
      anyJson,
    ),
    description: fc.oneof(text, anyJson),
    is_encrypted: attribute,
    is_index: attribute,
    is_substring_index: attribute,
    is_nullable: attribute,
    is_unique: attribute,
  },
  { requiredKeys: [] },
)
const collection = fc.record(
  {
    name: fc.oneof(name, anyJson),
    type: fc.oneof(fc.constantFrom('PERSONS', 'DATA'), text, anyJson),
    properties: fc.oneof(fc.array(property, { maxLength: 4 }), anyJson),
  },
  { requiredKeys: [] },
)
const pvschema = fc.oneof(
  text,
  fc
    .tuple(name, fc.array(fc.tuple(name, name, text), { maxLength: 3 }))
    .map(
      ([c, ps]) =>
        `${c} DATA (\n${ps.map(([p, t, d]) => `  ${p} ${t} NULL COMMENT '${d}',`).join('\n')}\n);`,
    ),
)

/** A path segment; lone surrogates cannot be percent-encoded, so they become U+FFFD first. */
const segment = (value: string) => encodeURIComponent(value.toWellFormed())

type Call = { method: string; path: string; body?: unknown; headers?: Record<string, string> }

const call: fc.Arbitrary<Call> = fc.oneof(
  collection.map((body) => ({ method: 'POST', path: BASE, body })),
  pvschema.map((body) => ({
    method: 'POST',
    path: BASE,
    body,
    headers: { 'content-type': 'application/pvschema' },
  })),
  fc.tuple(name, collection).map(([n, body]) => ({
    method: 'PATCH',
    path: `${BASE}/${segment(n)}`,
    body,
  })),
  fc.tuple(name, name, property).map(([c, p, body]) => ({
    method: 'POST',
    path: `${BASE}/${segment(c)}/properties/${segment(p)}`,
    body,
  })),
  fc.tuple(fc.constantFrom('GET', 'DELETE', 'PATCH'), name, name).map(([method, c, p]) => ({
    method,
    path: `${BASE}/${segment(c)}/properties/${segment(p)}`,
    body: method === 'PATCH' ? { description: p, is_index: true } : undefined,
  })),
  fc.tuple(fc.constantFrom('GET', 'DELETE'), name).map(([method, n]) => ({
    method,
    path: `${BASE}/${segment(n)}?format=pvschema`,
  })),
)

describeEngines('collections API under random input', (engine) => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ engine })
    await server.request('POST', BASE, {
      body: { name: 'base', type: 'DATA', properties: [{ name: 'p', data_type_name: 'STRING' }] },
    })
  })
  afterAll(() => server.close())

  it('answers every call with a status below 500 and the spec error body on failure', async () => {
    await fc.assert(
      fc.asyncProperty(call, async ({ method, path, body, headers }) => {
        const res = await server.request(method, path, { body, headers })
        const text = await res.text()
        expect(res.status, `${method} ${path} → ${text}`).toBeLessThan(500)
        if (res.status >= 400) expect(Object.keys(JSON.parse(text))).toContain('error_code')
      }),
      { numRuns: 150 },
    )
  })
})
