// src/core/crypto-api/object-reader.ts: the stored-object port of the crypto operations (`object.id` sources) and its store implementation
import type { StoredCollection } from '../collections/collection.ts'
import type { RequestContext } from '../context.ts'
import type { Envelope } from '../crypto/envelope.ts'
import { VaultError } from '../errors.ts'
import { assertTenantAllowed } from '../iam/tenants.ts'
import { openObjects } from '../objects/sealing.ts'
import type { ObjectRecord } from '../objects/store.ts'
import type { Store } from '../store.ts'
import { formatNano } from '../time.ts'
import type { Values } from './fields.ts'

/**
 * Reads stored objects for encrypt and hash items with `object.id`. Answers, in the order of
 * `ids`, each active object's user properties and built-ins except `id`; an unknown or archived
 * object is 404 ERR3005 and an object of a tenant outside the call's is 403 ERR1006. It reads
 * the store directly: the objects service's read path checks `read` policies, which an
 * `object.id` source of encrypt or hash does not need (crypto.md §1).
 */
export type StoredObjectReader = Readonly<{
  read(ctx: RequestContext, collection: StoredCollection, ids: readonly string[]): Promise<Values[]>
}>

export function objectsNotFound(ids: readonly string[]): VaultError {
  const shown = [...new Set(ids)].map((id) => id.slice(0, 100)).join(',')
  return new VaultError('objectNotFound', {
    message: `One or more objects were not found: ${shown}.`,
    context: { ids: shown },
  })
}

function builtins(row: ObjectRecord): Values {
  const values: Values = {
    _creation_time: formatNano(row.createdAt),
    _modification_time: formatNano(row.modifiedAt),
  }
  if (row.ownerId !== undefined) values._owner_id = row.ownerId
  if (row.ownerCollection !== undefined) values._owner_collection = row.ownerCollection
  if (row.tenantId !== undefined) values._tenant_id = row.tenantId
  if (row.expiresAt !== undefined) values._expiration_time = formatNano(row.expiresAt)
  return values
}

/** Reads object rows through the store and opens their sealed values in one batch. */
export function createStoreObjectReader(deps: {
  readonly store: Store
  readonly envelope: Envelope
}): StoredObjectReader {
  return {
    async read(ctx, collection, ids) {
      const wanted = ids.map((id) => id.toLowerCase())
      const rows = await deps.store.objects.get(collection.name, [...new Set(wanted)])
      const isActive = (row: ObjectRecord) => row.expiresAt === undefined || row.expiresAt > ctx.now
      const active = new Map(rows.filter(isActive).map((row) => [row.id, row]))
      const missing = wanted.filter((id) => !active.has(id))
      if (missing.length > 0) throw objectsNotFound(missing)
      const ordered = wanted.map((id) => active.get(id) as ObjectRecord)
      for (const row of ordered) assertTenantAllowed(ctx, row.tenantId)
      const opened = openObjects(
        deps.envelope,
        ordered.map((row) => ({
          collection: row.collection,
          objectId: row.id,
          sealed: JSON.parse(row.sealed) as Record<string, string>,
        })),
      )
      return ordered.map((row, i) => ({
        ...JSON.parse(row.fields),
        ...opened[i],
        ...builtins(row),
      }))
    },
  }
}
