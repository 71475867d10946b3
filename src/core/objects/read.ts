// src/core/objects/read.ts: what a read returns: `props` (with transformers), `unsafe`, `show_builtins`
import {
  BUILTIN_PROPERTIES,
  findProperty,
  type Property,
  type StoredCollection,
  userProperty,
} from '../collections/collection.ts'
import { propertyNotFound } from '../collections/errors.ts'
import type { ResolvedTransformer, TypeRegistry } from '../data-types/registry.ts'
import { invalidRequest, VaultError } from '../errors.ts'
import type { PolicyCheck } from '../iam/evaluate.ts'
import { propertyResources } from '../iam/policy.ts'

export type ReadRequest = Readonly<{
  props: readonly string[] | undefined
  options: readonly string[]
}>

export type ReadItem = Readonly<{
  /** The key in the answer, spelled as requested (`ssn.mask`). */
  key: string
  property: Property
  transformer?: Readonly<{ name: string; resolved: ResolvedTransformer }>
}>

export type ReadPlan = Readonly<{ items: readonly ReadItem[]; isArchived: boolean }>

function transformerNotFound(collection: string, property: string, name: string) {
  const shown = name.slice(0, 100)
  return new VaultError('propertyNotFound', {
    message: `The transformer ${shown} is not defined for property ${property}.`,
    context: { collection, property: `${property}.${shown}` },
  })
}

function planItem(collection: StoredCollection, types: TypeRegistry, key: string): ReadItem {
  const dot = key.indexOf('.')
  const name = dot < 0 ? key : key.slice(0, dot)
  const property = findProperty(collection, name)
  if (property === undefined) throw propertyNotFound(collection.name, name)
  if (dot < 0) return { key, property }
  const transformerName = key.slice(dot + 1)
  const resolved = types.transformer(property.dataType, transformerName)
  if (resolved === undefined) throw transformerNotFound(collection.name, name, transformerName)
  return { key, property, transformer: { name: transformerName, resolved } }
}

function unsafeItems(collection: StoredCollection, showBuiltins: boolean): ReadItem[] {
  const builtins = BUILTIN_PROPERTIES.filter((p) => showBuiltins || p.name === 'id').map(
    (p): Property => ({
      ...p,
      isBuiltin: true,
      createdAt: collection.createdAt,
      modifiedAt: collection.createdAt,
    }),
  )
  const user = collection.properties.map(userProperty)
  return [...builtins, ...user].map((property) => ({ key: property.name, property }))
}

/**
 * Exactly one of `props` and `unsafe` (400 ERR1012 otherwise); `show_builtins` only with
 * `unsafe`; unknown properties and transformers are 404 ERR3004 (data-model §5.1).
 */
export function planRead(
  collection: StoredCollection,
  request: ReadRequest,
  types: TypeRegistry,
): ReadPlan {
  const isUnsafe = request.options.includes('unsafe')
  const showBuiltins = request.options.includes('show_builtins')
  const props = request.props ?? []
  const isArchived = request.options.includes('archived')
  if (isUnsafe && props.length > 0)
    throw invalidRequest('The unsafe option cannot be combined with props.', 'props')
  if (showBuiltins && !isUnsafe)
    throw invalidRequest('The show_builtins option requires the unsafe option.', 'options')
  if (isUnsafe) return { items: unsafeItems(collection, showBuiltins), isArchived }
  if (props.length === 0)
    throw invalidRequest('Either props or the unsafe option is required.', 'props')
  const keys = [...new Set(props)]
  return { items: keys.map((key) => planItem(collection, types, key)), isArchived }
}

/** `read` on each item: the raw property, or the transformation binding (iam.md §4). */
export function readChecks(collection: StoredCollection, plan: ReadPlan): PolicyCheck[] {
  return plan.items.map((item) => ({
    operation: 'read',
    resources: propertyResources({
      collection: collection.name,
      property: item.property.name,
      type: item.property.dataType,
      transformer: item.transformer?.name,
      isArchived: plan.isArchived,
    }),
  }))
}
