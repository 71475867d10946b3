// src/core/collections/collection.ts: collections and properties as core sees them, and the built-in properties
import type { Micros } from '../time.ts'

/** Schema prototypes (data-model §4). */
export const PROTOTYPES = ['PERSONS', 'DATA'] as const
export type Prototype = (typeof PROTOTYPES)[number]

export type PropertyFlags = Readonly<{
  isEncrypted: boolean
  isIndex: boolean
  isSubstringIndex: boolean
  isNullable: boolean
  isUnique: boolean
}>

export type PropertyAttributes = PropertyFlags & Readonly<{ description: string }>

/** A user property as stored. */
export type StoredProperty = PropertyAttributes &
  Readonly<{ id: string; name: string; dataType: string; createdAt: Micros; modifiedAt: Micros }>

/** A collection as stored: user properties only, in the order they were added. */
export type StoredCollection = Readonly<{
  id: string
  name: string
  type: Prototype
  properties: readonly StoredProperty[]
  createdAt: Micros
  modifiedAt: Micros
}>

/** What the PVSchema renderer and the wire need of a property, built-in or not. */
export type PropertyView = PropertyAttributes &
  Readonly<{ name: string; dataType: string; isBuiltin: boolean; isReadonly: boolean }>

export type Property = PropertyView & Readonly<{ createdAt: Micros; modifiedAt: Micros }>

export type CollectionView = Readonly<{
  name: string
  type: string
  properties: readonly PropertyView[]
}>

/**
 * A property as requested (JSON or PVSchema). Optional attributes that were absent, or invalid
 * in JSON (seed 2.2: ignored), are undefined and take their defaults.
 */
export type PropertyInput = Partial<PropertyAttributes> &
  Readonly<{ name: string; dataType: string }>

export type CollectionInput = Readonly<{
  name: string
  type: string
  properties: readonly PropertyInput[]
}>

export const DEFAULT_ATTRIBUTES: PropertyAttributes = {
  description: '',
  isEncrypted: true,
  isIndex: false,
  isSubstringIndex: false,
  isNullable: false,
  isUnique: false,
}

type BuiltinDefinition = Omit<PropertyView, 'isBuiltin'>

const PLAIN = { isEncrypted: false, isIndex: false, isSubstringIndex: false, isUnique: false }

/** data-model §4: both prototypes get the same built-ins, in this order. */
export const BUILTIN_PROPERTIES: readonly BuiltinDefinition[] = [
  {
    name: 'id',
    dataType: 'OBJECT_ID',
    description: 'Object ID.',
    ...PLAIN,
    isUnique: true,
    isIndex: true,
    isNullable: false,
    isReadonly: true,
  },
  {
    name: '_owner_id',
    dataType: 'OBJECT_ID',
    description: 'ID of the owning PERSONS object.',
    ...PLAIN,
    isNullable: true,
    isReadonly: false,
  },
  {
    name: '_owner_collection',
    dataType: 'OBJECT_ID',
    description: 'Collection of the owning object.',
    ...PLAIN,
    isNullable: true,
    isReadonly: false,
  },
  {
    name: '_tenant_id',
    dataType: 'TENANT_ID',
    description: 'Tenant owning the object.',
    ...PLAIN,
    isNullable: true,
    isReadonly: false,
  },
  {
    name: '_creation_time',
    dataType: 'TIMESTAMP',
    description: 'Creation time.',
    ...PLAIN,
    isNullable: false,
    isReadonly: true,
  },
  {
    name: '_modification_time',
    dataType: 'TIMESTAMP',
    description: 'Last modification time.',
    ...PLAIN,
    isNullable: false,
    isReadonly: true,
  },
  {
    name: '_expiration_time',
    dataType: 'TIMESTAMP',
    description: 'When the object becomes archived; null means never.',
    ...PLAIN,
    isNullable: true,
    isReadonly: true,
  },
]

const BUILTIN_BY_NAME = new Map(BUILTIN_PROPERTIES.map((p) => [p.name, p]))

export function builtinProperty(name: string): BuiltinDefinition | undefined {
  return BUILTIN_BY_NAME.get(name)
}

/** Built-in properties of a collection; they share the collection's creation time. */
export function builtinsOf(collection: StoredCollection): Property[] {
  return BUILTIN_PROPERTIES.map((p) => ({
    ...p,
    isBuiltin: true,
    createdAt: collection.createdAt,
    modifiedAt: collection.createdAt,
  }))
}

/** Stored properties are never changed in place (a change reloads the collection): one view each. */
const USER_PROPERTIES = new WeakMap<StoredProperty, Property>()

export function userProperty(stored: StoredProperty): Property {
  let property = USER_PROPERTIES.get(stored)
  if (property === undefined) {
    const { id: _id, ...rest } = stored
    property = { ...rest, isBuiltin: false, isReadonly: false }
    USER_PROPERTIES.set(stored, property)
  }
  return property
}

/** The properties a reader sees: built-ins first when asked for, then user properties. */
export function propertiesOf(collection: StoredCollection, showBuiltins: boolean): Property[] {
  const user = collection.properties.map(userProperty)
  return showBuiltins ? [...builtinsOf(collection), ...user] : user
}

/** Finds a property by exact name, built-in or user. */
export function findProperty(collection: StoredCollection, name: string): Property | undefined {
  const stored = collection.properties.find((p) => p.name === name)
  if (stored !== undefined) return userProperty(stored)
  return builtinsOf(collection).find((p) => p.name === name)
}
