// src/core/objects/update.ts: update objects (one or a batch): values, built-ins, expiry, archive and restore
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
import { invalidRequest } from '../errors.ts'
import { assertTenantAllowed } from '../iam/tenants.ts'
import type { Micros } from '../time.ts'
import { type ObjectInput, readObjectBody } from '../values/body.ts'
import { attempt, type BulkResult, checkBatchSize, type ItemErrors } from '../writes/bulk.ts'
import { applyExpiry, type ExpiryChange, parseExpiration } from '../writes/expiration.ts'
import type { ObjectsDeps } from './deps.ts'
import { objectsNotFound } from './errors.ts'
import { earliest } from './lifecycle.ts'
import { loadOwners, type Ownership, ownerRefOf, resolveOwnership } from './ownership.ts'
import {
  digestsOf,
  isActive,
  mergeValues,
  parseValues,
  type StoredValues,
  serializeValues,
} from './records.ts'
import type { ObjectRecord } from './store.ts'
import { applyUpdate, type UpdatePlan } from './update-apply.ts'
import {
  commit,
  decodeBodies,
  sealChanges,
  type WriteOptions,
  withCustomValues,
} from './writing.ts'

type Fields = Record<string, unknown>

export type UpdateOptions = WriteOptions & Readonly<{ isArchived: boolean }>

type Target = Readonly<{ index: number; input: ObjectInput; before: ObjectRecord }>

