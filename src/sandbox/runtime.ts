// src/sandbox/runtime.ts: one bundle loaded in its own QuickJS runtime and WebAssembly instance (worker side)
import variantImport from '@jitl/quickjs-wasmfile-release-sync'
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSContext,
  type QuickJSDeferredPromise,
  type QuickJSHandle,
  type QuickJSRuntime,
  type QuickJSSyncVariant,
} from 'quickjs-emscripten-core'
import type { BundleSource } from '../core/bundles/sandbox.ts'
import { HARNESS_SOURCE } from './harness.ts'
import type { HostOp, WireFailure } from './protocol.ts'
import { type WasmMemory, type WasmModule, wasm } from './wasm.ts'

// The package's CommonJS typings describe `{ default: variant }`; Node's ES module import gives
// the variant itself.
const variant = (
  'default' in variantImport ? variantImport.default : variantImport
) as QuickJSSyncVariant

const PAGE_BYTES = 65_536
const INITIAL_PAGES = 256
const MAX_PAGES = 65_536

/** What the runtime's host functions report to the worker while a call runs. */
export type RuntimeHooks = Readonly<{
  log(text: string): void
  /** A guest asked the host for something; answer through the deferred (or reject it). */
  request(op: HostOp, payload: string, deferred: QuickJSDeferredPromise): void
}>

/** The state the interrupt handler and the host functions read; the worker sets it per call. */
type CallState = {
  /** The call running in this runtime; the pool cancels it by writing its id to the cancel flag. */
  callId: number
  deadline: number
  /** A cancel (the request timed out): the interrupt handler stops the guest. */
  isCancelled: boolean
  hooks: RuntimeHooks | undefined
  calls: number
}

/**
 * A loaded bundle. Each has its own WebAssembly instance, so dropping it (after a limit was hit,
 * or a fault) returns all of its memory: WebAssembly memory grows but never shrinks, and QuickJS's
 * heap fragments, so a shared instance would keep the high-water mark of the worst call.
 */
export type BundleRuntime = CallState &
  Readonly<{
    key: string
    memory: WasmMemory
    runtime: QuickJSRuntime
    context: QuickJSContext
    harness: QuickJSHandle
    callFn: QuickJSHandle
    /** The describe() answer: the exports as JSON. */
    exportsJson: string
  }>

/** A failed entry; the runtime it ran in is dropped. */
export class CallFailure extends Error {
  readonly failure: WireFailure
  constructor(failure: WireFailure) {
    super(failure.kind)
    this.failure = failure
  }
}

export function bundleKey(bundle: BundleSource): string {
  return `${bundle.name}\u0000${bundle.digest}`
}

const isString = (value: unknown): value is string => typeof value === 'string'

type Dumped = { name?: unknown; message?: unknown; stack?: unknown } | null | undefined

/**
 * What an error QuickJS reported means: `interrupted` is the time limit (or a cancel), `out of
 * memory` the memory limit; anything else at this level means the runtime misbehaved (the
 * harness catches what handlers throw). When the limit left no room to build an error object,
 * nothing readable comes back: that is the memory ceiling unless the call was cancelled.
 */
function kindOf(dumped: Dumped, isCancelled: boolean): WireFailure['kind'] {
  if (dumped === null || typeof dumped !== 'object') return isCancelled ? 'timeout' : 'memory'
  if (dumped.name === 'InternalError' && dumped.message === 'interrupted') return 'timeout'
  if (dumped.name === 'InternalError' && dumped.message === 'out of memory') return 'memory'
  return 'misbehaved'
}

export function guestFailure(
  runtime: CallState & { context: QuickJSContext },
  error: QuickJSHandle,
) {
  const dumped = runtime.context.dump(error) as Dumped
  return new CallFailure({ kind: kindOf(dumped, runtime.isCancelled), detail: '' })
}

function describeLoadError(dumped: Dumped): string {
  const name = isString(dumped?.name) ? dumped.name.slice(0, 64) : 'Error'
  const line = isString(dumped?.stack) ? /bundle\.js:(\d+)/.exec(dumped.stack)?.[1] : undefined
  const where = line ? ` at line ${line}` : ''
  // A syntax error's message describes the code; a thrown error's may carry anything, so only
  // its name is reported.
  if (name === 'SyntaxError' && isString(dumped?.message))
    return `${dumped.message.slice(0, 200)}${where}`
  return `it threw ${name}${where} while loading`
}

