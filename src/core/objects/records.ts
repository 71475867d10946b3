// src/core/objects/records.ts: an object row's value columns, parsed, and the values a write puts in them

import type { StoredCollection } from '../collections/collection.ts'
import type { Envelope } from '../crypto/envelope.ts'
import { ownValue } from '../own.ts'
import type { Micros } from '../time.ts'
import { openObjects, type SealedMap } from '../values/sealing.ts'
import type { DigestMap, Indexing } from './indexing.ts'
import { isIndexed } from './indexing.ts'
import type { ObjectRecord } from './store.ts'

/** The three JSON columns of a row: plain values, sealed values, blind-index digests. */
export type StoredValues = {
  fields: Record<string, unknown>
  sealed: SealedMap
  digests: DigestMap
}

export function parseValues(record: ObjectRecord): StoredValues {
  return {
    fields: JSON.parse(record.fields),
    sealed: JSON.parse(record.sealed),
    digests: JSON.parse(record.digests),
  }
}

/**
 * The rows' encrypted values, opened in one batch: all of them, or only `properties`. A value
 * that fails authentication throws DecryptionError.
 */
export function openRecords(
  envelope: Envelope,
  records: readonly ObjectRecord[],
  properties?: readonly string[],
): Record<string, unknown>[] {
  return openObjects(
    envelope,
    records.map((r) => ({
      collection: r.collection,
      objectId: r.id,
      sealed: JSON.parse(r.sealed) as SealedMap,
      properties,
    })),
  )
}

/** Each row's values: the plain ones, and the encrypted ones (`properties` only, when given). */
export function recordValues(
  envelope: Envelope,
  records: readonly ObjectRecord[],
  properties?: readonly string[],
): Record<string, unknown>[] {
  const opened = openRecords(envelope, records, properties)
  return records.map((r, i) => ({ ...JSON.parse(r.fields), ...opened[i] }))
}

export function isActive(record: Pick<ObjectRecord, 'expiresAt'>, now: Micros): boolean {
  return record.expiresAt === undefined || record.expiresAt > now
}

/** Splits normalized user values into plain ones and those to seal (`is_encrypted`). */
export function splitValues(
  collection: StoredCollection,
  values: Readonly<Record<string, unknown>>,
): { plain: Record<string, unknown>; secret: Record<string, unknown> } {
  const plain: Record<string, unknown> = {}
  const secret: Record<string, unknown> = {}
  for (const property of collection.properties) {
    const value = ownValue(values, property.name)
    if (value === undefined || value === null) continue
    if (property.isEncrypted) secret[property.name] = value
    else plain[property.name] = value
  }
  return { plain, secret }
}

/** Digests of the indexed properties among `changed` (all of them on create), `null` included. */
export function digestsOf(
  indexing: Indexing,
  collection: StoredCollection,
  values: Readonly<Record<string, unknown>>,
  changed?: ReadonlySet<string>,
): DigestMap {
  const digests: DigestMap = {}
  for (const property of collection.properties) {
    if (!isIndexed(property) || (changed !== undefined && !changed.has(property.name))) continue
    const value = ownValue(values, property.name) ?? null
    digests[property.name] = indexing
      .blindDigest(collection.name, property.name, value)
      .toString('base64')
  }
  return digests
}

/**
 * The value columns after a write: `changes` (property → normalized value or null) replace what
 * was stored, newly `sealed` values replace old ciphertexts, `digests` replace old digests.
 */
export function mergeValues(
  stored: StoredValues,
  changes: Readonly<Record<string, unknown>>,
  written: { sealed: SealedMap; plain: Record<string, unknown>; digests: DigestMap },
): StoredValues {
  const fields = { ...stored.fields, ...written.plain }
  const sealed = { ...stored.sealed, ...written.sealed }
  for (const [name, value] of Object.entries(changes)) {
    if (value === null || ownValue(written.plain, name) === undefined) delete fields[name]
    if (value === null || ownValue(written.sealed, name) === undefined) delete sealed[name]
  }
  return { fields, sealed, digests: { ...stored.digests, ...written.digests } }
}

export function serializeValues(
  values: StoredValues,
): Pick<ObjectRecord, 'fields' | 'sealed' | 'digests'> {
  return {
    fields: JSON.stringify(values.fields),
    sealed: JSON.stringify(values.sealed),
    digests: JSON.stringify(values.digests),
  }
}
