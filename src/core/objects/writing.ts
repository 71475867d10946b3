// src/core/objects/writing.ts: what every object write shares: import decoding, sealing, the one transaction
import type { AuditDetails, Audited } from '../audit/details.ts'
import type { StoredCollection } from '../collections/collection.ts'
import type { RequestContext } from '../context.ts'
import type { Envelope } from '../crypto/envelope.ts'
import { invalidRequest, notInMemoryMode, type VaultError } from '../errors.ts'
import type { Repos } from '../store.ts'
import type { ObjectInput } from '../values/body.ts'
import { applyCustomChecks } from '../values/custom.ts'
import { importValues } from '../values/export.ts'
import { type SealedMap, sealObjects } from '../values/sealing.ts'
import { BatchRejected, type BulkResult, bulkResult, type ItemErrors } from '../writes/bulk.ts'
import type { ObjectsDeps } from './deps.ts'
import { splitValues } from './records.ts'
import { KeyTaken } from './store.ts'

export type WriteOptions = Readonly<{
  /** `expiration_secs` as sent; undefined when absent. */
  expirationSecs: string | undefined
  isImport: boolean
  /** `export_key`: the bodies hold values exported with that key. */
  exportKey: string | undefined
}>

type Fields = Record<string, unknown>

/** Import bodies exported with `export_key` are opened first (crypto.md §6.3). */
export async function decodeBodies(
  deps: ObjectsDeps,
  bodies: readonly Fields[],
  options: WriteOptions,
): Promise<readonly Fields[]> {
  if (options.exportKey === undefined) return bodies
  if (!options.isImport)
    throw invalidRequest('The export_key parameter requires import=true.', 'export_key')
  if (deps.store.isMemory) throw notInMemoryMode('Importing values with an export key')
  return importValues(deps.exportKeys, options.exportKey, bodies)
}

/**
 * The custom data types' validators and normalizers over every item's values (one sandbox entry
 * per property); an item with a bad value fails with its error, the others get normalized values.
 */
export async function withCustomValues(
  ctx: RequestContext,
  deps: ObjectsDeps,
  collection: StoredCollection,
  inputs: readonly (ObjectInput | undefined)[],
  errors: ItemErrors,
): Promise<(ObjectInput | undefined)[]> {
  const checked = await applyCustomChecks(
    ctx,
    deps,
    collection,
    inputs.map((input, i) => (errors.has(i) ? undefined : input?.values)),
  )
  return inputs.map((input, i) => {
    const result = checked[i]
    if (input === undefined || result === undefined) return input
    if (!(result instanceof Error)) return { ...input, values: result }
    errors.set(i, result as VaultError)
    return undefined
  })
}

/** Seals the encrypted values of many objects in one batch; returns plain values and sealed maps. */
export function sealChanges(
  envelope: Envelope,
  collection: StoredCollection,
  items: readonly { id: string; values: Readonly<Fields> }[],
): { plain: Fields; sealed: SealedMap }[] {
  const split = items.map((item) => splitValues(collection, item.values))
  const sealed = sealObjects(
    envelope,
    items.map((item, i) => ({
      collection: collection.name,
      objectId: item.id,
      values: split[i]?.secret ?? {},
    })),
  )
  return split.map((s, i) => ({ plain: s.plain, sealed: sealed[i] ?? {} }))
}

/** A batch to commit: its items' ids, the errors found before writing, what the call touched. */
export type Batch = Readonly<{
  ids: readonly (string | undefined)[]
  errors: ItemErrors
  audit: AuditDetails
}>

/** What a batch's writes return: the items that failed, and the details its record names. */
export type Written = Readonly<{ failed: ItemErrors; audit: AuditDetails }>

/**
 * Runs a batch's writes and the audit record in one transaction. Item failures (found before, or
 * while writing) roll everything back and come back as the per-item results: nothing is written,
 * yet each item that would have failed says why (the writes of the others still run, then roll
 * back, so conflicts with stored objects are reported too).
 */
export async function commit(
  deps: ObjectsDeps,
  ctx: RequestContext,
  batch: Batch,
  work: (tx: Repos) => Promise<Written>,
): Promise<Audited<BulkResult>> {
  try {
    const written = await deps.audit.transaction(
      ctx,
      (result: Written) => result.audit,
      async (tx) => {
        const result = await work(tx)
        const errors = new Map([...batch.errors, ...result.failed])
        if (errors.size > 0) throw new BatchRejected(errors)
        return result
      },
    )
    return { value: bulkResult(batch.ids, new Map()), audit: written.audit }
  } catch (error) {
    if (!(error instanceof BatchRejected)) throw error
    // Nothing was written (the transaction rolled back before its record): the call, which
    // answers each item's error, is recorded on its own.
    await deps.audit.record(ctx, batch.audit, { status: 200 })
    return { value: bulkResult(batch.ids, error.errors), audit: batch.audit }
  }
}

/**
 * `commit` for new objects, written first with plain inserts (`isNew`): the engines' cheapest
 * statements, as every id and unique value is free in the usual case. A key already taken
 * (KeyTaken) rolls that attempt back, and the batch is written again with the checking inserts,
 * which tell the items that clash, release stale claims and report per item as always. Sealing
 * is done once, before either attempt.
 */
export async function commitNew(
  deps: ObjectsDeps,
  ctx: RequestContext,
  batch: Batch,
  work: (tx: Repos, isNew: boolean) => Promise<Written>,
): Promise<Audited<BulkResult>> {
  try {
    return await commit(deps, ctx, batch, (tx) => work(tx, true))
  } catch (error) {
    if (!(error instanceof KeyTaken)) throw error
    return commit(deps, ctx, batch, (tx) => work(tx, false))
  }
}
