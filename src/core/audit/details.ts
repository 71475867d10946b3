// src/core/audit/details.ts: AuditDetails, what a call touched, as an immutable value
import { findProperty, type StoredCollection } from '../collections/collection.ts'

/**
 * What an operation touched, for its audit record: names and ids only, never values. A value:
 * each helper returns a new one, so a service passes its details along (to the transaction
 * that records a write, with the result of a read, on the error of a failure) instead of
 * filling in a shared record.
 */
export type AuditDetails = Readonly<{
  collection: string | undefined
  /** Property names, each once, sorted when recorded. */
  properties: readonly string[]
  /** Object ids, each once, in the order they were touched. */
  objectIds: readonly string[]
  tokenIds: readonly string[]
}>

export const NO_DETAILS: AuditDetails = Object.freeze({
  collection: undefined,
  properties: Object.freeze([]),
  objectIds: Object.freeze([]),
  tokenIds: Object.freeze([]),
})

function union(base: readonly string[], added: Iterable<string>): readonly string[] {
  const seen = new Set(base)
  const out = [...base]
  for (const item of added) {
    if (seen.has(item)) continue
    seen.add(item)
    out.push(item)
  }
  return out.length === base.length ? base : Object.freeze(out)
}

/** `details` naming `collection` and those of `properties` it has (names only, never values). */
export function touchedDetails(
  details: AuditDetails,
  collection: StoredCollection,
  properties: Iterable<string> = [],
): AuditDetails {
  const known = [...properties].filter((name) => findProperty(collection, name) !== undefined)
  return Object.freeze({
    ...details,
    collection: collection.name,
    properties: union(details.properties, known),
  })
}

/** `details` with more property names (already checked against the collection). */
export function withProperties(details: AuditDetails, names: Iterable<string>): AuditDetails {
  return Object.freeze({ ...details, properties: union(details.properties, names) })
}

/** `details` with more object ids, once each. */
export function withObjectIds(details: AuditDetails, ids: Iterable<string>): AuditDetails {
  return Object.freeze({ ...details, objectIds: union(details.objectIds, ids) })
}

/** `details` with `ids` appended as they come (a repeated source names its object again). */
export function appendObjectIds(details: AuditDetails, ids: Iterable<string>): AuditDetails {
  const added = [...ids]
  if (added.length === 0) return details
  return Object.freeze({ ...details, objectIds: Object.freeze([...details.objectIds, ...added]) })
}

/**
 * `base` with what `added` names: its collection if it names one, the others' names and ids
 * once each. A service that calls another's read or write names what that call touched too.
 */
export function mergeDetails(base: AuditDetails, added: AuditDetails): AuditDetails {
  if (added === NO_DETAILS) return base
  // Nothing to merge into: `added` as it is (appended object ids keep their repeats).
  if (base === NO_DETAILS) return added
  return Object.freeze({
    collection: added.collection ?? base.collection,
    properties: union(base.properties, added.properties),
    objectIds: union(base.objectIds, added.objectIds),
    tokenIds: union(base.tokenIds, added.tokenIds),
  })
}

/** The details an error carries to its failure record (any thrown object, not only VaultError). */
const carried = new WeakMap<object, AuditDetails>()

/**
 * `error`, carrying `details` to the call's failure record unless it carries some already (the
 * innermost details name the most: they were built from the outer ones).
 */
export function carryDetails(error: unknown, details: AuditDetails): unknown {
  if (typeof error === 'object' && error !== null && !carried.has(error))
    carried.set(error, details)
  return error
}

/**
 * Runs `work`; an error it throws carries `details` to the call's failure record. Nested calls
 * keep the innermost details, which name the most (they were built from the outer ones).
 */
export async function withFailureDetails<T>(
  details: AuditDetails,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work()
  } catch (error) {
    throw carryDetails(error, details)
  }
}

/**
 * `error`, carrying exactly `details`, whatever it carried: for a call that runs other operations
 * (an action's vault calls, http_call's identifiers, reveal's detokenize) and has merged what
 * each touched, the failed one included, into its own details.
 */
export function replaceDetails(error: unknown, details: AuditDetails): unknown {
  if (typeof error === 'object' && error !== null) carried.set(error, details)
  return error
}

/** `details` with what `error` carries (a nested call that failed named what it touched). */
export function withFailureOf(details: AuditDetails, error: unknown): AuditDetails {
  return mergeDetails(details, failureDetails(error) ?? NO_DETAILS)
}

/** `withFailureDetails` for work that does not wait (parsing, checks, sealing in one batch). */
export function withFailureDetailsSync<T>(details: AuditDetails, work: () => T): T {
  try {
    return work()
  } catch (error) {
    throw carryDetails(error, details)
  }
}

/** The details an error was thrown with, if a service attached them. */
export function failureDetails(error: unknown): AuditDetails | undefined {
  return typeof error === 'object' && error !== null ? carried.get(error) : undefined
}

/** A read's result with what it touched: the HTTP layer records `audit` before sending `value`. */
export type Audited<T> = Readonly<{ value: T; audit: AuditDetails }>
