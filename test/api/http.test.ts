// test/api/http.test.ts: HTTP-level behaviour every operation shares: routing errors, bodies, queries, faults, timeouts
import { setTimeout as sleep } from 'node:timers/promises'
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler'
import type { RouteOptions } from 'fastify'
import { Type } from 'typebox'
import { Compile } from 'typebox/compile'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../src/app.ts'
import { SERVER_SECRETS } from '../helpers/config.ts'
import {
  API,
  startTestServer,
  type TestResponse,
  type TestServer,
  testConfig,
} from '../helpers/server.ts'

const Echo = Type.Object({
  props: Type.Optional(Type.Array(Type.String())),
  ids: Type.Optional(Type.Array(Type.String())),
  flag: Type.Optional(Type.String({ pattern: '^([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])$' })),
  name: Type.Optional(Type.String()),
})

describe('HTTP conventions', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({
      env: { SVC_SERVICE_BODY_LIMIT_BYTES: '2048', SVC_SERVICE_TIMEOUT_SECONDS: '0.3' },
      routes(app) {
        app.server.get(
          `${API}/system/test/echo`,
          { config: { operation: 'get_version' }, schema: { querystring: Echo } },
          async (req) => req.query,
        )
        app.server.post(
          `${API}/system/test/fault`,
          { config: { operation: 'get_version' } },
          async () => {
            throw new Error('secret detail 4111111111111111')
          },
        )
        app.server.post(
          `${API}/system/test/slow`,
          { config: { operation: 'get_version' } },
          async (req) => {
            await app.store.transaction(
              async (tx) => {
                await tx.meta.set('slow-write', 'x', req.ctx.now)
                await sleep(600)
              },
              { signal: req.ctx.signal },
            )
            return { done: true }
          },
        )
        app.server.post(
          `${API}/system/test/exempt`,
          { config: { operation: 'get_version', isTimeoutExempt: true } },
          async () => {
            await sleep(500)
            return { done: true }
          },
        )
      },
    })
  })
  afterAll(() => server.close())

  async function expectError(res: TestResponse, status: number, code: string) {
    expect(res.status).toBe(status)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    const body = await res.json()
    expect(body).toEqual({
      error_code: code,
      message: expect.stringMatching(/\.$/),
      context: expect.any(Object),
    })
    return body
  }

  it('answers 404 ERR1012 for an unknown path', async () => {
    await expectError(await server.request('GET', `${API}/no/such/thing`), 404, 'ERR1012')
    await expectError(await server.request('GET', '/', { token: null }), 404, 'ERR1012')
  })

  it('answers 405 ERR1012 for a known path with the wrong method', async () => {
    const body = await expectError(
      await server.request('DELETE', `${API}/system/info/version`),
      405,
      'ERR1012',
    )
    expect(body.context).toEqual({ method: 'DELETE', path: `${API}/system/info/version` })
  })

  it('answers 400 ERR1012 for malformed JSON', async () => {
    const res = await server.request('POST', `${API}/system/confvar/log_level`, {
      body: '{"value": ',
      headers: { 'content-type': 'application/json' },
    })
    await expectError(res, 400, 'ERR1012')
  })

  it('answers 400 ERR1012 naming the field for a wrong JSON type, without coercing it', async () => {
    const res = await server.request('POST', `${API}/system/confvar/log_level`, {
      body: { value: 1 },
    })
    const body = await expectError(res, 400, 'ERR1012')
    expect(body.context.field).toBe('value')
    expect(body.message).toContain("'value'")
  })

  it('answers 400 ERR1012 naming a missing required field', async () => {
    const body = await expectError(
      await server.request('POST', `${API}/system/confvar/log_level`, { body: {} }),
      400,
      'ERR1012',
    )
    expect(body.context.field).toBe('value')
  })

  it('answers 400 ERR1012 for an unsupported content type', async () => {
    const res = await server.request('POST', `${API}/system/confvar/log_level`, {
      body: 'value=debug',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    await expectError(res, 400, 'ERR1012')
  })

  it('answers 413 for a body over the configured limit', async () => {
    const res = await server.request('POST', `${API}/system/confvar/log_level`, {
      body: { value: 'x'.repeat(4096) },
    })
    await expectError(res, 413, 'ERR1012')
  })

  it('answers 414 for a URL over 64 KiB', async () => {
    await expectError(
      await server.request('GET', `${API}/system/info/version?custom_audit=${'a'.repeat(70_000)}`),
      414,
      'ERR1012',
    )
  })

  it('merges repeated and comma-separated array parameters', async () => {
    const res = await server.request(
      'GET',
      `${API}/system/test/echo?props=a,b&props=c&ids=1&name=x,y`,
    )
    expect(await res.json()).toEqual({ props: ['a', 'b', 'c'], ids: ['1'], name: 'x,y' })
  })

  it('accepts booleans in any case and refuses other words', async () => {
    expect((await server.request('GET', `${API}/system/test/echo?flag=TRUE`)).status).toBe(200)
    await expectError(
      await server.request('GET', `${API}/system/test/echo?flag=yes`),
      400,
      'ERR1012',
    )
  })

  it('refuses a scalar parameter given twice', async () => {
    await expectError(
      await server.request('GET', `${API}/system/test/echo?name=a&name=b`),
      400,
      'ERR1012',
    )
  })

  it('answers 500 ERR1000 for an unexpected fault without leaking its details', async () => {
    const res = await server.request('POST', `${API}/system/test/fault`)
    const body = await expectError(res, 500, 'ERR1000')
    expect(JSON.stringify(body)).not.toMatch(/secret|4111|stack|at /)
    expect(body.context).toEqual({})
  })

  it('answers 500 ERR1000 when the database fails, without SQL or driver text', async () => {
    const broken = await startTestServer()
    await broken.app.store.close()
    const res = await broken.request('GET', `${API}/system/info/version`)
    const body = await expectError(res, 500, 'ERR1000')
    expect(JSON.stringify(body)).not.toMatch(/select|sqlite|database/i)
    await broken.app.server.close()
  })

  it('abandons a call after the timeout with 503 ERR1009 and rolls its transaction back', async () => {
    await expectError(await server.request('POST', `${API}/system/test/slow`), 503, 'ERR1009')
    await sleep(500)
    expect(await server.app.store.meta.get('slow-write')).toBeUndefined()
  })

  it('lets timeout-exempt operations run past the timeout', async () => {
    const res = await server.request('POST', `${API}/system/test/exempt`)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ done: true })
  })

  it('returns a request id header on every response', async () => {
    const res = await server.request('GET', `${API}/system/info/version`)
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('allows only local origins in dev mode', async () => {
    for (const origin of ['http://localhost:3000', 'http://127.0.0.1:5173', 'http://localhost']) {
      const res = await server.request('GET', `${API}/system/info/version`, {
        headers: { origin },
      })
      expect(res.headers.get('access-control-allow-origin')).toBe(origin)
    }
    for (const origin of ['https://app.example', 'http://localhost.example.com:3000']) {
      const res = await server.request('GET', `${API}/system/info/version`, {
        headers: { origin },
      })
      expect(res.headers.get('access-control-allow-origin')).toBeNull()
    }
  })
})

