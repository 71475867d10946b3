// src/core/objects/create.ts: add objects (one or a batch): validate all, seal in one call, write in one transaction

import { randomUUID } from 'node:crypto'
import { propertyChecks } from '../access/checks.ts'
import {
  type AuditDetails,
  type Audited,
  NO_DETAILS,
  touchedDetails,
  withFailureDetails,
  withObjectIds,
} from '../audit/details.ts'
import type { StoredCollection } from '../collections/collection.ts'
import type { RequestContext } from '../context.ts'
import { ownValue } from '../own.ts'
import type { Repos } from '../store.ts'
import type { Micros } from '../time.ts'
import { type ObjectInput, readObjectBody } from '../values/body.ts'
import { attempt, type BulkResult, checkBatchSize, type ItemErrors } from '../writes/bulk.ts'
import { parseExpiration } from '../writes/expiration.ts'
import type { ObjectsDeps } from './deps.ts'
import { duplicateId, uniqueValueUsed } from './errors.ts'
import { isSubstringIndexed } from './indexing.ts'
import { defaultExpirySecs, earliest } from './lifecycle.ts'
import { loadOwners, type Ownership, ownerRefOf, resolveOwnership } from './ownership.ts'
import { isActive, serializeValues } from './records.ts'
import type { SealedWrite } from './seal-thread.ts'
import type { IndexEntry, ObjectRecord } from './store.ts'
import { claimUnique } from './uniqueness.ts'
import {
  type Batch,
  commitNew,
  decodeBodies,
  type WriteOptions,
  withCustomValues,
} from './writing.ts'

type Fields = Record<string, unknown>

/**
 * Work of another operation (tokenize `store_object`) in the transaction that adds the objects,
 * run once every item is stored: whatever it throws rolls the objects back too.
 */
export type AddWithin = Readonly<{
  /** What the calling operation touched so far: the call's one record names it too. */
  audit: AuditDetails
  /** Gets the new objects' ids and the details so far; returns them with what it wrote. */
  run: (tx: Repos, ids: readonly string[], audit: AuditDetails) => Promise<AuditDetails>
}>

type Draft = Readonly<{ index: number; id: string; input: ObjectInput; ownership: Ownership }>

type Prepared = Readonly<{
  index: number
  record: ObjectRecord
  entries: IndexEntry[]
  claims: IndexEntry[]
  isQueued: boolean
}>

/** Objects per write step of a large batch (see persistSteps); smaller batches are sealed inline. */
const WRITE_STEP = 250

const slot = (e: IndexEntry) => `${e.property}\u0000${Buffer.from(e.digest).toString('base64')}`

