// test/api/sandbox-hostile.test.ts: hostile bundles fail cleanly while the node keeps serving and its memory stays bounded
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bundleSource } from '../../src/core/bundles/code.ts'
import type { FunctionType } from '../../src/core/bundles/sandbox.ts'
import { addAction, addBundle, BUNDLES, code, invoke } from '../helpers/bundles.ts'
import {
  API,
  type Json,
  startTestServer,
  type TestResponse,
  type TestServer,
} from '../helpers/server.ts'
import { startUpstream, type Upstream } from '../helpers/upstream.ts'

// The sandbox runs no SQL: one engine is enough here (bundles.test.ts covers both).
let server: TestServer
let upstream: Upstream
const rss: number[] = []

/** Runs a hostile call and checks the node answers its health check while the call runs. */
async function whileHealthy<T>(
  work: () => Promise<T>,
): Promise<{ result: T; answeredDuring: boolean }> {
  let isDone = false
  const running = work().finally(() => {
    isDone = true
  })
  const health = await fetch(`${server.baseUrl}${API}/data/info/health`)
  expect(health.status).toBe(200)
  const answeredDuring = !isDone
  const result = await running
  rss.push(process.memoryUsage().rss)
  return { result, answeredDuring }
}

async function statusOf(res: TestResponse): Promise<{ status: number; body: Json }> {
  const text = await res.text()
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text) }
}

beforeAll(async () => {
  upstream = await startUpstream()
  server = await startTestServer({
    env: {
      SVC_SANDBOX_TIME_LIMIT: '300ms',
      SVC_SANDBOX_ACTION_TIME_LIMIT: '1s',
      SVC_SANDBOX_MEMORY_LIMIT_BYTES: String(16 * 1_048_576),
      SVC_SANDBOX_MAX_RESULT_BYTES: '1048576',
      SVC_SANDBOX_WORKERS: '2',
      SVC_SERVICE_ALLOWED_PCI_HTTP_DESTINATIONS: `${upstream.origin}/ok`,
    },
  })
  rss.push(process.memoryUsage().rss)
})

afterAll(async () => {
  await server?.close()
  await upstream?.close()
})

type LoadCase = Readonly<{
  name: string
  script: string
  status: 400 | 200
  message?: string
  slow?: boolean
}>

const LOAD_CASES: LoadCase[] = [
  {
    name: 'an endless loop',
    script: 'while (true) {}',
    status: 400,
    message: 'time limit',
    slow: true,
  },
  {
    name: 'an endless loop in a called function',
    script: 'function f() { for (;;) {} }\nf()',
    status: 400,
    message: 'time limit',
    slow: true,
  },
  {
    name: 'growing arrays',
    script: 'const a = []\nfor (;;) a.push(new Array(1e5).fill(1))',
    status: 400,
    message: 'memory limit',
  },
  { name: 'a doubling string', script: "let s = 'x'\nfor (;;) s += s", status: 400 },
  {
    name: 'deep recursion',
    script: 'function f() { return f() + 1 }\nf()',
    status: 400,
    message: 'threw InternalError',
  },
  {
    name: 'require',
    script: "const fs = require('fs')",
    status: 400,
    message: 'threw ReferenceError',
  },
  { name: 'process.exit', script: 'process.exit(1)', status: 400, message: 'threw ReferenceError' },
  {
    name: 'process through the Function constructor',
    script: "Function('return process')().exit(1)",
    status: 400,
    message: 'threw ReferenceError',
  },
  {
    name: 'an export getter that never returns',
    script: "Object.defineProperty(exports, 'a', { enumerable: true, get() { for (;;) {} } })",
    status: 400,
    message: 'time limit',
    slow: true,
  },
  {
    name: 'a Proxy whose ownKeys never returns',
    script: 'module.exports = new Proxy({}, { ownKeys() { for (;;) {} } })',
    status: 400,
    message: 'time limit',
    slow: true,
  },
  {
    name: 'a million exports',
    script:
      "for (let i = 0; i < 1e6; i++) exports['f' + i] = { type: 'validator', handler: () => true }",
    status: 400,
  },
  {
    name: 'fetch while loading',
    script: `fetch('${'http://127.0.0.1:9/'}')`,
    status: 400,
    message: 'threw Error',
  },
  {
    name: 'a thrown value whose name never returns',
    script: 'throw { get name() { for (;;) {} } }',
    status: 400,
  },
  { name: 'a BigInt export', script: 'exports.a = 10n', status: 400, message: 'must be an object' },
  {
    name: 'a BigInt description',
    script: "exports.a = { type: 'validator', handler: () => true, description: 10n }",
    status: 400,
  },
  {
    name: 'a __proto__ export',
    script:
      "Object.defineProperty(exports, '__proto__', { enumerable: true, value: { type: 'validator', handler: () => true } })",
    status: 400,
    message: 'naming rules',
  },
  {
    name: 'a megabyte description',
    script: "exports.a = { type: 'validator', handler: () => true, description: 'x'.repeat(1e6) }",
    status: 400,
    message: 'longer than',
  },
  {
    name: 'Atomics.wait',
    script: 'Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0)',
    status: 400,
  },
  {
    name: 'replacing JSON and polluting Object.prototype before exporting',
    script:
      "JSON.stringify = () => '{}'\nJSON.parse = () => ({})\nObject.prototype.polluted = true\nexports.ok = { type: 'action', handler: () => ({}.polluted) }",
    status: 200,
  },
  {
    name: 'exports named like Object members',
    script:
      "module.exports = { constructor: { type: 'action', handler: () => 'c' }, toString: { type: 'action', handler: () => 's' } }",
    status: 200,
  },
]

