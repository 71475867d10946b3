// test/api/objects-fuzz.test.ts: random object bodies, queries and parameters never produce a 500 (no client input may)
import fc from 'fast-check'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { describeEngines } from '../helpers/engines.ts'
import { addCollection, addObject, objectsOf, PEOPLE } from '../helpers/objects.ts'
import { API, startTestServer, type TestServer } from '../helpers/server.ts'

const text = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.constantFrom('', '\u0000', '*', '?*?', '*john*', 'a-b*c(d)*', '\ud800', '%', ',', '.mask'),
)
const anyJson = fc.jsonValue({ maxDepth: 2 })
const propertyName = fc.oneof(
  fc.constantFrom('id', 'name', 'ssn', 'email', 'phone', 'age', 'city', 'birth', '_tenant_id'),
  fc.constantFrom('_owner_id', '_creation_time', 'ssn.mask', 'nick', '__proto__', 'constructor'),
  text,
)
const value = fc.oneof(
  anyJson,
  fc.constantFrom('123-45-6789', 'a@b.com', '1990-01-01', crypto.randomUUID(), 2 ** 70, -1),
)
const fields = fc.dictionary(propertyName, value, { maxKeys: 5 })
const query = fc.record(
  {
    match: fc.oneof(fc.dictionary(propertyName, value, { maxKeys: 2 }), anyJson),
    in: fc.oneof(
      fc.dictionary(propertyName, fc.array(value, { maxLength: 3 }), { maxKeys: 2 }),
      anyJson,
    ),
    like: fc.oneof(fc.dictionary(propertyName, fc.oneof(text, anyJson), { maxKeys: 2 }), anyJson),
  },
  { requiredKeys: [] },
)
const param = (name: string) => fc.option(fc.tuple(fc.constant(name), text), { nil: undefined })
const params = fc
  .tuple(
    param('props'),
    param('options'),
    param('page_size'),
    param('cursor'),
    param('ids'),
    param('expiration_secs'),
    param('import'),
    param('export_key'),
    param('export'),
    fc.constantFrom('reason=AppFunctionality', 'reason=Other', 'reason=nope', ''),
  )
  .map(([...parts]) => {
    const reason = parts.pop() as string
    const pairs = (parts as ([string, string] | undefined)[]).flatMap((p) =>
      p ? [`${p[0]}=${encodeURIComponent(p[1].toWellFormed())}`] : [],
    )
    return [reason, ...pairs].filter(Boolean).join('&')
  })

type Call = { method: string; path: string; body?: unknown }

describeEngines('objects fuzz', (engine) => {
  let server: TestServer
  let known: string
  beforeAll(async () => {
    server = await startTestServer({ engine })
    await addCollection(server, PEOPLE)
    known = await addObject(objectsOf(server, 'people'), {
      name: 'Known Person',
      ssn: '800-10-0001',
    })
  })
  afterAll(() => server.close())

  const id = () => fc.oneof(fc.constant(known), fc.constant(crypto.randomUUID()), text)
  const base = `${API}/data/collections/people`
  const segment = (v: string) => encodeURIComponent(v.toWellFormed()) || 'x'

  it('answers every call with a status below 500 and the spec error body on failure', async () => {
    const call: fc.Arbitrary<Call> = fc.oneof(
      fc
        .tuple(params, fc.oneof(fields, anyJson))
        .map(([q, body]) => ({ method: 'POST', path: `${base}/objects?${q}`, body })),
      fc.tuple(params, fc.oneof(fc.array(fields, { maxLength: 3 }), anyJson)).map(([q, body]) => ({
        method: 'POST',
        path: `${base}/bulk/objects?${q}`,
        body,
      })),
      fc
        .tuple(params, id())
        .map(([q, i]) => ({ method: 'GET', path: `${base}/objects/${segment(i)}?${q}` })),
      params.map((q) => ({ method: 'GET', path: `${base}/objects?${q}` })),
      fc
        .tuple(params, fc.oneof(query, anyJson))
        .map(([q, body]) => ({ method: 'POST', path: `${base}/query/objects?${q}`, body })),
      fc.tuple(params, id(), fc.oneof(fields, anyJson)).map(([q, i, body]) => ({
        method: 'PATCH',
        path: `${base}/objects/${segment(i)}?${q}`,
        body,
      })),
      fc.tuple(params, fc.array(fc.oneof(fields, anyJson), { maxLength: 3 })).map(([q, body]) => ({
        method: 'PATCH',
        path: `${base}/bulk/objects?${q}`,
        body,
      })),
      fc
        .tuple(params, fc.oneof(fc.array(fc.record({ id: id() }), { maxLength: 3 }), anyJson))
        .map(([q, body]) => ({
          method: 'DELETE',
          path: `${base}/bulk/objects?${q}`,
          body,
        })),
      fc
        .tuple(params, id())
        .map(([q, i]) => ({ method: 'DELETE', path: `${base}/objects/${segment(i)}?${q}` })),
      params.map((q) => ({ method: 'GET', path: `${base}/count/objects?${q}` })),
    )
    await fc.assert(
      fc.asyncProperty(call, async ({ method, path, body }) => {
        const res = await server.request(method, path, { body })
        const text = await res.text()
        expect(res.status, `${method} ${path} ${JSON.stringify(body)} → ${text}`).toBeLessThan(500)
        if (res.status >= 400) {
          const error = JSON.parse(text)
          expect(error).toMatchObject({
            error_code: expect.stringMatching(/^ERR\d{4}$/),
            context: expect.any(Object),
          })
          expect(error.message).toMatch(/\.$/)
        }
      }),
      { numRuns: 300 },
    )
  })
})

describeEngines('NUL characters', (engine) => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ engine })
    await addCollection(server, PEOPLE)
  })
  afterAll(() => server.close())

  it('are refused in values kept unencrypted, accepted in encrypted ones', async () => {
    const people = objectsOf(server, 'people')
    const nul = 'a\u0000b'
    for (const body of [
      { name: 'N', ssn: '800-10-0002', city: nul },
      { name: 'N', ssn: '800-10-0002', _tenant_id: nul },
    ]) {
      const res = await people.add(body)
      expect(res.status).toBe(400)
      expect((await res.json()).error_code).toBe('ERR3002')
    }
    const id = await addObject(people, { name: `Nul${'\u0000'}Name`, ssn: '800-10-0003' })
    expect((await (await people.get(id, 'props=name')).json()).name).toBe('Nul\u0000Name')
    for (const query of [
      { match: { city: nul } },
      { match: { _tenant_id: nul } },
      { in: { age: [1] }, match: { _owner_collection: nul } },
    ]) {
      const res = await people.search(query, 'props=id')
      expect(res.status).toBe(400)
    }
  })
})