describe('HTTP components and shutdown', () => {
  it('answers 404 for API families this node does not serve', async () => {
    const server = await startTestServer({ env: { SVC_SERVICE_COMPONENTS: 'data' } })
    expect((await server.request('GET', `${API}/ctl/info/cluster`)).status).toBe(404)
    expect((await server.request('GET', `${API}/data/info/health`, { token: null })).status).toBe(
      200,
    )
    await server.close()
  })

  it('allows any origin in dev mode when SVC_SERVICE_ALLOW_ORIGINS says so', async () => {
    const server = await startTestServer({ env: { SVC_SERVICE_ALLOW_ORIGINS: '*' } })
    const res = await server.request('GET', `${API}/system/info/version`, {
      headers: { origin: 'https://app.example' },
    })
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    await server.close()
  })

  it('sends no CORS headers in server mode by default', async () => {
    const server = await startTestServer({
      env: {
        ...SERVER_SECRETS,
        SVC_DEVMODE: 'false',
        SVC_KMS_ALLOW_LOCAL: 'true',
        SVC_TLS_ENABLE: 'false',
      },
    })
    const res = await server.request('GET', `${API}/system/info/version`, {
      headers: { origin: 'https://app.example' },
    })
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
    await server.close()
  })

  it('finishes in-flight requests on close and then refuses new ones', async () => {
    const server = await startTestServer({
      routes(app) {
        app.server.get(
          `${API}/system/test/wait`,
          { config: { operation: 'get_version' } },
          async () => {
            await sleep(300)
            return { done: true }
          },
        )
      },
    })
    const inFlight = server.request('GET', `${API}/system/test/wait`)
    await sleep(50)
    const closing = server.close()
    const res = await inFlight
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ done: true })
    await closing
    await expect(
      server.request('GET', `${API}/data/info/health`, { token: null }),
    ).rejects.toThrow()
  })
})

describe('route schemas', () => {
  it('compile with TypeBox and fast-json-stringify (the node builds them on first use)', async () => {
    // A schema the compilers refuse would otherwise only show on its route's first request.
    const app = await createApp(testConfig(), { isLogSilent: true })
    const routes: RouteOptions[] = []
    app.server.addHook('onRoute', (route) => {
      routes.push(route)
    })
    await app.server.ready()
    const serializer = SerializerSelector()({}, {})
    let compiled = 0
    for (const { method, url, schema } of routes) {
      const parts = (schema ?? {}) as Record<string, unknown>
      for (const part of ['body', 'querystring', 'params', 'headers']) {
        if (parts[part] === undefined) continue
        expect(() => Compile(parts[part] as never), `${method} ${url} ${part}`).not.toThrow()
        compiled += 1
      }
      const responses = (parts.response ?? {}) as Record<string, unknown>
      for (const [status, response] of Object.entries(responses)) {
        const build = () =>
          serializer({ schema: response, method: String(method), url, httpStatus: status })
        expect(build, `${method} ${url} ${status}`).not.toThrow()
        compiled += 1
      }
    }
    expect(routes.length).toBeGreaterThan(50)
    expect(compiled).toBeGreaterThan(100)
    await app.close()
  })
})
