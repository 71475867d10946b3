// src/core/analysis/recognizers/ssn.ts: US Social Security numbers under the issuance rules (SSA)
import { SSN_WORDS, THING_WORDS } from '../context-words.ts'
import { eachMatch, type Recognizer } from '../recognizer.ts'
import { clamp, hasWordBefore } from '../text.ts'

const CANDIDATE = /(?<![\w-])(\d{3})([- ]?)(\d{2})\2(\d{4})(?![\w]|-\d)/g

/** Numbers printed on sample cards and in advertising (SSA), never a person's. */
const NEVER_ISSUED = new Set(['078051120', '219099999'])

export function isIssuableSsn(area: string, group: string, serial: string): boolean {
  const a = Number(area)
  if (a === 0 || a === 666 || a >= 900) return false
  if (group === '00' || serial === '0000') return false
  return !NEVER_ISSUED.has(`${area}${group}${serial}`)
}

const BASE: Readonly<Record<string, number>> = { '-': 0.6, ' ': 0.5, '': 0.3 }

export const recognizeSsns: Recognizer = ({ text }) =>
  eachMatch(CANDIDATE, text, (match) => {
    const [raw, area = '', sep = '', group = '', serial = ''] = match
    if (!isIssuableSsn(area, group, serial)) return undefined
    if (/^(\d)\1+$/.test(`${area}${group}${serial}`)) return undefined
    // "Order 123-45-6789 shipped": a word naming a thing before the number makes it its identifier.
    const context =
      (hasWordBefore(text, match.index, SSN_WORDS, 5) ? 0.35 : 0) -
      (hasWordBefore(text, match.index, THING_WORDS, 2) ? 0.3 : 0)
    const score = (BASE[sep] ?? 0.3) + context
    return {
      type: 'SSN',
      begin: match.index,
      end: match.index + raw.length,
      score: clamp(score),
      normalized: `${area}-${group}-${serial}`,
    }
  })
