// src/core/writes/bulk.ts: per-item outcomes of bulk writes (objects, token imports), and the all-or-nothing rule of bulk calls
import { invalidRequest, isVaultError, type VaultError } from '../errors.ts'

/** One item of a bulk answer; `id` may be missing when the item failed before it had one. */
export type ItemResult =
  | Readonly<{ ok: true; id: string }>
  | Readonly<{ ok: false; id: string | undefined; error: VaultError }>

/** `ok` is false when any item failed; then nothing was written (README "Bulk semantics"). */
export type BulkResult = Readonly<{ ok: boolean; results: readonly ItemResult[] }>

/** A per-item failure recorded while a batch is prepared or written. */
export type ItemErrors = Map<number, VaultError>

/**
 * Thrown inside a write transaction when some items conflict (taken id, unique value, lost
 * race): the transaction rolls back, and the caller answers with the per-item results.
 */
export class BatchRejected extends Error {
  readonly errors: ItemErrors
  constructor(errors: ItemErrors) {
    super('the batch was rejected')
    this.errors = errors
  }
}

/**
 * Runs `work` for one item; a VaultError becomes that item's failure. A 403 (policy or tenant
 * violation) fails the whole request instead, as does anything that is not a VaultError.
 */
export function attempt<T>(errors: ItemErrors, index: number, work: () => T): T | undefined {
  try {
    return work()
  } catch (error) {
    if (!isVaultError(error) || error.status === 403) throw error
    errors.set(index, error)
    return undefined
  }
}

export function bulkResult(ids: readonly (string | undefined)[], errors: ItemErrors): BulkResult {
  const results: ItemResult[] = ids.map((id, index) => {
    const error = errors.get(index)
    if (error !== undefined) return { ok: false, id, error }
    return { ok: true, id: id ?? '' }
  })
  return { ok: errors.size === 0, results }
}

/** A single-object call answers its item's error as the whole response. */
export function throwFirstError(result: BulkResult): void {
  for (const item of result.results) if (!item.ok) throw item.error
}

/** At most SVC_SERVICE_MAX_PAGE_SIZE items per bulk call (400 ERR1012 otherwise). */
export function checkBatchSize(count: number, max: number): void {
  if (count > max)
    throw invalidRequest(`A bulk request may hold at most ${max} items; it held ${count}.`, 'body')
}
