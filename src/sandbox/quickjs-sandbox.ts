// src/sandbox/quickjs-sandbox.ts: the Sandbox port on QuickJS (WebAssembly) in a pool of worker threads
import { createDestinationCheck } from '../core/actions/destinations.ts'
import { isOutboundFailure, type Outbound } from '../core/actions/outbound.ts'
import {
  type BundleSource,
  type CallOutcome,
  type RawExport,
  type Sandbox,
  type SandboxCall,
  SandboxFailure,
} from '../core/bundles/sandbox.ts'
import { createPool, type Job } from './pool.ts'
import type { HostOp } from './protocol.ts'

/** What a bundle's `fetch` sends (data-model §9.4); the harness builds it, the code fills it. */
type GuestFetchRequest = Readonly<{
  url: string
  method: string
  headers: Readonly<Record<string, string>>
  body?: string
}>

export type QuickJsSandboxOptions = Readonly<{
  memoryLimitBytes: number
  /** Validators, normalizers, transformers and fptemplates (spec proposal: 1 s). */
  timeLimitMs: number
  /** Actions (spec proposal: the call timeout). */
  actionTimeLimitMs: number
  maxWorkers: number
  /** Tests: idle times after which a worker beyond the first, and the last one, stop. */
  idleWorkerMs?: number
  lastWorkerIdleMs?: number
  /** Cap on the JSON of one entry's results, and on one host answer. */
  maxResultBytes: number
  /** Sends a bundle's `fetch` requests. */
  outbound: Outbound
  /** Where `fetch` may go: SVC_SERVICE_ALLOWED_PCI_HTTP_DESTINATIONS (data-model §9.4). */
  fetchDestinations: readonly string[]
  /** `console.log` of bundle code, and what its functions threw (the service log, debug level). */
  log(entry: Readonly<{ bundle: string; text: string }>): void
}>

/** JSON from the guest: `__proto__` keys are dropped so no merge can ever reach a prototype. */
function parseGuestJson(text: string): unknown {
  return JSON.parse(text, (key, value) => (key === '__proto__' ? undefined : value))
}

type WireItem = [1, unknown] | [0, 'threw' | 'not_json', string, string]

function toOutcome(item: WireItem): CallOutcome {
  if (item[0] === 1) return { ok: true, value: item[1] }
  return { ok: false, error: { kind: item[1], name: item[2] } }
}

function guestFetch(options: QuickJsSandboxOptions) {
  const allow = createDestinationCheck(options.fetchDestinations)
  return async (request: GuestFetchRequest, signal: AbortSignal): Promise<string> => {
    if (!URL.canParse(request.url)) throw new Error('fetch needs an absolute URL.')
    try {
      const response = await options.outbound.send({
        url: new URL(request.url),
        method: request.method.toUpperCase(),
        headers: request.headers,
        body: request.body,
        allow,
        signal,
        maxResponseBytes: options.maxResultBytes,
      })
      return JSON.stringify(response)
    } catch (error) {
      // The outbound messages name no URL or value; anything else stays a generic failure.
      throw new Error(isOutboundFailure(error) ? error.message : 'The request failed.')
    }
  }
}

export function createQuickJsSandbox(
  options: QuickJsSandboxOptions,
): Sandbox & { workerCount(): number } {
  const pool = createPool({
    settings: {
      memoryLimitBytes: options.memoryLimitBytes,
      maxStackBytes: 256 * 1024,
      maxIdleRuntimes: 16,
      maxRuntimeCalls: 10_000,
    },
    maxWorkers: options.maxWorkers,
    graceMs: 2000,
    idleWorkerMs: options.idleWorkerMs ?? 60_000,
    // Long enough that steady use never waits for a new worker (~0.1 s to start one).
    lastWorkerIdleMs: options.lastWorkerIdleMs ?? 300_000,
  })
  const maxChars = options.maxResultBytes
  const fetch = guestFetch(options)

  function hostAnswers(call: SandboxCall | undefined, signal: AbortSignal) {
    return async (op: HostOp, payload: string): Promise<string> => {
      const request = parseGuestJson(payload)
      if (op === 'fetch') return fetch(request as GuestFetchRequest, signal)
      const vault = call?.type === 'action' ? call.vault : undefined
      if (vault === undefined) throw new Error('The vault API is available only to actions.')
      const answer = op === 'deref' ? await vault.deref(request) : await vault.decrypt(request)
      const text = JSON.stringify(answer ?? null)
      if (text.length > maxChars) throw new Error('The answer is larger than the sandbox allows.')
      return text
    }
  }

  function jobFor(
    message: Job['message'],
    call: SandboxCall | undefined,
    signal: AbortSignal,
  ): Job {
    return {
      message,
      onHost: hostAnswers(call, signal),
      onLog: (bundle, text) => options.log({ bundle, text }),
    }
  }

  async function run(message: Job['message'], call: SandboxCall | undefined, signal?: AbortSignal) {
    // Host requests (fetch) stop with the call: its own signal, or the pool's failure.
    const controller = new AbortController()
    const onAbort = () => controller.abort()
    signal?.addEventListener('abort', onAbort, { once: true })
    try {
      return await pool.run(jobFor(message, call, controller.signal), signal)
    } finally {
      signal?.removeEventListener('abort', onAbort)
      controller.abort()
    }
  }

  return {
    async inspect(bundle: BundleSource): Promise<readonly RawExport[]> {
      const text = await run(
        { type: 'inspect', bundle, timeLimitMs: options.timeLimitMs },
        undefined,
      )
      return parseGuestJson(text) as RawExport[]
    },

    async call(call: SandboxCall): Promise<readonly CallOutcome[]> {
      if (call.signal?.aborted) throw new SandboxFailure('timeout')
      const limit = call.type === 'action' ? options.actionTimeLimitMs : options.timeLimitMs
      const text = await run(
        {
          type: 'call',
          bundle: call.bundle,
          function: call.function,
          functionType: call.type,
          shared: JSON.stringify(call.shared ?? []),
          inputs: JSON.stringify(call.inputs),
          timeLimitMs: call.timeLimitMs ?? limit,
          maxResultChars: maxChars,
        },
        call,
        call.signal,
      )
      const items = parseGuestJson(text) as WireItem[]
      // What the code threw may hold values: it goes to the service log (debug), never to the
      // client, and only the first few of a batch.
      const thrown = items.filter((item) => item[0] === 0 && item[1] === 'threw').slice(0, 10)
      for (const item of thrown) {
        options.log({
          bundle: call.bundle.name,
          text: `${call.function} threw ${item[2]}: ${item[3]}`,
        })
      }
      return items.map(toOutcome)
    },

    warm: () => pool.warm(),
    workerCount: () => pool.workerCount(),
    close: () => pool.close(),
  }
}
