// src/core/values/sealing.ts: how encrypted property values are sealed in the objects table

import type { Envelope, SealRequest } from '../crypto/envelope.ts'
import { ownValue } from '../own.ts'

/**
 * A property value is sealed under the `property` purpose as the UTF-8 of its normalized JSON,
 * bound to ('object', collection, object id, property): a sealed value cannot be moved to another
 * object, property or collection (DESIGN: property values bound by associated data). The row's
 * `sealed` column maps property → base64 of the sealed bytes.
 */
export function valueBinding(collection: string, objectId: string, property: string): string[] {
  return ['object', collection, objectId, property]
}

export type SealedMap = Record<string, string>

export type ObjectValues = Readonly<{
  collection: string
  objectId: string
  values: Readonly<Record<string, unknown>>
}>

/** The seal requests of many objects' values, in object then property order. */
export function sealRequestsOf(objects: readonly ObjectValues[]): SealRequest[] {
  return objects.flatMap((o) =>
    Object.entries(o.values).map(([property, value]) => ({
      plaintext: Buffer.from(JSON.stringify(value), 'utf8'),
      binding: valueBinding(o.collection, o.objectId, property),
    })),
  )
}

/** Each object's `sealed` map, from the sealed values of `sealRequestsOf(objects)`. */
export function sealedMapsOf(objects: readonly ObjectValues[], sealed: readonly Buffer[]) {
  let next = 0
  return objects.map((o) => {
    const map: SealedMap = {}
    for (const property of Object.keys(o.values))
      map[property] = (sealed[next++] as Buffer).toString('base64')
    return map
  })
}

/** Seals the values of many objects in one batch; returns each object's `sealed` map. */
export function sealObjects(envelope: Envelope, objects: readonly ObjectValues[]): SealedMap[] {
  return sealedMapsOf(objects, envelope.sealAll('property', sealRequestsOf(objects)))
}

export type SealedObject = Readonly<{
  collection: string
  objectId: string
  sealed: SealedMap
  properties?: readonly string[]
}>

/**
 * Opens the sealed values of many objects in one batch (only `properties` when given). A value
 * that fails authentication throws DecryptionError: stored data was tampered with.
 */
export function openObjects(
  envelope: Envelope,
  objects: readonly SealedObject[],
): Record<string, unknown>[] {
  const wanted = objects.map((o) =>
    (o.properties ?? Object.keys(o.sealed)).filter(
      (property) => ownValue(o.sealed, property) !== undefined,
    ),
  )
  const requests = objects.flatMap((o, i) =>
    (wanted[i] ?? []).map((property) => ({
      sealed: Buffer.from(o.sealed[property] as string, 'base64'),
      binding: valueBinding(o.collection, o.objectId, property),
    })),
  )
  const plain = envelope.openAll('property', requests)
  let next = 0
  return objects.map((_, i) => {
    const values: Record<string, unknown> = {}
    for (const property of wanted[i] ?? [])
      values[property] = JSON.parse((plain[next++] as Buffer).toString('utf8'))
    return values
  })
}
