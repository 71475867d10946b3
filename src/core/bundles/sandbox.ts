// src/core/bundles/sandbox.ts: the Sandbox port: runs bundle code in isolation (implemented in src/sandbox)

/** The function types a bundle may export (data-model §9.2; `fptemplate` from tokens.md §5). */
export const FUNCTION_TYPES = [
  'validator',
  'normalizer',
  'transformer',
  'action',
  'fptemplate',
] as const
export type FunctionType = (typeof FUNCTION_TYPES)[number]

/** A bundle as the sandbox runs it: `source` is the decoded script, `digest` tells versions apart. */
export type BundleSource = Readonly<{ name: string; source: string; digest: string }>

/**
 * One own property of a loaded bundle's `exports`, described as JSON by the sandbox; core judges
 * it (exports.ts). `type`, `description` and `dependencies` are whatever the code put there.
 */
export type RawExport = Readonly<{
  name: string
  isObject: boolean
  hasHandler: boolean
  type?: unknown
  description?: unknown
  dependencies?: unknown
}>

/**
 * The `vault` object of an action's context (data-model §9.3). Arguments come from customer code
 * as JSON and must be checked; answers go back as JSON. A rejection reaches the code as an Error.
 */
export type VaultHost = Readonly<{
  deref(request: unknown): Promise<unknown>
  decrypt(request: unknown): Promise<unknown>
}>

/**
 * Calls one function of a bundle once per entry of `inputs`, in order, in one sandbox entry: a
 * transformer over a 1,000-object page or a validator over a bulk add costs one crossing.
 */
export type SandboxCall = Readonly<{
  bundle: BundleSource
  function: string
  type: FunctionType
  /** Leading arguments shared by every entry (a transformer's `context`); frozen inside. */
  shared?: readonly unknown[]
  /** The remaining arguments, one list per invocation. */
  inputs: readonly (readonly unknown[])[]
  /** Overrides the time limit of the function type (the whole batch shares it). */
  timeLimitMs?: number
  /** Aborted when the request's time is up: the call stops and fails with `timeout`. */
  signal?: AbortSignal
  /** Actions only: what `context.vault` does. */
  vault?: VaultHost
}>

/** Why one invocation of a batch failed: it threw, or returned something that is not JSON. */
export type FunctionError = Readonly<{
  kind: 'threw' | 'not_json'
  /** The thrown value's `name` (`TypeError`…); its message may carry values and stays inside. */
  name: string
}>

export type CallOutcome =
  | Readonly<{ ok: true; value: unknown }>
  | Readonly<{ ok: false; error: FunctionError }>

/**
 * Why a whole sandbox entry failed. `load`: the code did not load (syntax error, threw);
 * `timeout`/`memory`: a limit was hit; `too_large`: the results exceed the size cap;
 * `unsettled`: it returned a promise nothing can settle any more (there are no timers inside);
 * `not_found`/`wrong_type`: no such function of that type; `misbehaved`: the runtime broke in a
 * way QuickJS does not report (it was thrown away); `interrupted`: the call was stopped because a
 * runtime next to it misbehaved (safe to retry).
 */
export type SandboxFailureKind =
  | 'load'
  | 'timeout'
  | 'memory'
  | 'too_large'
  | 'unsettled'
  | 'not_found'
  | 'wrong_type'
  | 'misbehaved'
  | 'interrupted'

/** Thrown by the Sandbox; `detail` is about the code (a syntax error, a line), never values. */
export class SandboxFailure extends Error {
  override readonly name = 'SandboxFailure'
  readonly kind: SandboxFailureKind
  readonly detail: string

  constructor(kind: SandboxFailureKind, detail = '') {
    super(`sandbox ${kind}${detail ? `: ${detail}` : ''}`)
    this.kind = kind
    this.detail = detail
  }
}

export function isSandboxFailure(error: unknown): error is SandboxFailure {
  return error instanceof SandboxFailure
}

export type Sandbox = Readonly<{
  /** Loads the code in a fresh runtime and describes its `exports`; fails with SandboxFailure. */
  inspect(bundle: BundleSource): Promise<readonly RawExport[]>
  /** One outcome per input, in order; a failure of the whole entry throws SandboxFailure. */
  call(call: SandboxCall): Promise<readonly CallOutcome[]>
  /** Starts what the first call would start, ahead of time (after the node is serving). */
  warm(): void
  close(): Promise<void>
}>
