// src/core/collections/collections.ts: the collections service: control operations on the store, cached reads for data operations

import { randomUUID } from 'node:crypto'
import type { AuditService } from '../audit/audit.ts'
import {
  type AuditDetails,
  type Audited,
  NO_DETAILS,
  withFailureDetails,
  withProperties,
} from '../audit/details.ts'
import type { ControlCache } from '../cache.ts'
import type { RequestContext } from '../context.ts'
import type { TypeRegistry } from '../data-types/registry.ts'
import { VaultError } from '../errors.ts'
import type { Repos, Store } from '../store.ts'
import type { Micros } from '../time.ts'
import type { CollectionInput, StoredCollection } from './collection.ts'
import { type CollectionDataPort, isIndexChange } from './data-port.ts'
import { alreadyExists, collectionNotFound, namedDetails } from './errors.ts'
import { installCollectionsFile } from './file.ts'
import { isValidName } from './names.ts'
import { type PlanEnv, planCollection, planUpdate, type UpdatePlan } from './plan.ts'
import { createPropertyOperations } from './properties.ts'

export type CollectionsDeps = {
  readonly store: Store
  readonly types: TypeRegistry
  readonly cache: ControlCache
  readonly audit: AuditService
  readonly data: CollectionDataPort
  /** SVC_FEATURES_ENCRYPTION: when off, properties are stored plain and report is_encrypted false. */
  readonly isEncryptionEnabled: boolean
}

const byName = (a: StoredCollection, b: StoredCollection) =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : 0

export function createCollectionsService(deps: CollectionsDeps) {
  let cached: ReadonlyMap<string, StoredCollection> = new Map()

  const env = (ctx: RequestContext): PlanEnv => ({
    types: deps.types,
    isEncryptionEnabled: deps.isEncryptionEnabled,
    now: ctx.now,
    newId: randomUUID,
  })

  /**
   * Runs a schema change and its audit record (naming `details`) in one transaction, then bumps
   * the generation so every node (this one at once) reloads its control-data cache.
   */
  async function write<T>(
    ctx: RequestContext,
    details: AuditDetails,
    work: (tx: Repos) => Promise<T>,
  ): Promise<T> {
    const result = await deps.audit.transaction(ctx, details, work)
    await deps.cache.changed()
    return result
  }

  /** Locks the collection row for the rest of the transaction and marks it modified; 404 if gone. */
  async function touch(tx: Repos, ctx: RequestContext, collection: StoredCollection) {
    const isThere = await tx.collections.touch(collection.id, ctx.now)
    if (!isThere) throw collectionNotFound(collection.name)
  }

  /** Names that break the naming rules cannot exist; they never reach the database. */
  async function find(name: string): Promise<StoredCollection | undefined> {
    return isValidName(name) ? deps.store.collections.get(name) : undefined
  }

  async function existing(name: string): Promise<StoredCollection> {
    const collection = await find(name)
    if (collection === undefined) throw collectionNotFound(name)
    return collection
  }

  async function get(_ctx: RequestContext, name: string): Promise<StoredCollection | undefined> {
    return find(name)
  }

  /** The collection, its record naming it (also when it is not found). */
  async function getOrThrow(
    _ctx: RequestContext,
    name: string,
  ): Promise<Audited<StoredCollection>> {
    const audit = namedDetails(NO_DETAILS, name)
    return withFailureDetails(audit, async () => ({ value: await existing(name), audit }))
  }

  async function create(ctx: RequestContext, input: CollectionInput): Promise<StoredCollection> {
    const audit = namedDetails(NO_DETAILS, input.name)
    return withFailureDetails(audit, () => {
      const planned = planCollection(input, env(ctx))
      return write(ctx, audit, async (tx) => {
        const created = await tx.collections.insert(planned)
        if (created === undefined) throw alreadyExists(input.name)
        return created
      })
    })
  }

  async function apply(
    tx: Repos,
    ctx: RequestContext,
    existing: StoredCollection,
    plan: UpdatePlan,
  ) {
    await touch(tx, ctx, existing)
    const needsValues = plan.added.some((p) => !p.isNullable)
    if (needsValues && (await deps.data.hasObjects(tx, existing))) {
      const property = plan.added.find((p) => !p.isNullable)?.name ?? ''
      throw new VaultError('invalidRequest', {
        message: `The property ${property} must be nullable: the collection holds objects.`,
        context: { collection: existing.name, property },
      })
    }
    for (const property of plan.added) {
      if (!(await tx.collections.insertProperty(existing.id, property))) {
        throw alreadyExists(existing.name, property.name)
      }
    }
    for (const change of plan.changed) {
      await tx.collections.updateProperty(change.after)
      if (isIndexChange(change)) await deps.data.onIndexChanged(tx, existing, change.after, change)
    }
  }

  async function update(ctx: RequestContext, name: string, input: CollectionInput) {
    if (input.name !== name) {
      throw new VaultError('invalidRequest', {
        message: 'The collection name in the body must equal the collection name in the path.',
        context: { collection: name.slice(0, 100) },
      })
    }
    const named = namedDetails(NO_DETAILS, name)
    return withFailureDetails(named, async () => {
      const before = await existing(name)
      const plan = planUpdate(before, input, env(ctx))
      const touched = [...plan.added, ...plan.changed.map((c) => c.after)]
      const audit = withProperties(
        named,
        touched.map((property) => property.name),
      )
      return withFailureDetails(audit, async () => {
        if (plan.added.length + plan.changed.length === 0) return before
        await write(ctx, audit, (tx) => apply(tx, ctx, before, plan))
        return existing(name)
      })
    })
  }

  async function remove(ctx: RequestContext, name: string): Promise<void> {
    const audit = namedDetails(NO_DETAILS, name)
    await withFailureDetails(audit, async () => {
      const before = await existing(name)
      await write(ctx, audit, async (tx) => {
        // The collection row first, as every other schema change takes it: two changes of one
        // collection then wait for each other instead of locking its rows in opposite orders.
        await touch(tx, ctx, before)
        await deps.data.deleteCollectionData(tx, before)
        if (!(await tx.collections.delete(before.id))) throw collectionNotFound(name)
      })
    })
  }

  return {
    async list(_ctx: RequestContext): Promise<StoredCollection[]> {
      return (await deps.store.collections.list()).sort(byName)
    },
    get,
    getOrThrow,
    create,
    update,
    delete: remove,
    ...createPropertyOperations({ ...deps, existing, write, touch, env }),
    /** Stateless nodes, at start: the collections of collections.pvschema; its problems, if any. */
    installFile: (text: string, now: Micros): Promise<string[]> =>
      installCollectionsFile(deps.store, text, {
        types: deps.types,
        isEncryptionEnabled: deps.isEncryptionEnabled,
        now,
        newId: randomUUID,
      }),
    /** Cache loader: every collection, for data operations on this node. */
    async load(): Promise<void> {
      const collections = await deps.store.collections.list()
      cached = new Map(collections.map((c) => [c.name, c]))
    },
    /** Data operations read collections from this node's cache, never the store. */
    getCached: (name: string): StoredCollection | undefined => cached.get(name),
    getCachedOrThrow(name: string): StoredCollection {
      const collection = cached.get(name)
      if (collection === undefined) throw collectionNotFound(name)
      return collection
    },
  }
}

export type CollectionsService = ReturnType<typeof createCollectionsService>