describe('hostile code at load (add bundle)', () => {
  LOAD_CASES.forEach((test, index) => {
    it(`${test.status === 200 ? 'contains' : 'refuses'} ${test.name}`, async () => {
      const name = `load${index}`
      const { result, answeredDuring } = await whileHealthy(async () =>
        statusOf(
          await server.request('POST', BUNDLES, { body: { name, code: code(test.script) } }),
        ),
      )
      expect(result.status, JSON.stringify(result.body)).toBe(test.status)
      if (test.status === 400) {
        expect(result.body).toMatchObject({ error_code: 'ERR1012', context: { bundle: name } })
        if (test.message) expect(result.body.message).toContain(test.message)
        expect((await server.request('GET', `${BUNDLES}/${name}`)).status).toBe(404)
      }
      if (test.slow) expect(answeredDuring).toBe(true)
      expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    })
  })

  it('kept the original JSON and the host prototypes', async () => {
    await addAction(server, { name: 'polluted', function: 'load18.ok', role: 'PrivilegedService' })
    expect(await (await invoke(server, 'polluted')).json()).toBe(true)
    await addAction(server, {
      name: 'ctor',
      function: 'load19.constructor',
      role: 'PrivilegedService',
    })
    expect(await (await invoke(server, 'ctor')).json()).toBe('c')
    expect(Object.hasOwn(Object.prototype, 'polluted')).toBe(false)
  })
})

type ActionCase = Readonly<{
  name: string
  handler: string
  status: number
  code?: string
  message?: string
  slow?: boolean
  check?: (body: Json) => void
}>