function installHostFunctions(state: CallState, context: QuickJSContext) {
  const log = context.newFunction('log', (text) => {
    state.hooks?.log(context.getString(text))
  })
  const request = context.newFunction('request', (op, payload) => {
    const hooks = state.hooks
    if (hooks === undefined) throw new Error('The host is reachable only while a function runs.')
    const deferred = context.newPromise()
    hooks.request(context.getString(op) as HostOp, context.getString(payload), deferred)
    return deferred.handle
  })
  return [log, request] as const
}

function unwrap(
  state: CallState & { context: QuickJSContext },
  result: ReturnType<QuickJSContext['evalCode']>,
): QuickJSHandle {
  if (result.error) throw guestFailure(state, result.error)
  return result.value
}

export type RuntimeLimits = Readonly<{ memoryLimitBytes: number; maxStackBytes: number }>

async function newRuntime(compiled: WasmModule, limits: RuntimeLimits) {
  // A hard ceiling above QuickJS's own accounting, which counts live allocations and not the
  // fragmentation between them.
  const maximumBytes = Math.ceil(limits.memoryLimitBytes * 2.5) + INITIAL_PAGES * PAGE_BYTES
  const memory = new wasm.Memory({
    initial: INITIAL_PAGES,
    maximum: Math.min(MAX_PAGES, Math.ceil(maximumBytes / PAGE_BYTES)),
  })
  const module = await newQuickJSWASMModuleFromVariant(
    newVariant(variant, { wasmModule: compiled, wasmMemory: memory }),
  )
  const runtime = module.newRuntime({
    memoryLimitBytes: limits.memoryLimitBytes,
    maxStackSizeBytes: limits.maxStackBytes,
  })
  return { memory, runtime }
}

/** A fresh runtime with the harness and then the bundle loaded, its exports described. */
export async function loadRuntime(
  compiled: WasmModule,
  bundle: BundleSource,
  limits: RuntimeLimits,
  call: Readonly<{ id: number; timeLimitMs: number; cancelFlag: Int32Array }>,
): Promise<BundleRuntime> {
  const { memory, runtime } = await newRuntime(compiled, limits)
  const context = runtime.newContext()
  const state = {
    callId: call.id,
    deadline: Date.now() + call.timeLimitMs,
    isCancelled: false,
    hooks: undefined,
    calls: 0,
    context,
  }
  // QuickJS asks every few thousand instructions; the shared flag reaches a guest that is
  // running (the worker cannot read messages then), the deadline needs nobody.
  runtime.setInterruptHandler(
    () =>
      state.isCancelled ||
      Date.now() > state.deadline ||
      Atomics.load(call.cancelFlag, 0) === state.callId,
  )
  const host = installHostFunctions(state, context)
  const factory = unwrap(state, context.evalCode(HARNESS_SOURCE, 'harness.js'))
  const harness = unwrap(state, context.callFunction(factory, context.undefined, ...host))
  const loaded = context.evalCode(bundle.source, 'bundle.js', { type: 'global' })
  if (loaded.error) {
    const dumped = context.dump(loaded.error) as Dumped
    const kind = kindOf(dumped, state.isCancelled)
    throw new CallFailure(
      kind === 'misbehaved'
        ? { kind: 'load', detail: describeLoadError(dumped) }
        : { kind, detail: '' },
    )
  }
  const describe = context.getProp(harness, 'describe')
  const exportsJson = unwrap(state, context.callFunction(describe, harness)).consume((value) =>
    context.getString(value),
  )
  if (exportsJson.startsWith('{')) {
    const { detail } = JSON.parse(exportsJson) as { detail?: string }
    throw new CallFailure({ kind: 'load', detail: detail ?? '' })
  }
  for (const handle of [factory, ...host, loaded.value, describe]) handle.dispose()
  return Object.assign(state, {
    key: bundleKey(bundle),
    memory,
    runtime,
    harness,
    callFn: context.getProp(harness, 'call'),
    exportsJson,
  })
}
