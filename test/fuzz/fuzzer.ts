// test/fuzz/fuzzer.ts: requests made from the served /openapi.json, mutated, sent, and judged
import fc from 'fast-check'
import {
  type Known,
  ODD_STRINGS,
  RawJson,
  type Schema,
  stringArb,
  toJsonText,
  valueArb,
} from './values.ts'

type Parameter = { name: string; in: string; required?: boolean; schema?: Schema }

/** One operation of the OpenAPI document. */
export type Operation = Readonly<{
  id: string
  method: string
  path: string
  parameters: readonly Parameter[]
  body?: Readonly<{ type: string; schema: Schema }>
}>

export type FuzzRequest = Readonly<{
  operation: string
  method: string
  path: string
  headers: Record<string, string>
  body?: string
}>

export type Finding = Readonly<{ request: FuzzRequest; status: number; problem: string }>

export type FuzzStats = {
  requests: number
  /** Requests sent again because a keep-alive connection closed as they were sent. */
  resent: number
  /** Milliseconds spent waiting for answers, by operation (where the time of a run goes). */
  msByOperation: Record<string, number>
  byStatus: Record<string, number>
  serverErrors: number
  malformedBodies: number
  hangs: number
  operations: number
  findings: Finding[]
}

/** The operations of the served document; undocumented paths (docs UI) are skipped. */
export function operationsOf(document: Json): Operation[] {
  const operations: Operation[] = []
  for (const [path, methods] of Object.entries<Json>(document.paths)) {
    for (const [method, op] of Object.entries<Json>(methods)) {
      const content = op.requestBody?.content ?? {}
      const type = Object.keys(content)[0]
      operations.push({
        id: op.operationId ?? `${method} ${path}`,
        method: method.toUpperCase(),
        path,
        parameters: op.parameters ?? [],
        body: type === undefined ? undefined : { type, schema: content[type].schema ?? {} },
      })
    }
  }
  return operations
}

// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is walked as plain JSON
type Json = any

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'PROPFIND', 'SEARCH']
const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-16',
  'text/plain',
  'application/toml',
  'application/pvschema',
  'application/octet-stream',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  '',
  'application/json;;;',
  '*/*',
]

/** Percent-encodes a path segment (a lone surrogate has no UTF-8: it becomes U+FFFD). */
function encodePath(text: string): string {
  return encodeURIComponent(text.toWellFormed())
}

/** A path parameter: a known name most of the time, else odd or long, encoded or not. */
function pathValueArb(known: Known): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...known.names, ...known.ids).map(encodePath) },
    { weight: 2, arbitrary: fc.constantFrom(...ODD_STRINGS).map(encodePath) },
    {
      weight: 2,
      arbitrary: fc.constantFrom('%00', '%FF', '%', '%2', '..', '.', '%2e%2e', 'a%2Fb', '%C0%AF'),
    },
    { weight: 1, arbitrary: fc.constantFrom(300, 2_100, 5_000).map((n) => 'a'.repeat(n)) },
  )
}

/** A generated value as query text: raw JSON as written, objects as JSON, the rest as strings. */
function queryText(value: unknown): string {
  if (value instanceof RawJson) return value.text
  return typeof value === 'object' && value !== null ? toJsonText(value) : String(value)
}

function queryArb(operation: Operation, known: Known, root: Record<string, Schema>) {
  const parameters = operation.parameters.filter((p) => p.in === 'query')
  const record: Record<string, fc.Arbitrary<unknown>> = {}
  for (const p of parameters) {
    const generated =
      p.name === 'reason'
        ? fc.oneof(
            { weight: 9, arbitrary: fc.constant('AppFunctionality') },
            { weight: 1, arbitrary: stringArb(known) },
          )
        : valueArb(p.schema ?? { type: 'string' }, known, root, 3)
    record[p.name] = fc.option(generated, { freq: 3 })
  }
  return fc.record(record).map((values) => {
    const search = new URLSearchParams()
    for (const [name, value] of Object.entries(values)) {
      if (value === null || value === undefined) continue
      if (Array.isArray(value)) search.set(name, value.map(queryText).join(','))
      else search.set(name, queryText(value))
    }
    return search.toString()
  })
}

