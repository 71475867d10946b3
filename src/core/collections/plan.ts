// src/core/collections/plan.ts: pure decisions: a requested collection, property or update → what to store, or the 4xx
import type { TypeRegistry } from '../data-types/registry.ts'
import { VaultError } from '../errors.ts'
import type { Micros } from '../time.ts'
import {
  type CollectionInput,
  PROTOTYPES,
  type PropertyInput,
  type Prototype,
  type StoredCollection,
  type StoredProperty,
} from './collection.ts'
import { alreadyExists } from './errors.ts'
import { checkCollectionName, checkCombinedLength, checkPropertyName, nameKey } from './names.ts'
import { changeAttributes, checkBuiltinListed, hasChanged, newAttributes } from './rules.ts'

export type PlanEnv = Readonly<{
  types: TypeRegistry
  isEncryptionEnabled: boolean
  now: Micros
  newId: () => string
}>

export type PropertyChange = Readonly<{ before: StoredProperty; after: StoredProperty }>
export type UpdatePlan = Readonly<{ added: StoredProperty[]; changed: PropertyChange[] }>

/** `id` and `_…` name built-ins: requests may list them only as defined. */
const isBuiltinName = (name: string) => name === 'id' || name.startsWith('_')

function checkPrototype(input: CollectionInput): Prototype {
  const prototype = PROTOTYPES.find((p) => p === input.type)
  if (prototype !== undefined) return prototype
  throw new VaultError('invalidRequest', {
    message: `The schema prototype of collection ${input.name} is unknown: use PERSONS or DATA.`,
    context: { collection: input.name, type: input.type.slice(0, 40) },
  })
}

/** A user property to store; names and combined length are checked by the caller. */
function storedProperty(collection: string, input: PropertyInput, env: PlanEnv): StoredProperty {
  if (env.types.get(input.dataType) === undefined) {
    throw new VaultError('dataTypeNotFound', {
      message: `The data type of property ${input.name} is not found.`,
      context: { collection, property: input.name, data_type: input.dataType.slice(0, 100) },
    })
  }
  const where = { collection, property: input.name }
  const support = env.types.indexSupport(input.dataType)
  const attributes = newAttributes(input, support, {
    where,
    isEncryptionEnabled: env.isEncryptionEnabled,
  })
  const times = { createdAt: env.now, modifiedAt: env.now }
  return { id: env.newId(), name: input.name, dataType: input.dataType, ...attributes, ...times }
}

/** 409 when two names of one list differ only by case (or not at all). */
function checkDistinct(collection: string, names: readonly string[]): void {
  const seen = new Set<string>()
  for (const name of names) {
    if (seen.has(nameKey(name))) throw alreadyExists(collection, name)
    seen.add(nameKey(name))
  }
}

/** Splits listed built-ins (checked, then dropped) from user properties (names checked). */
function userProperties(collection: string, inputs: readonly PropertyInput[]): PropertyInput[] {
  return inputs.filter((input) => {
    if (!isBuiltinName(input.name)) {
      checkPropertyName(collection, input.name)
      return true
    }
    checkBuiltinListed(input, { collection, property: input.name })
    return false
  })
}

/** Add collection (§1.2): 400 names/prototype/attributes → 404 data type → 409 duplicate names. */
export function planCollection(input: CollectionInput, env: PlanEnv): StoredCollection {
  checkCollectionName(input.name)
  const type = checkPrototype(input)
  const inputs = userProperties(input.name, input.properties)
  checkCombinedLength(
    input.name,
    inputs.map((p) => p.name),
    'collectionNameInvalid',
  )
  const properties = inputs.map((p) => storedProperty(input.name, p, env))
  checkDistinct(
    input.name,
    inputs.map((p) => p.name),
  )
  const times = { createdAt: env.now, modifiedAt: env.now }
  return { id: env.newId(), name: input.name, type, properties, ...times }
}

/** Add property (§2.2): naming rules, combined length, type and attributes; 409 on a clash. */
export function planProperty(collection: StoredCollection, input: PropertyInput, env: PlanEnv) {
  checkPropertyName(collection.name, input.name)
  checkCombinedLength(collection.name, [input.name], 'invalidRequest')
  const property = storedProperty(collection.name, input, env)
  const clash = collection.properties.some((p) => nameKey(p.name) === nameKey(input.name))
  if (clash) throw alreadyExists(collection.name, input.name)
  return property
}

/** The attribute change of one existing property under the seed's rules, if anything changes. */
export function planChange(
  collection: string,
  before: StoredProperty,
  requested: Parameters<typeof changeAttributes>[1],
  env: PlanEnv,
): PropertyChange | undefined {
  const where = { collection, property: before.name }
  const support = env.types.indexSupport(before.dataType)
  const next = changeAttributes(before, requested, { where, dataType: before.dataType, support })
  if (!hasChanged(before, next)) return undefined
  return { before, after: { ...before, ...next, modifiedAt: env.now } }
}

/**
 * Update collection (§1.4): new properties are added, existing ones change only as the seed
 * allows (`is_encrypted` and the data type are ignored), properties left out are kept.
 */
export function planUpdate(
  existing: StoredCollection,
  input: CollectionInput,
  env: PlanEnv,
): UpdatePlan {
  if (input.type !== existing.type) {
    throw new VaultError('invalidRequest', {
      message: `The schema prototype of collection ${existing.name} cannot change.`,
      context: { collection: existing.name },
    })
  }
  const inputs = userProperties(existing.name, input.properties)
  checkDistinct(
    existing.name,
    inputs.map((p) => p.name),
  )
  const added: StoredProperty[] = []
  const changed: PropertyChange[] = []
  for (const p of inputs) {
    const current = existing.properties.find((q) => nameKey(q.name) === nameKey(p.name))
    if (current === undefined) added.push(planProperty(existing, p, env))
    else if (current.name !== p.name) throw alreadyExists(existing.name, p.name)
    else {
      const { isEncrypted: _ignored, ...requested } = p
      const change = planChange(existing.name, current, requested, env)
      if (change !== undefined) changed.push(change)
    }
  }
  return { added, changed }
}
