// src/core/analysis/recognizers/card.ts: payment card numbers: issuer prefix (ISO/IEC 7812) and Luhn check digit

import { isLuhnValid } from '../../data-types/financial.ts'
import { CARD_WORDS } from '../context-words.ts'
import { eachMatch, type Recognizer } from '../recognizer.ts'
import { clamp, hasWordBefore, onlyDigits } from '../text.ts'

const CANDIDATE = /(?<![\w.+-])\d(?:[ -]?\d){12,18}(?![\w]|[-.]\d)/g

/** Issuer ranges of the major networks and the lengths they issue. */
function hasIssuerPrefix(d: string): boolean {
  const two = Number(d.slice(0, 2))
  const four = Number(d.slice(0, 4))
  const n = d.length
  if (d.startsWith('4')) return n === 13 || n === 16 || n === 19
  if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) return n === 16
  if (two === 34 || two === 37) return n === 15
  if (d.startsWith('6011') || d.startsWith('65') || (four >= 6440 && four <= 6499))
    return n >= 16 && n <= 19
  if (four >= 3528 && four <= 3589) return n >= 16 && n <= 19
  if (two === 36 || two === 38 || (four >= 3000 && four <= 3059)) return n >= 14 && n <= 19
  if (two === 62 || two === 50 || (two >= 56 && two <= 69)) return n >= 16 && n <= 19
  return false
}

/** Separators, if any, are one kind and cut the number into the usual groups. */
function isUsualGrouping(raw: string): boolean {
  const groups = raw.split(/[ -]/)
  if (groups.length === 1) return true
  if (new Set(raw.replace(/\d/g, '')).size > 1) return false
  const sizes = groups.map((g) => g.length).join(',')
  return /^(4,)+\d$/.test(`${sizes}`) || sizes === '4,6,5' || sizes === '4,6,4'
}

export const recognizeCards: Recognizer = ({ text }) =>
  eachMatch(CANDIDATE, text, (match) => {
    const raw = match[0]
    const digits = onlyDigits(raw)
    if (!hasIssuerPrefix(digits) || !isLuhnValid(digits) || !isUsualGrouping(raw)) return undefined
    if (/^(\d)\1+$/.test(digits)) return undefined
    const score = 0.85 + (hasWordBefore(text, match.index, CARD_WORDS, 5) ? 0.1 : 0)
    return {
      type: 'CREDIT_DEBIT_NUMBER',
      begin: match.index,
      end: match.index + raw.length,
      score: clamp(score),
      normalized: digits,
    }
  })
