// src/core/objects/update-apply.ts: writes one planned update: the row, index entries, claims, owned objects, queue
import type { StoredCollection } from '../collections/collection.ts'
import type { RequestContext } from '../context.ts'
import type { VaultError } from '../errors.ts'
import type { Repos } from '../store.ts'
import type { ObjectsDeps } from './deps.ts'
import { concurrentUpdate, uniqueValueUsed } from './errors.ts'
import { isIndexed, isSubstringIndexed } from './indexing.ts'
import { cascadeExpiry } from './lifecycle.ts'
import { isActive, parseValues } from './records.ts'
import type { IndexEntry, ObjectRecord } from './store.ts'
import { claimUnique } from './uniqueness.ts'

export type UpdatePlan = Readonly<{
  index: number
  before: ObjectRecord
  after: ObjectRecord
  /** User properties the body wrote. */
  changed: ReadonlySet<string>
}>

export type ApplyContext = Readonly<{
  deps: ObjectsDeps
  ctx: RequestContext
  collection: StoredCollection
}>

/**
 * Which claims move: an object that stays active swaps the claims of changed unique values; one
 * archived releases all; one restored (archived → active) claims all again.
 */
function claimChanges(apply: ApplyContext, plan: UpdatePlan) {
  const { deps, ctx, collection } = apply
  const wasActive = isActive(plan.before, ctx.now)
  const willBeActive = isActive(plan.after, ctx.now)
  const changed = wasActive && willBeActive ? [...plan.changed] : undefined
  const claimsOf = (record: ObjectRecord) =>
    deps.indexing.claimsOf(collection, record.id, parseValues(record).digests, changed)
  return {
    release: wasActive ? claimsOf(plan.before) : [],
    claim: willBeActive ? claimsOf(plan.after) : [],
  }
}

async function moveIndexEntries(tx: Repos, apply: ApplyContext, plan: UpdatePlan) {
  const { deps, collection } = apply
  const names = collection.properties
    .filter((p) => isIndexed(p) && plan.changed.has(p.name))
    .map((p) => p.name)
  if (names.length === 0) return
  const entries = (record: ObjectRecord) =>
    deps.indexing.entriesOf(collection.name, record.id, parseValues(record).digests, names)
  await tx.searchIndex.deleteIndex(entries(plan.before))
  await tx.searchIndex.insertIndex(entries(plan.after))
}

/** An owner's tenant reaches what it owns (data-model §4.1). */
async function propagateTenant(tx: Repos, owner: ObjectRecord): Promise<VaultError | undefined> {
  for (const owned of await tx.objects.ownedBy(owner.collection, owner.id)) {
    const next = { ...owned, tenantId: owner.tenantId, version: owned.version + 1 }
    if (!(await tx.objects.replace(next, owned.version))) return concurrentUpdate(owned.id)
  }
  return undefined
}

async function followers(tx: Repos, apply: ApplyContext, plan: UpdatePlan) {
  const { deps, ctx, collection } = apply
  if (collection.type !== 'PERSONS') return undefined
  if (plan.after.expiresAt !== plan.before.expiresAt) {
    const cascade = { indexing: deps.indexing, collectionOf: deps.collections.getCached }
    await cascadeExpiry(tx, cascade, plan.after, ctx.now)
  }
  if (plan.after.tenantId !== plan.before.tenantId) return propagateTenant(tx, plan.after)
  return undefined
}

/** Writes one update inside the batch's transaction; returns the item's failure, if any. */
export async function applyUpdate(
  tx: Repos,
  apply: ApplyContext,
  plan: UpdatePlan,
): Promise<VaultError | undefined> {
  const { ctx, collection } = apply
  if (!(await tx.objects.replace(plan.after, plan.before.version)))
    return concurrentUpdate(plan.after.id)
  await moveIndexEntries(tx, apply, plan)
  const { release, claim } = claimChanges(apply, plan)
  await tx.searchIndex.releaseUnique(release)
  const conflicts: IndexEntry[] = await claimUnique(tx, claim, ctx.now)
  if (conflicts[0] !== undefined) return uniqueValueUsed(collection.name, conflicts[0].property)
  const failure = await followers(tx, apply, plan)
  if (failure !== undefined) return failure
  const isQueued = collection.properties.some(
    (p) => isSubstringIndexed(p) && plan.changed.has(p.name),
  )
  if (isQueued) await tx.substring.enqueue(collection.name, [plan.after.id], ctx.now)
  return undefined
}
