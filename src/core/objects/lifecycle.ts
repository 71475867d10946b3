// src/core/objects/lifecycle.ts: expiry of objects: defaults, changes, archiving and what follows an owner
import type { StoredCollection } from '../collections/collection.ts'
import type { Repos } from '../store.ts'
import type { Micros } from '../time.ts'
import { concurrentUpdate } from './errors.ts'
import type { Indexing } from './indexing.ts'
import { isActive, parseValues } from './records.ts'
import type { ObjectRecord } from './store.ts'

/** SVC_EXPIRATION_* in seconds; undefined: never expires. */
export type ExpirationDefaults = Readonly<{
  associatedSecs: number | undefined
  unassociatedSecs: number | undefined
}>

/** PERSONS objects and owned DATA objects use the associated default, others the unassociated. */
export function defaultExpirySecs(
  defaults: ExpirationDefaults,
  collection: StoredCollection,
  isOwned: boolean,
): number | undefined {
  return collection.type === 'PERSONS' || isOwned
    ? defaults.associatedSecs
    : defaults.unassociatedSecs
}

/** The earlier of two expiries (undefined: never). */
export function earliest(a: Micros | undefined, b: Micros | undefined): Micros | undefined {
  if (a === undefined) return b
  if (b === undefined) return a
  return Math.min(a, b)
}

export type CascadeDeps = Readonly<{
  indexing: Indexing
  collectionOf: (name: string) => StoredCollection | undefined
}>

/** Writes a row with a new expiry; archiving releases its uniqueness claims. */
async function expireRow(
  tx: Repos,
  deps: CascadeDeps,
  record: ObjectRecord,
  change: { at: Micros; now: Micros },
): Promise<void> {
  const next = {
    ...record,
    expiresAt: change.at,
    modifiedAt: change.now,
    version: record.version + 1,
  }
  if (!(await tx.objects.replace(next, record.version))) throw concurrentUpdate(record.id)
  const collection = deps.collectionOf(record.collection)
  if (collection === undefined || change.at > change.now || !isActive(record, change.now)) return
  const claims = deps.indexing.claimsOf(collection, record.id, parseValues(record).digests)
  await tx.searchIndex.releaseUnique(claims)
}

/**
 * An owner's expiry reaches what it owns: each owned object expires no later than its owner
 * (so archiving an owner, by delete or expiry, archives its objects). Extending an owner does
 * not extend objects it owns.
 */
export async function cascadeExpiry(
  tx: Repos,
  deps: CascadeDeps,
  owner: ObjectRecord,
  now: Micros,
): Promise<void> {
  const at = owner.expiresAt
  if (at === undefined || deps.collectionOf(owner.collection)?.type !== 'PERSONS') return
  const owned = await tx.objects.ownedBy(owner.collection, owner.id)
  for (const record of owned) {
    if (record.expiresAt !== undefined && record.expiresAt <= at) continue
    await expireRow(tx, deps, record, { at, now })
  }
}

/** Archives active rows now (delete): expiry becomes now, claims are released, owned objects follow. */
export async function archiveRows(
  tx: Repos,
  deps: CascadeDeps,
  records: readonly ObjectRecord[],
  now: Micros,
): Promise<void> {
  for (const record of records) {
    await expireRow(tx, deps, record, { at: now, now })
    await cascadeExpiry(tx, deps, { ...record, expiresAt: now }, now)
  }
}
