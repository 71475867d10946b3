// src/core/objects/ownership.ts: owners of DATA objects and the tenant an object gets (data-model §4.1, iam.md §10)
import type { StoredCollection } from '../collections/collection.ts'
import { collectionNotFound } from '../collections/errors.ts'
import type { RequestContext } from '../context.ts'
import type { VaultError } from '../errors.ts'
import { assertTenantAllowed, tenantForCreate } from '../iam/tenants.ts'
import type { Repos } from '../store.ts'
import type { Micros } from '../time.ts'
import { type BuiltinValues, invalidValue } from '../values/body.ts'
import { objectsNotFound } from './errors.ts'
import { isActive } from './records.ts'
import type { ObjectRecord } from './store.ts'

export type OwnerRef = Readonly<{ ownerCollection: string; ownerId: string }>

/** Where an object stands after a write: its owner (if any) and its tenant. */
export type Ownership = Readonly<{
  ownerId: string | undefined
  ownerCollection: string | undefined
  tenantId: string | undefined
  /** The owner's expiry: an owned object never outlives its owner. */
  ownerExpiresAt: Micros | undefined
}>

const key = (ref: OwnerRef) => `${ref.ownerCollection}\u0000${ref.ownerId}`

/**
 * The owner an object names after applying `builtins` to what it had: both `_owner_id` and
 * `_owner_collection`, or neither; PERSONS objects cannot be owned (400 ERR3002).
 */
export function ownerRefOf(
  collection: StoredCollection,
  builtins: BuiltinValues,
  current?: Pick<ObjectRecord, 'ownerId' | 'ownerCollection'>,
): OwnerRef | undefined {
  const ownerId = builtins.ownerId === undefined ? current?.ownerId : builtins.ownerId
  const ownerCollection =
    builtins.ownerCollection === undefined ? current?.ownerCollection : builtins.ownerCollection
  if (collection.type === 'PERSONS' && (ownerId ?? ownerCollection ?? null) !== null)
    throw invalidValue('_owner_id', 'PERSONS objects cannot be owned')
  if ((ownerId ?? null) === null && (ownerCollection ?? null) === null) return undefined
  if ((ownerId ?? null) === null || (ownerCollection ?? null) === null)
    throw invalidValue('_owner_id', '_owner_id and _owner_collection must be set together')
  return { ownerId: ownerId as string, ownerCollection: ownerCollection as string }
}

export type OwnerLookup = ReadonlyMap<string, ObjectRecord | VaultError>

/**
 * Loads the owners a batch names: each must live in a PERSONS collection (unknown collection 404
 * ERR1004, another kind 400 ERR3002) and be active (else 404 ERR3005); failures are per owner.
 */
export async function loadOwners(
  repos: Repos,
  refs: readonly OwnerRef[],
  collectionOf: (name: string) => StoredCollection | undefined,
  now: Micros,
): Promise<OwnerLookup> {
  const found = new Map<string, ObjectRecord | VaultError>()
  const byCollection = new Map<string, string[]>()
  for (const ref of refs)
    byCollection.set(ref.ownerCollection, [
      ...(byCollection.get(ref.ownerCollection) ?? []),
      ref.ownerId,
    ])
  for (const [name, ids] of byCollection) {
    const owners = collectionOf(name)
    const rows = owners?.type === 'PERSONS' ? await repos.objects.get(name, ids) : []
    const active = new Map(rows.filter((r) => isActive(r, now)).map((r) => [r.id, r]))
    for (const id of ids) {
      const ref = { ownerCollection: name, ownerId: id }
      if (owners === undefined) found.set(key(ref), collectionNotFound(name))
      else if (owners.type !== 'PERSONS')
        found.set(
          key(ref),
          invalidValue('_owner_collection', 'the owner must be in a PERSONS collection'),
        )
      else found.set(key(ref), active.get(id) ?? objectsNotFound([id]))
    }
  }
  return found
}

/**
 * The ownership an object gets: an owned object inherits its owner's tenant (setting `_tenant_id`
 * on it is 400), and the owner must be within the call's tenants; an unowned one keeps or sets
 * its own tenant under the X-Tenant-Id rules.
 */
export function resolveOwnership(
  ctx: RequestContext,
  input: { ref: OwnerRef | undefined; builtins: BuiltinValues; currentTenant?: string },
  owners: OwnerLookup,
): Ownership {
  const { ref, builtins } = input
  if (ref === undefined) {
    const bodyTenant = builtins.tenantId === undefined ? input.currentTenant : builtins.tenantId
    const tenantId = tenantForCreate(ctx, bodyTenant ?? undefined)
    return { ownerId: undefined, ownerCollection: undefined, tenantId, ownerExpiresAt: undefined }
  }
  if ((builtins.tenantId ?? null) !== null)
    throw invalidValue('_tenant_id', 'an owned object inherits the tenant of its owner')
  const owner = owners.get(key(ref))
  if (owner === undefined) throw objectsNotFound([ref.ownerId])
  if (owner instanceof Error) throw owner
  assertTenantAllowed(ctx, owner.tenantId)
  return { ...ref, tenantId: owner.tenantId, ownerExpiresAt: owner.expiresAt }
}
