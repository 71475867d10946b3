// src/core/analysis/scan.ts: the recognizers of the built-in detector and how overlapping candidates are resolved
import type { Detection } from './detector.ts'
import type { Recognizer, Scan } from './recognizer.ts'
import { recognizeAddresses } from './recognizers/address.ts'
import { recognizeBirthDates } from './recognizers/birth-date.ts'
import { recognizeCards } from './recognizers/card.ts'
import { recognizeEmails } from './recognizers/email.ts'
import { recognizeIbans } from './recognizers/iban.ts'
import { recognizeIps } from './recognizers/ip.ts'
import { recognizeNames } from './recognizers/names.ts'
import { NATIONAL_ID_RECOGNIZERS } from './recognizers/national-ids.ts'
import { recognizePhones } from './recognizers/phone.ts'
import { recognizeSsns } from './recognizers/ssn.ts'
import { recognizeUrls } from './recognizers/url.ts'

export const RECOGNIZERS: readonly Recognizer[] = [
  recognizeEmails,
  recognizeUrls,
  recognizeCards,
  recognizeIbans,
  recognizeSsns,
  ...NATIONAL_ID_RECOGNIZERS,
  recognizeIps,
  recognizeBirthDates,
  recognizePhones,
  recognizeAddresses,
  recognizeNames,
]

/** Candidates below this never win an overlap and are dropped. */
const MIN_SCORE = 0.1
/** Strictly: `a` covers `b` and is longer (equal spans compete on score). */
const contains = (a: Detection, b: Detection) =>
  a.begin <= b.begin && b.end <= a.end && a.end - a.begin > b.end - b.begin
const overlaps = (a: Detection, b: Detection) => a.begin < b.end && b.begin < a.end

/**
 * Keeps the best of overlapping candidates: a confident span that contains others (a URL with an
 * e-mail, an address with a name) wins over them; otherwise the higher score, then the longer.
 */
export function resolve(candidates: readonly Detection[]): Detection[] {
  const live = candidates.filter((c) => c.score >= MIN_SCORE)
  const contained = new Set(
    live.filter((b) => live.some((a) => a.score >= 0.5 && contains(a, b) && a.type !== b.type)),
  )
  const ranked = live
    .filter((c) => !contained.has(c))
    .sort((a, b) => b.score - a.score || b.end - b.begin - (a.end - a.begin))
  const kept: Detection[] = []
  for (const c of ranked) if (!kept.some((k) => overlaps(k, c))) kept.push(c)
  return kept.sort((a, b) => a.begin - b.begin)
}

export function scanAll(scan: Scan): Detection[] {
  return resolve(RECOGNIZERS.flatMap((recognize) => recognize(scan)))
}