export function createUpdating(deps: ObjectsDeps) {
  const collectionOf = (name: string) => deps.collections.getCached(name)

  /** Reads each body; every item names its object with `id`, once per batch. */
  function readInputs(
    collection: StoredCollection,
    bodies: readonly Fields[],
    options: UpdateOptions,
    errors: ItemErrors,
  ) {
    const rules = { types: deps.types, isImport: options.isImport, isCreate: false }
    const seen = new Set<string>()
    return bodies.map((body, i) =>
      attempt(errors, i, () => {
        const input = readObjectBody(collection, body, rules)
        if (input.id === undefined)
          throw invalidRequest('Each object to update must have its id.', 'id')
        if (seen.has(input.id))
          throw invalidRequest(`The object ${input.id} appears more than once.`, 'id')
        seen.add(input.id)
        return input
      }),
    )
  }

  /** The stored rows in the selected state; others are not found. Tenants apply to all (403). */
  async function loadTargets(
    ctx: RequestContext,
    collection: StoredCollection,
    inputs: readonly (ObjectInput | undefined)[],
    options: { isArchived: boolean; errors: ItemErrors },
  ): Promise<Target[]> {
    const ids = inputs.flatMap((input) => (input?.id ? [input.id] : []))
    const rows = new Map((await deps.store.objects.get(collection.name, ids)).map((r) => [r.id, r]))
    return inputs.flatMap((input, index) => {
      if (input?.id === undefined || options.errors.has(index)) return []
      const before = rows.get(input.id)
      if (before === undefined || isActive(before, ctx.now) === options.isArchived) {
        options.errors.set(index, objectsNotFound([input.id]))
        return []
      }
      assertTenantAllowed(ctx, before.tenantId)
      return [{ index, input, before }]
    })
  }

  /** Owners and tenants after each update; failures are per item, tenant violations fail all. */
  async function ownerships(
    ctx: RequestContext,
    collection: StoredCollection,
    targets: readonly Target[],
    errors: ItemErrors,
  ) {
    const refs = targets.map((t) =>
      attempt(errors, t.index, () => ownerRefOf(collection, t.input.builtins, t.before)),
    )
    const owners = await loadOwners(
      deps.store,
      refs.flatMap((r) => (r ? [r] : [])),
      collectionOf,
      ctx.now,
    )
    return targets.map((target, i) =>
      errors.has(target.index)
        ? undefined
        : attempt(errors, target.index, () =>
            resolveOwnership(
              ctx,
              {
                ref: refs[i],
                builtins: target.input.builtins,
                currentTenant: target.before.tenantId,
              },
              owners,
            ),
          ),
    )
  }

  /** With import, `_expiration_time` in the body wins over `expiration_secs`. */
  function nextExpiry(target: Target, expiry: ExpiryChange): Micros | undefined {
    const imported = target.input.builtins.expiresAt
    if (imported !== undefined) return imported ?? undefined
    return applyExpiry(target.before.expiresAt, expiry)
  }

  function afterOf(
    ctx: RequestContext,
    target: Target,
    next: { values: StoredValues; ownership: Ownership; expiresAt: Micros | undefined },
  ): ObjectRecord {
    const { input, before } = target
    const { ownership } = next
    return {
      ...before,
      ...serializeValues(next.values),
      tenantId: ownership.tenantId,
      ownerId: ownership.ownerId,
      ownerCollection: ownership.ownerCollection,
      createdAt: input.builtins.createdAt ?? before.createdAt,
      modifiedAt: input.builtins.modifiedAt ?? ctx.now,
      expiresAt: earliest(next.expiresAt, ownership.ownerExpiresAt),
      version: before.version + 1,
    }
  }

  async function plan(
    ctx: RequestContext,
    collection: StoredCollection,
    targets: readonly Target[],
    change: { expiry: ExpiryChange; errors: ItemErrors },
  ): Promise<UpdatePlan[]> {
    const owned = await ownerships(ctx, collection, targets, change.errors)
    const live = targets.flatMap((target, i) => {
      const ownership = owned[i]
      return ownership === undefined ? [] : [{ target, ownership }]
    })
    const written = sealChanges(
      deps.envelope,
      collection,
      live.map(({ target }) => ({ id: target.before.id, values: target.input.values })),
    )
    return live.map(({ target, ownership }, i) => {
      const changed = new Set(Object.keys(target.input.values))
      const digests = digestsOf(deps.indexing, collection, target.input.values, changed)
      const sealed = written[i] ?? { plain: {}, sealed: {} }
      const values = mergeValues(parseValues(target.before), target.input.values, {
        ...sealed,
        digests,
      })
      const expiresAt = nextExpiry(target, change.expiry)
      const after = afterOf(ctx, target, { values, ownership, expiresAt })
      return { index: target.index, before: target.before, after, changed }
    })
  }

  /** Updates a batch atomically (§3.6–3.7): every item is written, or none is. */
  async function updateMany(
    ctx: RequestContext,
    collectionName: string,
    bodies: readonly Fields[],
    opts: UpdateOptions,
  ): Promise<Audited<BulkResult>> {
    checkBatchSize(bodies.length, deps.settings.maxPageSize)
    const collection = deps.collections.getCachedOrThrow(collectionName)
    const names = [...new Set(bodies.flatMap((body) => Object.keys(body)))].filter(
      (n) => n !== 'id',
    )
    const touched = touchedDetails(NO_DETAILS, collection, names)
    return withFailureDetails(touched, async () => {
      deps.iam.checkPolicies(ctx, propertyChecks(collection, names, 'write', opts.isArchived))
      const expiry = parseExpiration(
        opts.expirationSecs,
        { defaultSecs: undefined, isUpdate: true },
        ctx.now,
      )
      const decoded = await decodeBodies(deps, bodies, opts)
      const errors: ItemErrors = new Map()
      const read = readInputs(collection, decoded, opts, errors)
      const inputs = await withCustomValues(ctx, deps, collection, read, errors)
      const targets = await loadTargets(ctx, collection, inputs, {
        isArchived: opts.isArchived,
        errors,
      })
      const plans = await plan(ctx, collection, targets, { expiry, errors })
      const ids = read.map((input) => input?.id)
      const audit = withObjectIds(
        touched,
        plans.map((p) => p.after.id),
      )
      return withFailureDetails(audit, () =>
        commit(deps, ctx, { ids, errors, audit }, async (tx) => {
          const failed: ItemErrors = new Map()
          // In the order of the objects' IDs: concurrent batches over the same objects then lock
          // them in one order and wait for each other instead of deadlocking.
          const byId = [...plans].sort((a, b) => (a.after.id < b.after.id ? -1 : 1))
          for (const item of byId) {
            const error = await applyUpdate(tx, { deps, ctx, collection }, item)
            if (error !== undefined) failed.set(item.index, error)
          }
          return { failed, audit }
        }),
      )
    })
  }

  return { updateMany }
}
