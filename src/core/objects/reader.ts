// src/core/objects/reader.ts: stored objects as other capabilities read them (tokens, the crypto API), without read policies
import type { StoredCollection } from '../collections/collection.ts'
import type { RequestContext } from '../context.ts'
import type { Envelope } from '../crypto/envelope.ts'
import { assertTenantAllowed } from '../iam/tenants.ts'
import type { Store } from '../store.ts'
import { formatNano } from '../time.ts'
import { objectsNotFound } from './errors.ts'
import { isActive, recordValues } from './records.ts'
import type { ObjectRecord } from './store.ts'

type Values = Record<string, unknown>

/** An active stored object and its values: plain ones and the opened encrypted ones. */
export type LoadedObject = Readonly<{ record: ObjectRecord; values: Values }>

/**
 * Reads stored objects for the capabilities that use them without the objects service's read
 * path, which checks `read` policies: an `object.id` source of encrypt, hash or tokenize needs
 * only its own operation's policies (crypto.md §1, tokens.md), and pointer tokens show their
 * owners' current values. Unknown or archived objects are 404 ERR3005; an object of a tenant
 * outside the call's is 403 ERR1006.
 */
export type StoredObjectReader = Readonly<{
  /**
   * Encrypt and hash: in the order of `ids`, each active object's user properties and built-ins
   * except `id`.
   */
  read(ctx: RequestContext, collection: StoredCollection, ids: readonly string[]): Promise<Values[]>
  /** Tokenize: the active objects the ids name (case-insensitive, once each), by id. */
  load(
    ctx: RequestContext,
    collection: StoredCollection,
    ids: readonly string[],
  ): Promise<Map<string, LoadedObject>>
  /** Every listed object must exist, active or archived: 404 ERR3005 names the missing ones. */
  requireExisting(collection: string, ids: readonly string[]): Promise<void>
  /** The current values of rows already read (pointer tokens' owners), by object id. */
  valuesOf(records: readonly ObjectRecord[]): Map<string, Values>
}>

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
  function valuesOf(records: readonly ObjectRecord[]): Map<string, Values> {
    const values = recordValues(deps.envelope, records)
    return new Map(records.map((r, i) => [r.id, values[i] ?? {}]))
  }

  return {
    async read(ctx, collection, ids) {
      // No stored object asked for: no round trip (and none needed where the store has none).
      if (ids.length === 0) return []
      const wanted = ids.map((id) => id.toLowerCase())
      const rows = await deps.store.objects.get(collection.name, [...new Set(wanted)])
      const active = new Map(
        rows.filter((row) => isActive(row, ctx.now)).map((row) => [row.id, row]),
      )
      const missing = wanted.filter((id) => !active.has(id))
      if (missing.length > 0) throw objectsNotFound([...new Set(missing)], 100)
      const ordered = wanted.map((id) => active.get(id) as ObjectRecord)
      for (const row of ordered) assertTenantAllowed(ctx, row.tenantId)
      const values = recordValues(deps.envelope, ordered)
      return ordered.map((row, i) => ({ ...values[i], ...builtins(row) }))
    },
    async load(ctx, collection, rawIds) {
      const ids = [...new Set(rawIds.map((id) => id.toLowerCase()))]
      if (ids.length === 0) return new Map()
      const rows = (await deps.store.objects.get(collection.name, ids)).filter((r) =>
        isActive(r, ctx.now),
      )
      const found = new Set(rows.map((r) => r.id))
      const missing = ids.filter((id) => !found.has(id))
      if (missing.length > 0) throw objectsNotFound(missing)
      for (const row of rows) assertTenantAllowed(ctx, row.tenantId)
      const values = valuesOf(rows)
      return new Map(rows.map((r) => [r.id, { record: r, values: values.get(r.id) ?? {} }]))
    },
    async requireExisting(collection, ids) {
      const rows = await deps.store.objects.get(collection, ids)
      const found = new Set(rows.map((r) => r.id))
      const missing = ids.filter((id) => !found.has(id))
      if (missing.length > 0) throw objectsNotFound(missing)
    },
    valuesOf,
  }
}
