// src/sandbox/worker.ts: a sandbox worker thread: keeps loaded bundle runtimes, runs calls, bridges host requests
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { parentPort, workerData } from 'node:worker_threads'
import type { QuickJSDeferredPromise, QuickJSHandle } from 'quickjs-emscripten-core'
import type { FromWorker, HostOp, ToWorker, WireFailure, WorkerData } from './protocol.ts'
import { type BundleRuntime, bundleKey, CallFailure, guestFailure, loadRuntime } from './runtime.ts'
import { wasm } from './wasm.ts'

type CallMessage = Extract<ToWorker, { type: 'call' }>
type InspectMessage = Extract<ToWorker, { type: 'inspect' }>

/** A call in progress: its runtime, the host requests it awaits, and how to wake it. */
type Active = {
  readonly id: number
  readonly runtime: BundleRuntime
  readonly pending: Map<number, QuickJSDeferredPromise>
  wake: (() => void) | undefined
  logLines: number
}

/** Guest code cannot flood the service log or the network: per call, so many lines and requests. */
const MAX_LOG_LINES = 100
const MAX_HOST_REQUESTS_IN_FLIGHT = 32

const port = parentPort
if (port === null) throw new Error('worker.ts runs only as a worker thread')
const settings = workerData as WorkerData
const require = createRequire(import.meta.url)
// Compiled once per worker; each runtime instantiates it with a memory of its own (~1 ms).
const compiled = new wasm.Module(
  readFileSync(require.resolve('@jitl/quickjs-wasmfile-release-sync/wasm')),
)
const idle = new Map<string, BundleRuntime[]>()
let idleCount = 0
const active = new Map<number, Active>()
let hostSeq = 0

const send = (message: FromWorker) => port.postMessage(message)
const fail = (kind: WireFailure['kind'], detail = '') => new CallFailure({ kind, detail })

/** Keeps a healthy runtime for the next call of its bundle, least recently used out first. */
function checkin(runtime: BundleRuntime): void {
  runtime.hooks = undefined
  const grown = runtime.memory.buffer.byteLength > settings.memoryLimitBytes + 32 * 1_048_576
  if (runtime.calls >= settings.maxRuntimeCalls || grown || runtime.runtime.hasPendingJob()) return
  const list = idle.get(runtime.key) ?? []
  idle.delete(runtime.key)
  idle.set(runtime.key, [...list, runtime])
  idleCount += 1
  for (const [key, runtimes] of idle) {
    if (idleCount <= settings.maxIdleRuntimes) break
    runtimes.shift()
    idleCount -= 1
    if (runtimes.length === 0) idle.delete(key)
  }
}

async function checkout(message: CallMessage | InspectMessage): Promise<BundleRuntime> {
  const key = bundleKey(message.bundle)
  const list = idle.get(key)
  const reused = list?.pop()
  if (reused !== undefined) {
    idleCount -= 1
    if (list?.length === 0) idle.delete(key)
    return reused
  }
  send({ type: 'running', id: message.id, timeLimitMs: message.timeLimitMs })
  try {
    const call = {
      id: message.id,
      timeLimitMs: message.timeLimitMs,
      cancelFlag: settings.cancelFlag,
    }
    return await loadRuntime(compiled, message.bundle, settings, call)
  } finally {
    send({ type: 'idle', id: message.id })
  }
}

function hooksFor(call: Active, bundle: string): BundleRuntime['hooks'] {
  return {
    log: (text) => {
      call.logLines += 1
      if (call.logLines > MAX_LOG_LINES) return
      const line =
        call.logLines === MAX_LOG_LINES ? `${text} [further lines of this call dropped]` : text
      send({ type: 'log', id: call.id, bundle, text: line })
    },
    request: (op: HostOp, payload, deferred) => {
      if (call.pending.size >= MAX_HOST_REQUESTS_IN_FLIGHT) {
        call.runtime.context
          .newError(`At most ${MAX_HOST_REQUESTS_IN_FLIGHT} host requests may be in flight.`)
          .consume((error) => deferred.reject(error))
        return
      }
      hostSeq += 1
      call.pending.set(hostSeq, deferred)
      send({ type: 'host', id: call.id, hostId: hostSeq, op, payload })
    },
  }
}

/** The harness answers JSON text; anything else means the runtime broke. */
function takeResult(runtime: BundleRuntime, handle: QuickJSHandle): string {
  if (runtime.context.typeof(handle) !== 'string') throw fail('misbehaved')
  return runtime.context.getString(handle)
}

/** Runs the jobs host answers released; the result once the call's promise settled. */
function step(call: Active, promise: QuickJSHandle): string | undefined {
  const { runtime } = call
  const ran = runtime.runtime.executePendingJobs()
  if (ran.error) throw guestFailure(runtime, ran.error)
  const state = runtime.context.getPromiseState(promise)
  if (state.type === 'fulfilled') return state.value.consume((value) => takeResult(runtime, value))
  if (state.type === 'rejected') throw guestFailure(runtime, state.error)
  // No timers exist inside: with no host request outstanding and no job left, nothing can ever
  // settle the promise, so the call fails now rather than at its time limit.
  if (call.pending.size === 0 && !runtime.runtime.hasPendingJob()) throw fail('unsettled')
  return undefined
}

