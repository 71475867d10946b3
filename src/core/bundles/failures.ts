// src/core/bundles/failures.ts: what a sandbox failure means for the caller (status, code, message)
import { VaultError } from '../errors.ts'
import type { FunctionError, SandboxFailure } from './sandbox.ts'

/**
 * The error of a failed sandbox entry running `<bundle>.<function>`. A time limit is 503
 * ERR1009 (like a call timeout); anything else the code did is 400 ERR9008 naming the function:
 * customer code never causes a 500. `interrupted` (a neighbour broke its worker) may be retried.
 */
export function callError(failure: SandboxFailure, bundle: string, fn: string): VaultError {
  const context = { bundle, function: fn }
  const what = `The function ${bundle}.${fn}`
  if (failure.kind === 'timeout') {
    return new VaultError('timeout', {
      message: `${what} did not finish within its time limit.`,
      context,
    })
  }
  if (failure.kind === 'interrupted') {
    return new VaultError('timeout', {
      message: `${what} was interrupted; retry the call.`,
      context,
    })
  }
  const why: Record<string, string> = {
    memory: 'exceeded its memory limit',
    too_large: 'returned more data than the sandbox allows',
    unsettled: 'returned a promise that never settles',
    load: 'could not be loaded',
    not_found: 'is not exported by the bundle',
    wrong_type: 'is not exported with the expected type',
    misbehaved: 'broke its sandbox runtime',
  }
  return new VaultError('functionFailed', {
    message: `${what} failed: it ${why[failure.kind] ?? 'failed'}.`,
    context,
  })
}

/** The error of one failed invocation of a batch (it threw, or returned something not JSON). */
export function invocationError(error: FunctionError, bundle: string, fn: string): VaultError {
  const why =
    error.kind === 'threw'
      ? `threw ${error.name}`
      : `returned a value that is not JSON (${error.name})`
  return new VaultError('functionFailed', {
    message: `The function ${bundle}.${fn} failed: it ${why}.`,
    context: { bundle, function: fn },
  })
}

/** The error of bundle code that did not load when it was added or updated (400 ERR1012). */
export function loadError(failure: SandboxFailure, bundle: string): VaultError {
  if (failure.kind === 'interrupted') {
    return new VaultError('timeout', {
      message: `Loading bundle ${bundle} was interrupted; retry the call.`,
      context: { bundle },
    })
  }
  const why: Record<string, string> = {
    load: failure.detail || 'it failed',
    timeout: 'it did not finish within the time limit',
    memory: 'it exceeded the memory limit',
  }
  return new VaultError('invalidRequest', {
    message: `The code of bundle ${bundle} does not load: ${why[failure.kind] ?? 'it broke its sandbox runtime'}.`,
    context: { bundle, field: 'code' },
  })
}