const ACTION_CASES: ActionCase[] = [
  {
    name: 'an endless loop',
    handler: '() => { for (;;) {} }',
    status: 503,
    code: 'ERR1009',
    slow: true,
  },
  {
    name: 'an endless loop after an await',
    handler: 'async () => { await null; for (;;) {} }',
    status: 503,
    code: 'ERR1009',
    slow: true,
  },
  {
    name: 'memory exhaustion',
    handler: '() => { const a = []; for (;;) a.push(new Array(1e5).fill(1)) }',
    status: 400,
    code: 'ERR9008',
    message: 'memory limit',
  },
  { name: 'a huge array', handler: '() => new Array(1e9).fill(0)', status: 400, code: 'ERR9008' },
  { name: 'a huge string', handler: "() => 'x'.repeat(2 ** 30)", status: 400, code: 'ERR9008' },
  {
    name: 'deep recursion',
    handler: '() => { const f = () => f() + 1; return f() }',
    status: 400,
    code: 'ERR9008',
    message: 'threw InternalError',
  },
  {
    name: 'a promise that never settles',
    handler: '() => new Promise(() => {})',
    status: 400,
    code: 'ERR9008',
    message: 'never settles',
  },
  {
    name: 'a promise chained on a request that never answers',
    handler: `() => fetch('${'UPSTREAM'}/ok/slow')`,
    status: 503,
    code: 'ERR1009',
    slow: true,
  },
  {
    name: 'fetch to a forbidden host',
    handler: "() => fetch('http://127.0.0.1:9/x')",
    status: 400,
    code: 'ERR9008',
    message: 'threw Error',
  },
  {
    name: 'fetch to an allowed URL redirecting to a forbidden one',
    handler: `() => fetch('${'UPSTREAM'}/ok/redirect?to=' + encodeURIComponent('http://127.0.0.1:9/'))`,
    status: 400,
    code: 'ERR9008',
  },
  {
    name: 'a result over the size cap',
    handler: "() => 'x'.repeat(2e6)",
    status: 400,
    code: 'ERR9008',
    message: 'more data',
  },
  {
    name: 'a function result',
    handler: '() => () => 1',
    status: 400,
    code: 'ERR9008',
    message: 'not JSON',
  },
  {
    name: 'a cyclic result',
    handler: '() => { const a = {}; a.a = a; return a }',
    status: 400,
    code: 'ERR9008',
    message: 'not JSON',
  },
  {
    name: 'a BigInt result',
    handler: '() => 1n',
    status: 400,
    code: 'ERR9008',
    message: 'not JSON',
  },
  {
    name: 'a toJSON that never returns',
    handler: '() => ({ toJSON() { for (;;) {} } })',
    status: 503,
    code: 'ERR1009',
    slow: true,
  },
  {
    name: 'a toJSON that recurses',
    handler: '() => ({ toJSON() { return this.toJSON() } })',
    status: 400,
    code: 'ERR9008',
  },
  {
    name: 'eval of an endless loop',
    handler: "() => eval('for (;;) {}')",
    status: 503,
    code: 'ERR1009',
    slow: true,
  },
  {
    name: 'the Function constructor',
    handler: "() => new Function('for (;;) {}')()",
    status: 503,
    code: 'ERR1009',
    slow: true,
  },
  {
    name: 'catastrophic regular expression backtracking',
    handler: "() => /(a+)+$/.test('a'.repeat(40) + 'b')",
    status: 503,
    code: 'ERR1009',
    slow: true,
  },
  {
    name: 'a thrown value whose name never returns',
    handler: '() => { throw { get name() { for (;;) {} } } }',
    status: 503,
    code: 'ERR1009',
    slow: true,
  },
  {
    name: 'throwing null',
    handler: '() => { throw null }',
    status: 400,
    code: 'ERR9008',
    message: 'threw Error',
  },
  { name: 'dynamic import', handler: "() => import('fs')", status: 400, code: 'ERR9008' },
  {
    name: 'a vault call with a wrong argument',
    handler: "(c) => c.vault.deref('pvlt:read_object:people:ssn:x:')",
    status: 400,
    code: 'ERR1012',
  },
  {
    name: 'a flood of console.log',
    handler: "() => { for (let i = 0; i < 2000; i++) console.log('x'.repeat(100)); return 'done' }",
    status: 200,
    check: (body) => expect(body).toBe('done'),
  },
  {
    name: 'a flood of fetch',
    handler: `async () => { const all = []; for (let i = 0; i < 200; i++) all.push(fetch('${'UPSTREAM'}/ok/x').then(() => 1, () => 0)); return (await Promise.all(all)).reduce((a, b) => a + b) }`,
    status: 200,
    check: (body) => expect(body).toBeLessThanOrEqual(32),
  },
  {
    name: 'a __proto__ key in the result',
    handler: `() => JSON.parse('{"__proto__": {"polluted": true}, "a": 1}')`,
    status: 200,
    check: (body) => expect(body).toEqual({ a: 1 }),
  },
  {
    name: 'probing for require, process, timers and the host',
    handler:
      '() => [typeof require, typeof process, typeof setTimeout, typeof setInterval, typeof queueMicrotask, typeof Deno, typeof Bun, typeof module.require, typeof globalThis.WebAssembly]',
    status: 200,
    check: (body) => expect(new Set(body)).toEqual(new Set(['undefined'])),
  },
  {
    name: 'prototype pollution inside',
    handler:
      "() => { Object.prototype.polluted = 'yes'; Array.prototype.push = null; return { seen: ({}).polluted } }",
    status: 200,
    check: (body) => expect(body).toEqual({ seen: 'yes' }),
  },
]