export function createAddition(deps: ObjectsDeps) {
  const collectionOf = (name: string) => deps.collections.getCached(name)

  function expiryOf(
    collection: StoredCollection,
    draft: Draft,
    options: WriteOptions,
    now: Micros,
  ) {
    const imported = options.isImport ? draft.input.builtins.expiresAt : undefined
    if (imported !== undefined)
      return earliest(imported ?? undefined, draft.ownership.ownerExpiresAt)
    const isOwned = draft.ownership.ownerId !== undefined
    const defaultSecs = defaultExpirySecs(deps.settings.expiration, collection, isOwned)
    const change = parseExpiration(options.expirationSecs, { defaultSecs, isUpdate: false }, now)
    const own = change.kind === 'at' ? change.at : undefined
    return earliest(own, draft.ownership.ownerExpiresAt)
  }

  /** Ids (given or new), owners and tenants of the items that passed validation. */
  async function draft(
    ctx: RequestContext,
    collection: StoredCollection,
    inputs: readonly (ObjectInput | undefined)[],
    errors: ItemErrors,
  ): Promise<Draft[]> {
    const seen = new Set<string>()
    const refs = inputs.map((input, i) =>
      input === undefined
        ? undefined
        : attempt(errors, i, () => ownerRefOf(collection, input.builtins)),
    )
    const owners = await loadOwners(
      deps.store,
      refs.flatMap((r) => (r ? [r] : [])),
      collectionOf,
      ctx.now,
    )
    return inputs.flatMap((input, index) => {
      if (input === undefined || errors.has(index)) return []
      const id = input.id ?? randomUUID()
      if (seen.has(id)) errors.set(index, duplicateId(id))
      seen.add(id)
      const ref = refs[index]
      const ownership = attempt(errors, index, () =>
        resolveOwnership(ctx, { ref, builtins: input.builtins }, owners),
      )
      return ownership === undefined || errors.has(index) ? [] : [{ index, id, input, ownership }]
    })
  }

  function recordOf(
    collection: StoredCollection,
    item: { draft: Draft; expiresAt: Micros | undefined; now: Micros },
    values: { plain: Fields; sealed: Record<string, string>; digests: Record<string, string> },
  ): ObjectRecord {
    const { draft, now } = item
    const createdAt = draft.input.builtins.createdAt ?? now
    return {
      collection: collection.name,
      id: draft.id,
      tenantId: draft.ownership.tenantId,
      ownerId: draft.ownership.ownerId,
      ownerCollection: draft.ownership.ownerCollection,
      createdAt,
      modifiedAt: draft.input.builtins.modifiedAt ?? createdAt,
      expiresAt: item.expiresAt,
      version: 1,
      ...serializeValues({ fields: values.plain, sealed: values.sealed, digests: values.digests }),
    }
  }

  /** Rows, index entries, claims and queue flags of sealed drafts. */
  function prepare(
    ctx: RequestContext,
    collection: StoredCollection,
    drafts: readonly Draft[],
    written: readonly SealedWrite[],
    options: WriteOptions,
  ): Prepared[] {
    const substring = collection.properties.filter(isSubstringIndexed).map((p) => p.name)
    return drafts.map((draft, i) => {
      const expiresAt = expiryOf(collection, draft, options, ctx.now)
      const values = written[i] ?? { plain: {}, sealed: {}, digests: {} }
      const record = recordOf(collection, { draft, expiresAt, now: ctx.now }, values)
      const active = isActive(record, ctx.now)
      return {
        index: draft.index,
        record,
        entries: deps.indexing.entriesOf(collection.name, draft.id, values.digests),
        claims: active ? deps.indexing.claimsOf(collection, draft.id, values.digests) : [],
        isQueued: substring.some((name) => (ownValue(draft.input.values, name) ?? null) !== null),
      }
    })
  }

  const newObjects = (drafts: readonly Draft[]) =>
    drafts.map((d) => ({ id: d.id, values: d.input.values }))

  /**
   * Two items of one batch with the same unique value: the later one fails (seed 4.8). `seen`
   * holds the values of the batch's earlier steps.
   */
  function checkBatchUniques(
    collection: StoredCollection,
    prepared: readonly Prepared[],
    errors: ItemErrors,
    seen = new Set<string>(),
  ) {
    for (const item of prepared) {
      for (const claim of item.claims) {
        if (seen.has(slot(claim)))
          errors.set(item.index, uniqueValueUsed(collection.name, claim.property))
        seen.add(slot(claim))
      }
    }
  }

  /**
   * Inserts rows, entries, claims and queue entries; taken ids and unique values fail their item
   * (in `errors`, which holds those of the batch's earlier steps). `isNew`: plain inserts, which
   * throw KeyTaken at the first id or value already taken (see commitNew).
   */
  async function persist(
    tx: Repos,
    ctx: RequestContext,
    collection: StoredCollection,
    prepared: readonly Prepared[],
    errors: ItemErrors,
    isNew: boolean,
  ) {
    if (isNew) {
      await tx.objects.insertNew(prepared.map((p) => p.record))
      await tx.searchIndex.insertNew(
        prepared.flatMap((p) => p.entries),
        prepared.flatMap((p) => p.claims),
      )
      await enqueue(tx, ctx, collection, prepared, errors)
      return errors
    }
    const taken = await tx.objects.insert(prepared.map((p) => p.record))
    for (const p of prepared)
      if (taken.has(p.record.id)) errors.set(p.index, duplicateId(p.record.id))
    const stored = prepared.filter((p) => !taken.has(p.record.id))
    await tx.searchIndex.insertIndex(stored.flatMap((p) => p.entries))
    const indexOf = new Map(stored.map((p) => [p.record.id, p.index]))
    const conflicts = await claimUnique(
      tx,
      stored.flatMap((p) => p.claims),
      ctx.now,
    )
    for (const conflict of conflicts) {
      const error = uniqueValueUsed(collection.name, conflict.property)
      errors.set(indexOf.get(conflict.objectId) ?? 0, error)
    }
    await enqueue(tx, ctx, collection, stored, errors)
    return errors
  }

  /** Queues the stored objects with substring-indexed values for their n-grams. */
  async function enqueue(
    tx: Repos,
    ctx: RequestContext,
    collection: StoredCollection,
    stored: readonly Prepared[],
    errors: ItemErrors,
  ) {
    const queued = stored.filter((p) => p.isQueued).map((p) => p.record.id)
    if (queued.length > 0 && errors.size === 0)
      await tx.substring.enqueue(collection.name, queued, ctx.now)
  }

  /**
   * Writes a large batch in steps, each step written while the sealing thread seals the next
   * ones (seal-thread.ts): on SQLite the statements run on this thread, on PostgreSQL in the
   * server's process, and either way the cryptography runs on the other core meanwhile. Same
   * statements and outcomes as writing the batch in one step: steps run in order in the one
   * transaction, and unique values repeated across steps fail the later item as within one step.
   */
  async function persistSteps(
    tx: Repos,
    ctx: RequestContext,
    collection: StoredCollection,
    batch: Readonly<{
      steps: readonly (readonly Draft[])[]
      sealed: readonly Promise<SealedWrite[]>[]
      options: WriteOptions
      inBatch: ItemErrors
    }>,
    isNew: boolean,
  ): Promise<ItemErrors> {
    const { steps, sealed, options, inBatch } = batch
    const failed: ItemErrors = new Map()
    const seen = new Set<string>()
    let written: Promise<unknown> = Promise.resolve()
    let isBroken = false
    for (let k = 0; k < steps.length && !isBroken; k++) {
      const step = steps[k] ?? []
      const prepared = prepare(ctx, collection, step, (await sealed[k]) ?? [], options)
      checkBatchUniques(collection, prepared, inBatch, seen)
      written = written.then(() => persist(tx, ctx, collection, prepared, failed, isNew))
      // Awaited below; a failed step stops the loop and must not go unhandled meanwhile.
      written.catch(() => {
        isBroken = true
      })
    }
    await written
    return failed
  }

  /**
   * Adds a batch atomically: every item is stored, or none is and the results say why (§3.2).
   * `within` runs in the same transaction once every item is stored (tokenize `store_object`).
   */
  async function addMany(
    ctx: RequestContext,
    collectionName: string,
    bodies: readonly Fields[],
    options: WriteOptions,
    within?: AddWithin,
  ): Promise<Audited<BulkResult>> {
    checkBatchSize(bodies.length, deps.settings.maxPageSize)
    const collection = deps.collections.getCachedOrThrow(collectionName)
    const names = [...new Set(bodies.flatMap((body) => Object.keys(body)))]
    const touched = touchedDetails(within?.audit ?? NO_DETAILS, collection, names)
    return withFailureDetails(touched, async () => {
      deps.iam.checkPolicies(ctx, propertyChecks(collection, names, 'write'))
      parseExpiration(options.expirationSecs, { defaultSecs: undefined, isUpdate: false }, ctx.now)
      const decoded = await decodeBodies(deps, bodies, options)
      const errors: ItemErrors = new Map()
      const rules = { types: deps.types, isImport: options.isImport, isCreate: true }
      const read = decoded.map((body, i) =>
        attempt(errors, i, () => readObjectBody(collection, body, rules)),
      )
      const inputs = await withCustomValues(ctx, deps, collection, read, errors)
      const drafts = await draft(ctx, collection, inputs, errors)
      const drafted = new Map(drafts.map((d) => [d.index, d.id]))
      const ids = read.map((input, i) => drafted.get(i) ?? input?.id)
      const audit = withObjectIds(
        touched,
        drafts.map((d) => d.id),
      )
      const batch = { ids, errors, audit }
      return withFailureDetails(audit, () =>
        store(ctx, collection, { batch, drafts, options }, within),
      )
    })
  }

  /** Seals and writes the drafts (in steps when the batch is large), then runs `within`. */
  async function store(
    ctx: RequestContext,
    collection: StoredCollection,
    add: Readonly<{ batch: Batch; drafts: readonly Draft[]; options: WriteOptions }>,
    within: AddWithin | undefined,
  ): Promise<Audited<BulkResult>> {
    const { batch, drafts, options } = add
    const { ids, errors, audit } = batch
    const finish = async (tx: Repos, failed: ItemErrors, isClean: boolean) => ({
      failed,
      audit:
        isClean && errors.size === 0 && within !== undefined
          ? await within.run(tx, ids as string[], audit)
          : audit,
    })
    if (drafts.length > WRITE_STEP) {
      const steps: Draft[][] = []
      for (let i = 0; i < drafts.length; i += WRITE_STEP)
        steps.push(drafts.slice(i, i + WRITE_STEP))
      // Every step goes to the sealing thread at once; the first is back soonest.
      const sealed = steps.map((step) => deps.sealThread.sealAside(collection, newObjects(step)))
      // A step that fails is reported through its own await; the others must not go unhandled.
      for (const promise of sealed) promise.catch(() => {})
      return commitNew(deps, ctx, batch, async (tx, isNew) => {
        const inBatch: ItemErrors = new Map()
        const failed = await persistSteps(
          tx,
          ctx,
          collection,
          { steps, sealed, options, inBatch },
          isNew,
        )
        const isClean = failed.size === 0 && inBatch.size === 0
        return finish(tx, new Map([...inBatch, ...failed]), isClean)
      })
    }
    const written = deps.sealThread.seal(collection, newObjects(drafts))
    const prepared = prepare(ctx, collection, drafts, written, options)
    checkBatchUniques(collection, prepared, errors)
    return commitNew(deps, ctx, batch, async (tx, isNew) => {
      const failed = await persist(tx, ctx, collection, prepared, new Map(), isNew)
      return finish(tx, failed, failed.size === 0)
    })
  }

  return { addMany }
}