function headersArb(token: () => string): fc.Arbitrary<Record<string, string>> {
  return fc
    .record({
      auth: fc.oneof(
        { weight: 12, arbitrary: fc.constant('admin') },
        {
          weight: 1,
          arbitrary: fc.constantFrom('', 'Bearer', 'Bearer x', 'Basic YTpi', 'Bearer \u00e9'),
        },
      ),
      accept: fc.option(
        fc.constantFrom(
          'application/pvschema',
          'text/html',
          '*/*;q=0',
          'application/json;q=x',
          '\u00ff',
        ),
        { freq: 5 },
      ),
      requestId: fc.option(fc.constantFrom('a b', 'x'.repeat(500), '../../etc', '%00'), {
        freq: 8,
      }),
      forwarded: fc.option(fc.constantFrom('1.2.3.4, ::1', 'garbage', '999.999.999.999'), {
        freq: 8,
      }),
    })
    .map(({ auth, accept, requestId, forwarded }) => {
      const headers: Record<string, string> = {}
      const value = auth === 'admin' ? `Bearer ${token()}` : auth
      if (value !== '') headers.authorization = value
      if (accept !== null) headers.accept = accept
      if (requestId !== null) headers['x-request-id'] = requestId
      if (forwarded !== null) headers['x-forwarded-for'] = forwarded
      return headers
    })
}

function bodyArb(operation: Operation, known: Known, root: Record<string, Schema>) {
  const schema = operation.body?.schema ?? {}
  const isJson = operation.body === undefined || operation.body.type === 'application/json'
  const text = isJson
    ? fc
        .tuple(
          valueArb(schema, known, root),
          fc.option(fc.constantFrom('__proto__', 'constructor', 'prototype'), { freq: 10 }),
        )
        .map(([value, proto]) => toJsonText(value, proto ?? undefined))
    : fc.oneof(
        stringArb(known),
        fc.constantFrom(
          'a = [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]',
          `${'['.repeat(5000)}`,
          `x DATA ( ${'a STRING, '.repeat(500)} );`,
          'x DATA ( constructor STRING NULL INDEX, toString EMAIL );',
          '[roles.constructor]\ncapabilities = ["constructor"]\n',
          'module.exports = { f: { type: "transformer", handler: (x) => { while (true) {} } } }',
        ),
      )
  const contentType = fc.oneof(
    { weight: 10, arbitrary: fc.constant(operation.body?.type ?? 'application/json') },
    { weight: 1, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
  )
  return fc.record({
    text: fc.oneof({ weight: 12, arbitrary: text }, { weight: 1, arbitrary: fc.constant('') }),
    contentType,
    hasBody: fc.oneof(
      { weight: 12, arbitrary: fc.constant(true) },
      { weight: 1, arbitrary: fc.constant(false) },
    ),
  })
}

/** The arbitrary of requests to one operation. */
export function requestArb(
  operation: Operation,
  known: Known,
  root: Record<string, Schema>,
  token: () => string,
): fc.Arbitrary<FuzzRequest> {
  const names = [...operation.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string)
  const params = fc.tuple(...names.map(() => pathValueArb(known)))
  return fc
    .record({
      params: names.length > 0 ? params : fc.constant([] as string[]),
      query: queryArb(operation, known, root),
      headers: headersArb(token),
      body: bodyArb(operation, known, root),
      method: fc.oneof(
        { weight: 20, arbitrary: fc.constant(operation.method) },
        { weight: 1, arbitrary: fc.constantFrom(...METHODS) },
      ),
    })
    .map(({ params, query, headers, body, method }) => {
      let path = operation.path
      names.forEach((name, i) => {
        path = path.replace(`{${name}}`, params[i] ?? '')
      })
      const hasBody =
        method !== 'GET' &&
        method !== 'HEAD' &&
        (operation.body !== undefined ? body.hasBody : !body.hasBody)
      const all = { ...headers }
      if (hasBody && body.contentType !== '') all['content-type'] = body.contentType
      return {
        operation: operation.id,
        method,
        path: query === '' ? path : `${path}?${query}`,
        headers: all,
        body: hasBody ? body.text : undefined,
      }
    })
}

/** What is wrong with an answer, or undefined when it is as the spec says. */
export function judge(answer: {
  operation: string
  method: string
  status: number
  contentType: string | null
  text: string
}) {
  const { operation, status, contentType, text } = answer
  // The debug operation answers the status it is asked for, 5xx included, by design.
  if (status >= 500 && operation !== 'system.triggerError') return 'server error'
  if (status < 400) return undefined
  if (!contentType?.startsWith('application/json')) return `content type ${contentType}`
  // A HEAD answer has the GET answer's headers and never a body.
  if (answer.method === 'HEAD') return undefined
  let body: Json
  try {
    body = JSON.parse(text)
  } catch {
    return 'error body is not JSON'
  }
  const keys = Object.keys(body ?? {})
    .sort()
    .join(',')
  if (keys !== 'context,error_code,message' && keys !== 'context,error_code,error_url,message')
    return `error body keys ${keys}`
  if (!/^ERR\d{4}$/.test(body.error_code)) return `error code ${body.error_code}`
  if (typeof body.message !== 'string' || body.message === '') return 'error message'
  if (body.context === null || typeof body.context !== 'object' || Array.isArray(body.context))
    return 'error context'
  return undefined
}
