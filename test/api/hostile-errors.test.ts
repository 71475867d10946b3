// test/api/hostile-errors.test.ts: every error raised before a route runs answers the spec's JSON body
import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { API, type Json, startTestServer, type TestServer } from '../helpers/server.ts'

/** The spec's error body, with `application/json`, from a response or a raw HTTP answer. */
function expectSpecBody(status: number, contentType: string | null, text: string): Json {
  expect(contentType).toMatch(/^application\/json/)
  const body = JSON.parse(text)
  expect(body).toEqual({
    error_code: expect.stringMatching(/^ERR\d{4}$/),
    message: expect.stringMatching(/\.$/),
    context: expect.any(Object),
  })
  expect(status).toBeGreaterThanOrEqual(400)
  expect(status).toBeLessThan(500)
  return body
}

/** Sends `request` as bytes on a new connection and returns the parsed answer. */
function rawRequest(baseUrl: string, request: string) {
  const { hostname, port } = new URL(baseUrl)
  return new Promise<{ status: number; contentType: string | null; body: string }>(
    (resolve, reject) => {
      const socket = connect(Number(port), hostname, () => socket.end(request))
      let data = ''
      socket.setEncoding('latin1')
      socket.on('data', (chunk) => {
        data += chunk
      })
      socket.on('error', reject)
      socket.on('close', () => {
        const [head = '', body = ''] = data.split('\r\n\r\n')
        const status = Number(head.split(' ')[1])
        const type = /^content-type:\s*(.+)$/im.exec(head)?.[1] ?? null
        resolve({ status, contentType: type, body })
      })
    },
  )
}

describe('errors raised before a route runs', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({
      env: {
        SVC_SERVICE_ALLOW_ORIGINS: 'https://app.example',
        SVC_SERVICE_BODY_LIMIT_BYTES: '4096',
      },
    })
  })
  afterAll(() => server.close())

  const COLLECTION = `${API}/ctl/collections`
  const cases: [string, number, string, () => RequestInit & { path: string }][] = [
    ['malformed percent-encoding', 400, 'ERR1012', () => ({ path: `${COLLECTION}/%FF` })],
    ['a truncated escape', 400, 'ERR1012', () => ({ path: `${COLLECTION}/a%2` })],
    ['an encoded NUL', 404, 'ERR1004', () => ({ path: `${COLLECTION}/a%00b` })],
    [
      'an over-long path parameter',
      414,
      'ERR1012',
      () => ({ path: `${COLLECTION}/${'a'.repeat(5000)}` }),
    ],
    ['an over-long URL', 414, 'ERR1012', () => ({ path: `${COLLECTION}?x=${'a'.repeat(70_000)}` })],
    ['an unknown route', 404, 'ERR1012', () => ({ path: `${API}/nowhere` })],
    [
      'a method the path does not allow',
      405,
      'ERR1012',
      () => ({ path: COLLECTION, method: 'PUT' }),
    ],
    ['a WebDAV method', 405, 'ERR1012', () => ({ path: COLLECTION, method: 'PROPFIND' })],
    [
      'a preflight without Access-Control-Request-Method',
      400,
      'ERR1012',
      () => ({ path: COLLECTION, method: 'OPTIONS', headers: { origin: 'https://app.example' } }),
    ],
    ['a preflight without Origin', 400, 'ERR1012', () => ({ path: COLLECTION, method: 'OPTIONS' })],
    [
      'an unsupported media type',
      400,
      'ERR1012',
      () => ({
        path: COLLECTION,
        method: 'POST',
        headers: { 'content-type': 'application/xml' },
        body: '<a/>',
      }),
    ],
    [
      'a body over the limit',
      413,
      'ERR1012',
      () => ({
        path: COLLECTION,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'a'.repeat(5000) }),
      }),
    ],
    [
      'malformed JSON',
      400,
      'ERR1012',
      () => ({
        path: COLLECTION,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"a":',
      }),
    ],
    [
      'a __proto__ key',
      400,
      'ERR1012',
      () => ({
        path: COLLECTION,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"__proto__":{"x":1}}',
      }),
    ],
    [
      'a constructor.prototype key',
      400,
      'ERR1012',
      () => ({
        path: COLLECTION,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"constructor":{"prototype":{"x":1}}}',
      }),
    ],
  ]

  it.each(cases)('answers %s with %i %s', async (_, status, code, make) => {
    const { path, ...init } = make()
    const headers = { authorization: 'Bearer pvaultauth', ...(init.headers as object) }
    const res = await fetch(`${server.baseUrl}${path}`, { ...init, headers })
    const body = expectSpecBody(res.status, res.headers.get('content-type'), await res.text())
    expect({ status: res.status, code: body.error_code }).toEqual({ status, code })
  })

  it.each([
    ['an unknown method', 'FOO /api/pvlt/1.0/ctl/collections HTTP/1.1\r\nHost: x\r\n\r\n', 400],
    ['a malformed header', 'GET / HTTP/1.1\r\nHost: x\r\nBad Header: x\r\n\r\n', 400],
    ['a malformed request line', 'GET\r\n\r\n', 400],
    [
      'headers over the size limit',
      `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(140_000)}\r\n\r\n`,
      431,
    ],
    [
      'a body shorter than its Content-Length',
      'POST /api/pvlt/1.0/ctl/collections HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer pvaultauth\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n{}',
      400,
    ],
    [
      'conflicting Content-Length and Transfer-Encoding',
      'POST /api/pvlt/1.0/ctl/collections HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n{}',
      400,
    ],
  ])('answers %s on the socket with the spec body', async (_, request, status) => {
    const answer = await rawRequest(server.baseUrl, request)
    expect(answer.status).toBe(status)
    expectSpecBody(answer.status, answer.contentType, answer.body)
  })

  it('still answers a valid preflight with 204 and no body', async () => {
    const res = await fetch(`${server.baseUrl}${COLLECTION}`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' },
    })
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example')
  })
})