function sleepUntilWoken(call: Active, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms)
    call.wake = () => {
      clearTimeout(timer)
      resolve()
    }
  })
}

function isStopped(runtime: BundleRuntime): boolean {
  return (
    runtime.isCancelled ||
    Date.now() >= runtime.deadline ||
    Atomics.load(settings.cancelFlag, 0) === runtime.callId
  )
}

/** Drives a call whose handlers returned promises until it settles, answering host requests. */
async function settle(call: Active, promise: QuickJSHandle): Promise<string> {
  const { runtime } = call
  for (;;) {
    send({ type: 'running', id: call.id, timeLimitMs: runtime.deadline - Date.now() })
    const settled = step(call, promise)
    send({ type: 'idle', id: call.id })
    if (settled !== undefined) return settled
    const remaining = runtime.deadline - Date.now()
    if (remaining > 0 && !isStopped(runtime)) await sleepUntilWoken(call, remaining)
    call.wake = undefined
    if (isStopped(runtime)) throw fail('timeout')
  }
}

/** Runs one entry; true in `isClean` when nothing of it is left in the runtime (reusable). */
async function runCall(message: CallMessage, runtime: BundleRuntime) {
  const call: Active = { id: message.id, runtime, pending: new Map(), wake: undefined, logLines: 0 }
  active.set(message.id, call)
  runtime.hooks = hooksFor(call, message.bundle.name)
  runtime.callId = message.id
  runtime.deadline = Date.now() + message.timeLimitMs
  runtime.calls += 1
  const { context } = runtime
  try {
    const args = [
      context.newString(message.function),
      context.newString(message.functionType),
      context.newString(message.shared),
      context.newString(message.inputs),
      context.newNumber(message.maxResultChars),
    ]
    send({ type: 'running', id: message.id, timeLimitMs: message.timeLimitMs })
    const result = context.callFunction(runtime.callFn, runtime.harness, ...args)
    send({ type: 'idle', id: message.id })
    if (result.error) throw guestFailure(runtime, result.error)
    for (const arg of args) arg.dispose()
    const isPromise = context.typeof(result.value) !== 'string'
    const text = isPromise ? await settle(call, result.value) : takeResult(runtime, result.value)
    result.value.dispose()
    return { text, isClean: call.pending.size === 0 }
  } finally {
    active.delete(message.id)
  }
}

function failureOf(error: unknown): WireFailure {
  // Anything but a CallFailure (V8's own stack overflow inside the interpreter, a trap) leaves
  // the instance in an unknown state; it is dropped with its memory like any failed one.
  return error instanceof CallFailure ? error.failure : { kind: 'misbehaved', detail: '' }
}

async function handleCall(message: CallMessage): Promise<void> {
  try {
    const runtime = await checkout(message)
    const { text, isClean } = await runCall(message, runtime)
    if (text.startsWith('{')) {
      const failure = JSON.parse(text) as { fail: WireFailure['kind']; detail?: string }
      send({
        type: 'failed',
        id: message.id,
        failure: { kind: failure.fail, detail: failure.detail ?? '' },
      })
    } else {
      send({ type: 'done', id: message.id, result: text })
    }
    if (isClean) checkin(runtime)
  } catch (error) {
    send({ type: 'failed', id: message.id, failure: failureOf(error) })
  }
}

async function handleInspect(message: InspectMessage): Promise<void> {
  try {
    const runtime = await checkout(message)
    send({ type: 'done', id: message.id, result: runtime.exportsJson })
    checkin(runtime)
  } catch (error) {
    send({ type: 'failed', id: message.id, failure: failureOf(error) })
  }
}

function handleHostResult(message: Extract<ToWorker, { type: 'host_result' }>): void {
  const call = active.get(message.id)
  const deferred = call?.pending.get(message.hostId)
  if (call === undefined || deferred === undefined) return
  call.pending.delete(message.hostId)
  const { context } = call.runtime
  if (message.ok) context.newString(message.value).consume((value) => deferred.resolve(value))
  else context.newError(message.value).consume((error) => deferred.reject(error))
  deferred.dispose()
  call.wake?.()
}

port.on('message', (message: ToWorker) => {
  switch (message.type) {
    case 'call':
      void handleCall(message)
      return
    case 'inspect':
      void handleInspect(message)
      return
    case 'host_result':
      handleHostResult(message)
      return
    case 'cancel': {
      const call = active.get(message.id)
      if (call === undefined) return
      call.runtime.isCancelled = true
      call.wake?.()
    }
  }
})

send({ type: 'ready' })
