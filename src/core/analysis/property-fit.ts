// src/core/analysis/property-fit.ts: which property of a collection stores values of an entity type

import type { StoredCollection } from '../collections/collection.ts'
import { VaultError } from '../errors.ts'
import { ownValue } from '../own.ts'
import type { EntityType } from './entity-types.ts'
import { ENTITY_SYNONYMS } from './entity-types.ts'

/** Built-in data types that hold each entity type (data-model §7). */
const FITTING_TYPES: Readonly<Partial<Record<EntityType, readonly string[]>>> = {
  NAME: ['NAME', 'CC_HOLDER_NAME'],
  EMAIL: ['EMAIL', 'EMAIL_STRICT'],
  PHONE: ['PHONE_NUMBER'],
  ADDRESS: ['ADDRESS'],
  CREDIT_DEBIT_NUMBER: ['CC_NUMBER'],
  SSN: ['SSN'],
  URL: ['URL'],
  DATE_OF_BIRTH: ['DATE_OF_BIRTH'],
}

/** Whether a property's data type fits: a built-in one above, or a custom type named after the entity. */
function fits(type: EntityType, dataType: string): boolean {
  if (ownValue(FITTING_TYPES, type)?.includes(dataType)) return true
  const upper = dataType.toUpperCase()
  return upper === type || ownValue(ENTITY_SYNONYMS, upper) === type
}

/**
 * The property for each entity type: the one named in `props` (it must exist: 404 ERR3004), else
 * the first property of the collection whose data type fits, else undefined (the type is skipped).
 */
export function propertyFor(
  collection: StoredCollection,
  type: EntityType,
  props: ReadonlyMap<EntityType, string>,
): string | undefined {
  const named = props.get(type)
  if (named !== undefined) {
    if (!collection.properties.some((p) => p.name === named))
      throw new VaultError('propertyNotFound', {
        message: `The collection ${collection.name} has no property ${named}.`,
        context: { collection: collection.name, property: named.slice(0, 100) },
      })
    return named
  }
  return collection.properties.find((p) => fits(type, p.dataType))?.name
}
