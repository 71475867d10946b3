// src/core/objects/remove.ts: delete objects: archive active ones, or remove archived ones for good (§3.8–3.9)
import { propertyChecks } from '../access/checks.ts'
import {
  type Audited,
  NO_DETAILS,
  touchedDetails,
  withFailureDetails,
  withObjectIds,
} from '../audit/details.ts'
import type { StoredCollection } from '../collections/collection.ts'
import type { RequestContext } from '../context.ts'
import { isVaultError } from '../errors.ts'
import { assertTenantAllowed } from '../iam/tenants.ts'
import type { Repos } from '../store.ts'
import { attempt, type BulkResult, checkBatchSize, type ItemErrors } from '../writes/bulk.ts'
import type { ObjectsDeps } from './deps.ts'
import { objectsNotFound } from './errors.ts'
import { readObjectId } from './ids.ts'
import { archiveRows } from './lifecycle.ts'
import { isActive, parseValues } from './records.ts'
import type { ObjectRecord } from './store.ts'
import { commit } from './writing.ts'

export type DeleteOptions = Readonly<{ isArchived: boolean }>

export function createRemoval(deps: ObjectsDeps) {
  const cascade = { indexing: deps.indexing, collectionOf: deps.collections.getCached }

  /** Removes archived rows and everything derived from them (irreversible). */
  async function purge(tx: Repos, collection: StoredCollection, rows: readonly ObjectRecord[]) {
    const entries = rows.flatMap((row) =>
      deps.indexing.entriesOf(collection.name, row.id, parseValues(row).digests),
    )
    const ids = rows.map((row) => row.id)
    await tx.searchIndex.deleteIndex(entries)
    await tx.searchIndex.releaseUnique(entries)
    await tx.substring.deleteObjects(collection.name, ids)
    await tx.objects.delete(collection.name, ids)
  }

  /** Archives each row (owned objects follow); a row changed meanwhile fails its item. */
  async function archive(
    tx: Repos,
    ctx: RequestContext,
    targets: readonly { index: number; row: ObjectRecord }[],
  ): Promise<ItemErrors> {
    const errors: ItemErrors = new Map()
    for (const { index, row } of targets) {
      try {
        await archiveRows(tx, cascade, [row], ctx.now)
      } catch (error) {
        if (!isVaultError(error)) throw error
        errors.set(index, error)
      }
    }
    return errors
  }

  async function targetsOf(
    ctx: RequestContext,
    collection: StoredCollection,
    ids: readonly (string | undefined)[],
    options: { isArchived: boolean; errors: ItemErrors },
  ) {
    const known = ids.filter((id): id is string => id !== undefined)
    const rows = new Map(
      (await deps.store.objects.get(collection.name, known)).map((r) => [r.id, r]),
    )
    const seen = new Set<string>()
    return ids.flatMap((id, index) => {
      if (id === undefined) return []
      const row = rows.get(id)
      if (row === undefined || isActive(row, ctx.now) === options.isArchived) {
        options.errors.set(index, objectsNotFound([id]))
        return []
      }
      assertTenantAllowed(ctx, row.tenantId)
      if (seen.has(id)) return []
      seen.add(id)
      return [{ index, row }]
    })
  }

  /** Deletes a batch atomically; the `delete` policy covers every property of the collection. */
  async function deleteMany(
    ctx: RequestContext,
    collectionName: string,
    given: readonly string[],
    options: DeleteOptions,
  ): Promise<Audited<BulkResult>> {
    checkBatchSize(given.length, deps.settings.maxPageSize)
    const collection = deps.collections.getCachedOrThrow(collectionName)
    const touched = touchedDetails(NO_DETAILS, collection)
    return withFailureDetails(touched, async () => {
      const names = collection.properties.map((p) => p.name)
      deps.iam.checkPolicies(ctx, propertyChecks(collection, names, 'delete', options.isArchived))
      const errors: ItemErrors = new Map()
      const ids = given.map((id, i) => attempt(errors, i, () => readObjectId(id)))
      const targets = await targetsOf(ctx, collection, ids, { ...options, errors })
      const audit = withObjectIds(
        touched,
        targets.map((t) => t.row.id),
      )
      return withFailureDetails(audit, () =>
        commit(deps, ctx, { ids, errors, audit }, async (tx) => {
          if (!options.isArchived) return { failed: await archive(tx, ctx, targets), audit }
          await purge(
            tx,
            collection,
            targets.map((t) => t.row),
          )
          return { failed: new Map(), audit }
        }),
      )
    })
  }

  return { deleteMany }
}
