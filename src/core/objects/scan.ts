// src/core/objects/scan.ts: the checks a search makes on decrypted values (like globs, scanned equality)
import { ownValue } from '../own.ts'
import { openObjects, type SealedMap } from '../values/sealing.ts'
import type { ObjectsDeps } from './deps.ts'
import type { Verify } from './paging.ts'
import { type LikeCheck, type ScanCheck, scanKey } from './search.ts'
import type { ScannedRow, SearchCondition } from './store.ts'

type PlainCondition = Extract<SearchCondition, { kind: 'plain' }>
const isPlain = (c: SearchCondition): c is PlainCondition => c.kind === 'plain'

/**
 * A scan's conditions, split: the plain-value ones are checked on each batch's `fields` in the
 * node, before anything is decrypted, and the rest go to the database. In SQL, a condition on a
 * value inside the JSON text has a guessed selectivity, and PostgreSQL then plans a batch as a
 * bitmap scan and sort of the whole rest of the collection instead of a walk of the page index
 * (bench/README.md, "Searches that scan").
 */
export function splitScan(conditions: readonly SearchCondition[]) {
  const plain = conditions.filter(isPlain)
  const inSql = conditions.filter((c) => !isPlain(c))
  /** Whether a row's plain values pass: as in SQL, `null` matches no value. */
  const passes = (row: ScannedRow): boolean => {
    if (plain.length === 0) return true
    const fields: Record<string, unknown> = JSON.parse(row.fields)
    return plain.every((c) => c.values.includes(JSON.stringify(fields[c.property] ?? null)))
  }
  return { inSql, passes }
}

/** What a check needs of a row: where its values are bound, and their sealed form. */
export type Candidate = Readonly<{ collection: string; id: string; sealed: SealedMap }>

export type ValueChecks = Readonly<{
  /** The properties the checks decrypt, and nothing else. */
  properties: readonly string[]
  /** For each candidate, whether its values pass every check. */
  check(candidates: readonly Candidate[]): boolean[]
}>

/**
 * Every `like` glob (n-grams only narrow the candidates) and every scanned equality
 * (data-model §5.2), checked on decrypted values: each candidate's checked properties are
 * decrypted once, the others not at all.
 */
export function valueChecks(
  deps: Pick<ObjectsDeps, 'envelope'>,
  likes: readonly LikeCheck[],
  scans: readonly ScanCheck[],
): ValueChecks {
  const properties = [...new Set([...likes, ...scans].map((check) => check.property))]
  return {
    properties,
    check(candidates) {
      const opened = openObjects(
        deps.envelope,
        candidates.map((c) => ({ ...c, objectId: c.id, properties })),
      )
      return opened.map(
        (values) =>
          scans.every((s) => s.keys.has(scanKey(ownValue(values, s.property), s.isJson))) &&
          likes.every((l) => {
            const value = ownValue(values, l.property)
            return typeof value === 'string' && l.pattern.matches(value)
          }),
      )
    },
  }
}

/**
 * The checks as a filter of whole rows. Each batch first checks the call's signal: a search past
 * its deadline stops decrypting and matching.
 */
export function verifierOf(checks: ValueChecks, signal?: AbortSignal): Verify {
  return (records) => {
    signal?.throwIfAborted()
    const passed = checks.check(
      records.map((r) => ({ collection: r.collection, id: r.id, sealed: JSON.parse(r.sealed) })),
    )
    return records.filter((_, i) => passed[i])
  }
}
