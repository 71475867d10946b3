// test/helpers/objects.ts: calls of the objects API for tests, and the collections they use
import { expect } from 'vitest'
import { API, type Json, type TestResponse, type TestServer } from './server.ts'

export const REASON = 'reason=AppFunctionality'

/** A PERSONS collection with one property of each indexing kind. */
export const PEOPLE = {
  name: 'people',
  type: 'PERSONS',
  properties: [
    { name: 'name', data_type_name: 'NAME', is_substring_index: true },
    { name: 'ssn', data_type_name: 'SSN', is_unique: true },
    { name: 'email', data_type_name: 'EMAIL', is_index: true, is_nullable: true },
    { name: 'phone', data_type_name: 'PHONE_NUMBER', is_nullable: true },
    { name: 'age', data_type_name: 'INTEGER', is_encrypted: false, is_nullable: true },
    {
      name: 'city',
      data_type_name: 'STRING',
      is_encrypted: false,
      is_nullable: true,
      is_index: true,
    },
    { name: 'birth', data_type_name: 'DATE_OF_BIRTH', is_nullable: true },
  ],
}

export type CallOptions = { readonly token?: string; readonly headers?: Record<string, string> }

const join = (query: string) => (query ? `&${query}` : '')

/** The objects operations of one collection, over HTTP. */
export function objectsOf(server: TestServer, collection: string) {
  const base = `${API}/data/collections/${collection}`
  const call = (method: string, path: string, body?: unknown, options: CallOptions = {}) =>
    server.request(method, path, { body, token: options.token, headers: options.headers })
  return {
    add: (body: unknown, query = '', options?: CallOptions) =>
      call('POST', `${base}/objects?${REASON}${join(query)}`, body, options),
    addMany: (body: unknown, query = '', options?: CallOptions) =>
      call('POST', `${base}/bulk/objects?${REASON}${join(query)}`, body, options),
    get: (id: string, query = 'options=unsafe', options?: CallOptions) =>
      call('GET', `${base}/objects/${id}?${REASON}${join(query)}`, undefined, options),
    list: (query = 'options=unsafe', options?: CallOptions) =>
      call('GET', `${base}/objects?${REASON}${join(query)}`, undefined, options),
    search: (body: unknown, query = 'options=unsafe', options?: CallOptions) =>
      call('POST', `${base}/query/objects?${REASON}${join(query)}`, body, options),
    update: (id: string, body: unknown, query = '', options?: CallOptions) =>
      call('PATCH', `${base}/objects/${id}?${REASON}${join(query)}`, body, options),
    updateMany: (body: unknown, query = '', options?: CallOptions) =>
      call('PATCH', `${base}/bulk/objects?${REASON}${join(query)}`, body, options),
    remove: (id: string, query = '', options?: CallOptions) =>
      call('DELETE', `${base}/objects/${id}?${REASON}${join(query)}`, undefined, options),
    removeMany: (body: unknown, query = '', options?: CallOptions) =>
      call('DELETE', `${base}/bulk/objects?${REASON}${join(query)}`, body, options),
    count: (options?: CallOptions) =>
      call('GET', `${base}/count/objects?${REASON}`, undefined, options),
  }
}

export type ObjectsApi = ReturnType<typeof objectsOf>

export async function addCollection(server: TestServer, body: unknown): Promise<void> {
  const res = await server.request('POST', `${API}/ctl/collections`, { body })
  if (res.status !== 200) throw new Error(`add collection: ${res.status} ${await res.text()}`)
}

/** Adds an object and returns its id; fails the test if the service refuses it. */
export async function addObject(api: ObjectsApi, body: unknown, query = ''): Promise<string> {
  const res = await api.add(body, query)
  const json = await res.json()
  if (res.status !== 200) throw new Error(`add object: ${res.status} ${JSON.stringify(json)}`)
  return json.id
}

/** The JSON of a 200 response (fails the test with the body otherwise). */
export async function ok(res: TestResponse | Promise<TestResponse>): Promise<Json> {
  const response = await res
  const text = await response.text()
  expect(response.status, text).toBe(200)
  return text === '' ? undefined : JSON.parse(text)
}

/** A mutable clock for expiry tests (microseconds). */
export function testClock(start = Date.UTC(2030, 0, 1) * 1000) {
  let now = start
  return {
    now: () => now,
    advanceSeconds(seconds: number) {
      now += seconds * 1_000_000
    },
  }
}
