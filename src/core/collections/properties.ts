// src/core/collections/properties.ts: the property operations of the collections service (endpoints §2)
import {
  type AuditDetails,
  type Audited,
  NO_DETAILS,
  withFailureDetails,
} from '../audit/details.ts'
import type { RequestContext } from '../context.ts'
import { VaultError } from '../errors.ts'
import type { Repos } from '../store.ts'
import {
  findProperty,
  type Property,
  type PropertyInput,
  type StoredCollection,
  type StoredProperty,
  userProperty,
} from './collection.ts'
import { type CollectionDataPort, isIndexChange } from './data-port.ts'
import { alreadyExists, namedDetails, propertyNotFound } from './errors.ts'
import { type PlanEnv, planChange, planProperty } from './plan.ts'
import type { RequestedChange } from './rules.ts'

/** What the property operations share with the collection operations of the service. */
export type PropertyOperationsDeps = {
  readonly data: CollectionDataPort
  readonly existing: (name: string) => Promise<StoredCollection>
  readonly write: <T>(
    ctx: RequestContext,
    details: AuditDetails,
    work: (tx: Repos) => Promise<T>,
  ) => Promise<T>
  readonly touch: (tx: Repos, ctx: RequestContext, collection: StoredCollection) => Promise<void>
  readonly env: (ctx: RequestContext) => PlanEnv
}

function builtinRefused(collection: string, name: string, action: string): VaultError {
  return new VaultError('invalidRequest', {
    message: `The built-in property ${name} cannot be ${action}.`,
    context: { collection, property: name },
  })
}

export function createPropertyOperations(deps: PropertyOperationsDeps) {
  /** A user property that may be changed or deleted: 404 if missing, 400 for a built-in. */
  async function userPropertyOrThrow(
    collectionName: string,
    name: string,
    action: string,
  ): Promise<[StoredCollection, StoredProperty]> {
    const collection = await deps.existing(collectionName)
    const property = collection.properties.find((p) => p.name === name)
    if (property !== undefined) return [collection, property]
    if (findProperty(collection, name) !== undefined)
      throw builtinRefused(collection.name, name, action)
    throw propertyNotFound(collection.name, name)
  }

  /** The property, its record naming it and its collection (also when either is not found). */
  async function getProperty(
    _ctx: RequestContext,
    collection: string,
    name: string,
  ): Promise<Audited<Property>> {
    const audit = namedDetails(NO_DETAILS, collection, name)
    return withFailureDetails(audit, async () => {
      const property = findProperty(await deps.existing(collection), name)
      if (property === undefined) throw propertyNotFound(collection, name)
      return { value: property, audit }
    })
  }

  /** §2.2: the name in the body must equal the path; new properties must be nullable once objects exist. */
  async function addProperty(
    ctx: RequestContext,
    collectionName: string,
    name: string,
    input: PropertyInput,
  ) {
    const audit = namedDetails(NO_DETAILS, collectionName, name)
    return withFailureDetails(audit, async () => {
      if (input.name !== name) {
        throw new VaultError('invalidRequest', {
          message: 'The property name in the body must equal the property name in the path.',
          context: { collection: collectionName.slice(0, 100), property: name.slice(0, 100) },
        })
      }
      const collection = await deps.existing(collectionName)
      const property = planProperty(collection, input, deps.env(ctx))
      await deps.write(ctx, audit, async (tx) => {
        await deps.touch(tx, ctx, collection)
        if (!property.isNullable && (await deps.data.hasObjects(tx, collection))) {
          throw new VaultError('invalidRequest', {
            message: `The property ${name} must be nullable: the collection holds objects.`,
            context: { collection: collection.name, property: name },
          })
        }
        if (!(await tx.collections.insertProperty(collection.id, property))) {
          throw alreadyExists(collection.name, name)
        }
      })
      return userProperty(property)
    })
  }

  /** §2.4: the change rules of §1.4; a `name` in the body, if any, must equal the path. */
  async function updateProperty(
    ctx: RequestContext,
    collectionName: string,
    name: string,
    change: RequestedChange & { bodyName?: unknown },
  ): Promise<Property> {
    const audit = namedDetails(NO_DETAILS, collectionName, name)
    return withFailureDetails(audit, async () => {
      const [collection, before] = await userPropertyOrThrow(collectionName, name, 'changed')
      if (typeof change.bodyName === 'string' && change.bodyName !== name) {
        throw new VaultError('invalidRequest', {
          message: 'The property name in the body must equal the property name in the path.',
          context: { collection: collection.name, property: name },
        })
      }
      const planned = planChange(collection.name, before, change, deps.env(ctx))
      if (planned === undefined) return userProperty(before)
      await deps.write(ctx, audit, async (tx) => {
        await deps.touch(tx, ctx, collection)
        await tx.collections.updateProperty(planned.after)
        if (isIndexChange(planned)) {
          await deps.data.onIndexChanged(tx, collection, planned.after, planned)
        }
      })
      return userProperty(planned.after)
    })
  }

  async function deleteProperty(ctx: RequestContext, collectionName: string, name: string) {
    const audit = namedDetails(NO_DETAILS, collectionName, name)
    await withFailureDetails(audit, async () => {
      const [collection, property] = await userPropertyOrThrow(collectionName, name, 'deleted')
      await deps.write(ctx, audit, async (tx) => {
        await deps.touch(tx, ctx, collection)
        await deps.data.deletePropertyData(tx, collection, property)
        if (!(await tx.collections.deleteProperty(property.id))) {
          throw propertyNotFound(collection.name, name)
        }
      })
    })
  }

  return { getProperty, addProperty, updateProperty, deleteProperty }
}
