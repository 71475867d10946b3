// test/helpers/bundles.ts: bundles and actions in API tests: code in base64, add/invoke shortcuts
import { expect } from 'vitest'
import { API, type Json, type TestResponse, type TestServer } from './server.ts'

export const BUNDLES = `${API}/ctl/bundles`
export const ACTIONS = `${API}/ctl/actions`
export const INVOKE = `${API}/data/actions`
export const REASON = 'reason=AppFunctionality'

/** Validator, normalizer and transformers of a relaxed SSN type (custom data type tests). */
export const SSN_HELPERS = `
exports.validate = { type: 'validator', handler: (value) => /^\\d{3}-?\\d{2}-?\\d{4}$/.test(value) }
exports.normalize = { type: 'normalizer', handler: (value) => value.replace(/-/g, '') }
exports.mask = {
  type: 'transformer',
  handler: (context, object, value) => '*****' + value.slice(-4),
}
exports.last4 = { type: 'transformer', handler: (context, object, value) => value.slice(-4) }
exports.notify = { type: 'action', handler: () => 1 }
`

/** Bundle code as the API takes it: base64 of the script. */
export function code(script: string): string {
  return Buffer.from(script, 'utf8').toString('base64')
}

/** The audit records of the server's database sink, oldest first. */
export async function auditRecords(server: TestServer): Promise<Json[]> {
  const rows = await server.app.store.audit.list({ limit: 10_000 })
  return rows.map((row) => JSON.parse(row.record))
}

export async function addBundle(
  server: TestServer,
  name: string,
  script: string,
  token?: string,
): Promise<Json> {
  const res = await server.request('POST', BUNDLES, { token, body: { name, code: code(script) } })
  const body = await res.json()
  if (res.status !== 200)
    throw new Error(`add bundle ${name}: ${res.status} ${JSON.stringify(body)}`)
  return body
}

export async function addAction(
  server: TestServer,
  action: { name: string; function: string; role: string; description?: string },
): Promise<Json> {
  const res = await server.request('POST', ACTIONS, { body: action })
  const body = await res.json()
  if (res.status !== 200) throw new Error(`add action: ${res.status} ${JSON.stringify(body)}`)
  return body
}

export function invoke(
  server: TestServer,
  action: string,
  body?: unknown,
  options: { token?: string; query?: string } = {},
): Promise<TestResponse> {
  return server.request('POST', `${INVOKE}/${action}?${REASON}${options.query ?? ''}`, {
    token: options.token,
    body,
  })
}

/** Asserts a 200 answer and returns its body. */
export async function ok(res: TestResponse | Promise<TestResponse>): Promise<Json> {
  const answer = await res
  const body = await answer.text()
  expect(answer.status, body).toBe(200)
  return body === '' ? undefined : JSON.parse(body)
}
