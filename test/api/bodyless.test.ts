// test/api/bodyless.test.ts: operations without a body accept `Content-Type: application/json` and an empty body
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { describeEngines } from '../helpers/engines.ts'
import { ADMIN_KEY, API, startTestServer, type TestServer } from '../helpers/server.ts'

type Operation = { operationId?: string; requestBody?: unknown }
type Document = { paths: Record<string, Record<string, Operation>> }

const METHODS = new Set(['get', 'delete', 'post', 'put', 'patch'])
const JSON_TYPE = 'application/json'

/** Path parameters get names nothing exists under, so every call stays harmless. */
const fill = (path: string) => path.replace(/\{[^}]+\}/g, 'bodyless_probe')

/**
 * Sends `method path` with an empty body, once with `content-type` (and `content-length: 0`, as
 * Python's `requests` does) and once without; status and error code must be the same.
 */
async function answer(server: TestServer, method: string, path: string, contentType?: string) {
  const headers: Record<string, string> = { authorization: `Bearer ${ADMIN_KEY}` }
  if (contentType !== undefined) headers['content-type'] = contentType
  const init: RequestInit = { method, headers }
  // fetch sends `content-length: 0` for an empty string body, and none for no body.
  if (method !== 'GET' && contentType !== undefined) init.body = ''
  const res = await fetch(`${server.baseUrl}${path}`, init)
  const text = await res.text()
  const isJson = res.headers.get('content-type')?.startsWith(JSON_TYPE) && text !== ''
  const body = isJson ? JSON.parse(text) : undefined
  return {
    status: res.status,
    code: body?.error_code as string | undefined,
    message: body?.message,
  }
}

describe('body-less operations with a JSON content type', () => {
  let server: TestServer
  let bodyless: [string, string][]
  beforeAll(async () => {
    server = await startTestServer()
    const res = await server.request('GET', '/openapi.json', { token: null })
    const document: Document = await res.json()
    // Every route of the OpenAPI document (test/api/openapi.test.ts: every route is in it) whose
    // operation takes no body: a new route is covered without touching this test.
    bodyless = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([method, operation]) => METHODS.has(method) && operation.requestBody === undefined)
        .map(([method]): [string, string] => [method.toUpperCase(), path]),
    )
  })
  afterAll(() => server.close())

  it('finds the body-less operations, DELETE and GET among them', () => {
    const methods = new Set(bodyless.map(([method]) => method))
    expect(methods).toContain('DELETE')
    expect(methods).toContain('GET')
    expect(bodyless.length).toBeGreaterThan(40)
  })

  it('answers each exactly as without a content type, never "not valid JSON"', async () => {
    const differences: string[] = []
    for (const [method, template] of bodyless) {
      const path = `${fill(template)}?reason=AppFunctionality`
      for (const type of [JSON_TYPE, `${JSON_TYPE}; charset=utf-8`]) {
        const withType = await answer(server, method, path, type)
        const without = await answer(server, method, path)
        if (withType.status !== without.status || withType.code !== without.code)
          differences.push(`${method} ${template} (${type}): ${JSON.stringify(withType)}`)
      }
    }
    expect(differences).toEqual([])
  })

  it('still refuses an empty body where the operation takes one', async () => {
    const res = await answer(server, 'POST', `${API}/ctl/collections`, JSON_TYPE)
    expect(res).toMatchObject({ status: 400, code: 'ERR1012' })
  })
})

describeEngines('the Python SDK test cycle', (engine) => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ engine })
  })
  afterAll(() => server.close())

  it('deletes a collection, an object and lists with Content-Type: application/json and no body', async () => {
    const created = await server.request('POST', `${API}/ctl/collections`, {
      body: { name: 'py', type: 'DATA', properties: [{ name: 'note', data_type_name: 'STRING' }] },
    })
    expect(created.status).toBe(200)
    const added = await server.request(
      'POST',
      `${API}/data/collections/py/objects?reason=AppFunctionality`,
      { body: { note: 'x' } },
    )
    const { id } = await added.json()
    const objectPath = `${API}/data/collections/py/objects/${id}?reason=AppFunctionality`
    const read = await answer(server, 'GET', `${objectPath}&options=unsafe`, JSON_TYPE)
    expect(read.status).toBe(200)
    expect((await answer(server, 'DELETE', objectPath, JSON_TYPE)).status).toBe(200)
    const list = await answer(server, 'GET', `${API}/ctl/collections`, JSON_TYPE)
    expect(list.status).toBe(200)
    expect((await answer(server, 'DELETE', `${API}/ctl/collections/py`, JSON_TYPE)).status).toBe(
      200,
    )
    const gone = await server.request('GET', `${API}/ctl/collections/py`)
    expect(gone.status).toBe(404)
  })
})
