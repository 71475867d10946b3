// test/sandbox/quickjs-sandbox.test.ts: the Sandbox on QuickJS: batches, promises, concurrency, runtime reuse and replacement
import { afterAll, describe, expect, it } from 'vitest'
import { bundleSource } from '../../src/core/bundles/code.ts'
import type { CallOutcome, SandboxFailure } from '../../src/core/bundles/sandbox.ts'
import { createOutbound } from '../../src/sandbox/outbound.ts'
import { createQuickJsSandbox } from '../../src/sandbox/quickjs-sandbox.ts'

const logged: string[] = []

function sandboxWith(
  maxWorkers: number,
  idle: { idleWorkerMs?: number; lastWorkerIdleMs?: number } = {},
) {
  return createQuickJsSandbox({
    ...idle,
    memoryLimitBytes: 16 * 1_048_576,
    timeLimitMs: 500,
    actionTimeLimitMs: 1000,
    maxWorkers,
    maxResultBytes: 1_048_576,
    outbound: createOutbound(),
    fetchDestinations: [],
    log: (entry) => logged.push(`${entry.bundle}: ${entry.text}`),
  })
}

const SCRIPT = `
let count = 0
exports.mask = {
  type: 'transformer',
  handler: (context, object, value) => context.user + ':' + value.slice(0, 2) + '*'.repeat(value.length - 2),
}
exports.freezeCheck = { type: 'transformer', handler: (context) => { context.user = 'changed'; return context.user } }
exports.count = { type: 'normalizer', handler: () => ++count }
exports.mixed = {
  type: 'validator',
  handler: (value) => {
    if (value === 'throw') throw new TypeError('no ' + value)
    if (value === 'async') return Promise.resolve(true)
    if (value === 'reject') return Promise.reject(new RangeError('later'))
    return value === 'ok'
  },
}
exports.spin = { type: 'normalizer', handler: () => { for (;;) {} } }
exports.log = { type: 'action', handler: (context) => { console.log('seen', context.body); return null } }
`

const failureOf = (work: Promise<unknown>) =>
  work.then(
    () => undefined,
    (error: SandboxFailure) => error.kind,
  )

