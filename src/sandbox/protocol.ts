// src/sandbox/protocol.ts: the messages between the sandbox pool (main thread) and its worker threads
import type { BundleSource, FunctionType, SandboxFailureKind } from '../core/bundles/sandbox.ts'

export type WorkerSettings = Readonly<{
  memoryLimitBytes: number
  /** QuickJS's own stack limit: deep recursion is a catchable error well before V8's stack ends. */
  maxStackBytes: number
  /** Idle loaded runtimes a worker keeps for reuse. */
  maxIdleRuntimes: number
  /** Sandbox entries a runtime serves before it is replaced (bounded reuse). */
  maxRuntimeCalls: number
}>

/** What a worker starts with: the settings and the flag the pool writes a call's id to, to stop it. */
export type WorkerData = WorkerSettings & Readonly<{ cancelFlag: Int32Array }>

/** Main → worker. `inspect` loads a bundle and describes its exports; `call` runs a function. */
export type ToWorker =
  | Readonly<{ type: 'inspect'; id: number; bundle: BundleSource; timeLimitMs: number }>
  | Readonly<{
      type: 'call'
      id: number
      bundle: BundleSource
      function: string
      functionType: FunctionType
      /** JSON texts, parsed inside the sandbox. */
      shared: string
      inputs: string
      timeLimitMs: number
      maxResultChars: number
    }>
  | Readonly<{ type: 'host_result'; id: number; hostId: number; ok: boolean; value: string }>
  | Readonly<{ type: 'cancel'; id: number }>

export type HostOp = 'fetch' | 'deref' | 'decrypt'

/** A failed entry; `detail` is about the code (syntax error, line), `message` may hold values. */
export type WireFailure = Readonly<{ kind: SandboxFailureKind; detail: string }>

/**
 * Worker → main. `running` and `idle` bracket every stretch of guest code, for the watchdog;
 * `done` carries the results as one JSON text (`[[1,value],[0,"threw",name,message],…]`).
 */
export type FromWorker =
  | Readonly<{ type: 'ready' }>
  | Readonly<{ type: 'running'; id: number; timeLimitMs: number }>
  | Readonly<{ type: 'idle'; id: number }>
  | Readonly<{ type: 'done'; id: number; result: string }>
  | Readonly<{ type: 'failed'; id: number; failure: WireFailure }>
  | Readonly<{ type: 'host'; id: number; hostId: number; op: HostOp; payload: string }>
  | Readonly<{ type: 'log'; id: number; bundle: string; text: string }>
