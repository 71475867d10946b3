// src/core/objects/scan.ts: the checks a search makes on decrypted values (like globs, scanned equality)
import type { ObjectsDeps } from './deps.ts'
import type { Verify } from './paging.ts'
import { openRecords } from './records.ts'
import { type LikeCheck, type ScanCheck, scanKey } from './search.ts'

/**
 * Keeps the rows whose decrypted values pass every check: each `like` glob (n-grams only narrow
 * the candidates) and each scanned equality (data-model §5.2). Only the checked properties are
 * decrypted, each row's once.
 */
export function valueVerifier(
  deps: Pick<ObjectsDeps, 'envelope'>,
  likes: readonly LikeCheck[],
  scans: readonly ScanCheck[],
): Verify {
  const properties = [...new Set([...likes, ...scans].map((check) => check.property))]
  return (rows) => {
    const opened = openRecords(deps.envelope, rows, properties)
    return rows.filter((_, i) => {
      const values = opened[i] ?? {}
      return (
        scans.every((s) => s.keys.has(scanKey(values[s.property], s.isJson))) &&
        likes.every((l) => {
          const value = values[l.property]
          return typeof value === 'string' && l.pattern.matches(value)
        })
      )
    })
  }
}