describe('QuickJS sandbox', () => {
  const sandbox = sandboxWith(2)
  const single = sandboxWith(1)
  afterAll(async () => {
    await sandbox.close()
    await single.close()
  })
  const bundle = bundleSource('b', SCRIPT)

  it('runs a transformer over a batch in one entry, sharing the frozen context', async () => {
    const inputs = Array.from({ length: 1000 }, (_, i) => [{}, `value-${i}`])
    const outcomes = await sandbox.call({
      bundle,
      function: 'mask',
      type: 'transformer',
      shared: [{ user: 'ann' }],
      inputs,
    })
    expect(outcomes).toHaveLength(1000)
    expect(outcomes[0]).toEqual({ ok: true, value: 'ann:va*****' })
    expect(outcomes[999]).toEqual({ ok: true, value: 'ann:va*******' })
    const frozen = await sandbox.call({
      bundle,
      function: 'freezeCheck',
      type: 'transformer',
      shared: [{ user: 'ann' }],
      inputs: [[]],
    })
    // Bundle code is sloppy-mode script: writing to the frozen context is ignored.
    expect(frozen).toEqual([{ ok: true, value: 'ann' }])
  })

  it('reports per invocation what threw, mixing values and promises', async () => {
    const outcomes = await sandbox.call({
      bundle,
      function: 'mixed',
      type: 'validator',
      inputs: [['ok'], ['throw'], ['async'], ['reject'], ['no']],
    })
    expect(outcomes).toEqual<CallOutcome[]>([
      { ok: true, value: true },
      { ok: false, error: { kind: 'threw', name: 'TypeError' } },
      { ok: true, value: true },
      { ok: false, error: { kind: 'threw', name: 'RangeError' } },
      { ok: true, value: false },
    ])
    expect(logged.some((line) => line.includes('mixed threw TypeError: no throw'))).toBe(true)
  })

  it('refuses a function that is not exported, or not with that type', async () => {
    expect(
      await failureOf(sandbox.call({ bundle, function: 'nope', type: 'validator', inputs: [[]] })),
    ).toBe('not_found')
    expect(
      await failureOf(sandbox.call({ bundle, function: 'mask', type: 'validator', inputs: [[]] })),
    ).toBe('wrong_type')
  })

  it('does not hold a quick call behind a spinning one', async () => {
    const order: string[] = []
    // A long limit, so the quick call wins even if it has to start a worker first.
    const spin = { bundle, function: 'spin', inputs: [[1]], timeLimitMs: 2500 } as const
    const spinning = failureOf(sandbox.call({ ...spin, type: 'normalizer' })).then((kind) => {
      order.push('spin')
      return kind
    })
    const quick = sandbox
      .call({
        bundle,
        function: 'mask',
        type: 'transformer',
        shared: [{ user: 'u' }],
        inputs: [[{}, 'abc']],
      })
      .then((outcomes) => {
        order.push('quick')
        return outcomes
      })
    expect(await quick).toEqual([{ ok: true, value: 'u:ab*' }])
    expect(await spinning).toBe('timeout')
    expect(order).toEqual(['quick', 'spin'])
  })

  it('reuses a runtime between calls and replaces one that hit a limit', async () => {
    const count = () => single.call({ bundle, function: 'count', type: 'normalizer', inputs: [[]] })
    const first = (await count())[0]
    expect((await count())[0]).toEqual({ ok: true, value: (first as { value: number }).value + 1 })
    expect(
      await failureOf(single.call({ bundle, function: 'spin', type: 'normalizer', inputs: [[]] })),
    ).toBe('timeout')
    expect((await count())[0]).toEqual({ ok: true, value: 1 })
  })

  it('loads new code of the same bundle in a new runtime', async () => {
    const next = bundleSource(
      'b',
      `${SCRIPT}\nexports.count = { type: 'normalizer', handler: () => 'new' }`,
    )
    expect(
      (await single.call({ bundle: next, function: 'count', type: 'normalizer', inputs: [[]] }))[0],
    ).toEqual({ ok: true, value: 'new' })
  })

  it('stops a call when its request is aborted', async () => {
    const controller = new AbortController()
    const call = failureOf(
      single.call({
        bundle,
        function: 'spin',
        type: 'normalizer',
        inputs: [[]],
        signal: controller.signal,
        timeLimitMs: 60_000,
      }),
    )
    // Aborted while the guest spins: the shared flag stops it long before its limit.
    setTimeout(() => controller.abort(), 100)
    expect(await call).toBe('timeout')
  })

  it('gives console.log lines to the service log', async () => {
    await sandbox.call({ bundle, function: 'log', type: 'action', inputs: [[{ body: { n: 1 } }]] })
    expect(logged).toContain('b: seen {"n":1}')
  })

  it('describes exports without keeping a call open, and refuses calls once closed', async () => {
    const described = await sandbox.inspect(bundle)
    expect(described.map((e) => e.name)).toEqual([
      'mask',
      'freezeCheck',
      'count',
      'mixed',
      'spin',
      'log',
    ])
    const closed = sandboxWith(1)
    await closed.close()
    expect(await failureOf(closed.inspect(bundle))).toBe('interrupted')
  })

  it('stops idle workers, the last one too, and starts one again for the next call', async () => {
    const idling = sandboxWith(2, { idleWorkerMs: 20, lastWorkerIdleMs: 100 })
    const count = () => idling.call({ bundle, function: 'count', type: 'normalizer', inputs: [[]] })
    // Two calls at once: the second finds the first worker busy and starts another.
    const calls = Promise.all([count(), count()])
    expect(idling.workerCount()).toBe(2)
    await calls
    const until = async (workers: number) => {
      while (idling.workerCount() > workers) await new Promise((r) => setTimeout(r, 10))
    }
    await until(0)
    // A new worker, with a fresh runtime: the counter starts again.
    expect((await count())[0]).toEqual({ ok: true, value: 1 })
    expect(idling.workerCount()).toBe(1)
    await idling.close()
  })
})