describe('hostile actions', () => {
  beforeAll(async () => {
    const script = ACTION_CASES.map(
      (test, i) =>
        `exports.a${i} = { type: 'action', handler: ${test.handler.replaceAll('UPSTREAM', upstream.origin)} }`,
    )
    await addBundle(
      server,
      'hostile',
      `${script.join('\n')}\nexports.echo = { type: 'action', handler: (c) => c.body }`,
    )
    for (let i = 0; i < ACTION_CASES.length; i++)
      await addAction(server, {
        name: `a${i}`,
        function: `hostile.a${i}`,
        role: 'PrivilegedService',
      })
    await addAction(server, { name: 'echo', function: 'hostile.echo', role: 'PrivilegedService' })
  })

  ACTION_CASES.forEach((test, index) => {
    it(`fails cleanly on ${test.name}`, async () => {
      const { result, answeredDuring } = await whileHealthy(async () =>
        statusOf(await invoke(server, `a${index}`)),
      )
      expect(result.status, JSON.stringify(result.body)).toBe(test.status)
      if (test.code) expect(result.body.error_code).toBe(test.code)
      if (test.message) expect(result.body.message).toContain(test.message)
      test.check?.(result.body)
      if (test.slow) expect(answeredDuring).toBe(true)
      expect(({} as Record<string, unknown>).polluted).toBeUndefined()
      // A runtime that failed is replaced: the bundle still answers.
      expect(await (await invoke(server, 'echo', index)).json()).toBe(index)
    })
  })

  it('keeps serving other calls while several actions spin', async () => {
    const spinning = [invoke(server, 'a0'), invoke(server, 'a0')]
    const started = performance.now()
    expect(await (await invoke(server, 'echo', 'fast')).json()).toBe('fast')
    const echoMs = performance.now() - started
    for (const res of await Promise.all(spinning)) expect(res.status).toBe(503)
    // Recorded, not asserted (no timed assertions): see bench/README.md for the figures.
    expect(echoMs).toBeGreaterThan(0)
  })
})

const TYPE_CASES: Readonly<{
  name: string
  body: string
  expected: 'timeout' | 'memory' | 'unsettled' | 'too_large' | 'item'
}>[] = [
  { name: 'an endless loop', body: 'for (;;) {}', expected: 'timeout' },
  {
    name: 'memory exhaustion',
    body: 'const a = []; for (;;) a.push(new Array(1e5).fill(1))',
    expected: 'memory',
  },
  { name: 'deep recursion', body: 'const f = () => f() + 1; return f()', expected: 'item' },
  {
    name: 'a promise that never settles',
    body: 'return new Promise(() => {})',
    expected: 'unsettled',
  },
  { name: 'a huge string', body: "return 'x'.repeat(3e6)", expected: 'too_large' },
  { name: 'a non-JSON value', body: 'return Symbol()', expected: 'item' },
  {
    name: 'a fetch to a forbidden host',
    body: "return fetch('http://127.0.0.1:9/')",
    expected: 'item',
  },
  {
    name: 'prototype pollution',
    body: "Object.prototype.polluted = 1; JSON.stringify = () => 'x'; return 1",
    expected: 'item',
  },
]

const ARGUMENTS: Record<FunctionType, unknown[]> = {
  validator: ['v'],
  normalizer: ['v'],
  transformer: [{ user: 'u' }, {}, 'v'],
  fptemplate: [{ user: 'u' }, {}, 'abcdef'],
  action: [{}],
}

describe('hostile validators, normalizers, transformers and token ID templates (the sandbox of the node)', () => {
  for (const type of ['validator', 'normalizer', 'transformer', 'fptemplate'] as const) {
    TYPE_CASES.forEach((test, index) => {
      it(`${type}: fails cleanly on ${test.name}`, async () => {
        const source = `exports.f = { type: '${type}', handler: (...args) => { ${test.body} } }`
        const bundle = bundleSource(`${type}${index}`, source)
        const { sandbox } = server.app.services
        const call = () =>
          sandbox.call({ bundle, function: 'f', type, inputs: [ARGUMENTS[type], ARGUMENTS[type]] })
        const { result, answeredDuring } = await whileHealthy(() =>
          call().then(
            (outcomes) => ({ outcomes, failure: undefined }),
            (failure: { kind: string }) => ({ outcomes: undefined, failure: failure.kind }),
          ),
        )
        if (test.expected === 'item') {
          expect(result.outcomes).toHaveLength(2)
          if (test.name !== 'prototype pollution') expect(result.outcomes?.[0]?.ok).toBe(false)
        } else {
          expect(result.failure).toBe(test.expected)
        }
        if (test.expected === 'timeout') expect(answeredDuring).toBe(true)
        expect(({} as Record<string, unknown>).polluted).toBeUndefined()
      })
    })
  }

  it('keeps the node memory bounded after all of it', () => {
    const growth = Math.max(...rss) - (rss[0] ?? 0)
    // Each runtime's WebAssembly memory is capped (2.5 × 16 MiB here) and dropped after a failure.
    expect(growth).toBeLessThan(1024 * 1_048_576)
    expect(rss.length).toBeGreaterThan(50)
  })
})
