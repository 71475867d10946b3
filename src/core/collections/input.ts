// src/core/collections/input.ts: request bodies (JSON or PVSchema text) → collection and property inputs
import type {
  CollectionBody,
  PropertyBody,
  UpdatePropertyBody,
} from '../../contract/collections.ts'
import type { CollectionInput, CollectionView, PropertyInput } from './collection.ts'
import { parseOneCollection } from './pvschema/parser.ts'
import type { RequestedChange } from './rules.ts'

/** Seed 2.2: in JSON, an optional attribute of the wrong type is ignored (treated as absent). */
const flag = (value: unknown): boolean | undefined =>
  typeof value === 'boolean' ? value : undefined
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined)

/** A JSON property; `creation_time`, `is_builtin`, `is_readonly` and unknown members are ignored. */
export function readPropertyBody(body: PropertyBody): PropertyInput {
  return {
    name: body.name,
    dataType: body.data_type_name,
    description: text(body.description),
    isEncrypted: flag(body.is_encrypted),
    isIndex: flag(body.is_index),
    isSubstringIndex: flag(body.is_substring_index),
    isNullable: flag(body.is_nullable),
    isUnique: flag(body.is_unique),
  }
}

/**
 * PVSchema text (a PVSchema body, or a JSON body that is a string: the generated client
 * JSON-encodes string bodies) as the JSON body it stands for, so both pass the same schema.
 */
export function pvschemaToBody(text: string): CollectionBody {
  return viewToBody(parseOneCollection(text))
}

/** A parsed PVSchema collection as the JSON body it stands for. */
export function viewToBody(collection: CollectionView): CollectionBody {
  return {
    name: collection.name,
    type: collection.type,
    properties: collection.properties.map((p) => ({
      name: p.name,
      data_type_name: p.dataType,
      description: p.description,
      is_encrypted: p.isEncrypted,
      is_index: p.isIndex,
      is_substring_index: p.isSubstringIndex,
      is_nullable: p.isNullable,
      is_unique: p.isUnique,
    })),
  }
}

/** A collection from a JSON object. */
export function readCollectionBody(body: CollectionBody): CollectionInput {
  return {
    name: body.name,
    type: body.type,
    properties: (body.properties ?? []).map(readPropertyBody),
  }
}

/**
 * Update property (§2.4): an absent description is set to the empty string (seed); `bodyName`
 * is the body's `name`, which must equal the path when present.
 */
export function readUpdatePropertyBody(
  body: UpdatePropertyBody,
): RequestedChange & { bodyName?: string } {
  return {
    bodyName: text(body.name),
    description: text(body.description) ?? '',
    isIndex: flag(body.is_index),
    isSubstringIndex: flag(body.is_substring_index),
    isNullable: flag(body.is_nullable),
    isUnique: flag(body.is_unique),
  }
}
