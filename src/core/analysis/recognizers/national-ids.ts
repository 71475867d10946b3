// src/core/analysis/recognizers/national-ids.ts: passport numbers (in context) and national IDs with check characters
import {
  DNI_WORDS,
  NHS_WORDS,
  NINO_WORDS,
  NIR_WORDS,
  PASSPORT_WORDS,
  PHONE_WORDS,
  TAX_ID_WORDS,
  THING_WORDS,
} from '../context-words.ts'
import type { Detection } from '../detector.ts'
import type { EntityType } from '../entity-types.ts'
import { eachMatch, type Recognizer } from '../recognizer.ts'
import { clamp, hasWordBefore, onlyDigits } from '../text.ts'

function found(type: EntityType, m: RegExpExecArray, score: number, normalized: string): Detection {
  return { type, begin: m.index, end: m.index + m[0].length, score: clamp(score), normalized }
}

/**
 * A plain run of digits with a check digit (1 in 10 or 11 random numbers pass): its own context
 * words raise it, phone or identifier-of-a-thing words before it lower it.
 */
function bareNumberScore(
  text: string,
  at: number,
  rule: Readonly<{ base: number; words: ReadonlySet<string>; boost: number; penalty: number }>,
): number {
  let score = rule.base
  if (hasWordBefore(text, at, rule.words, 5)) score += rule.boost
  if (hasWordBefore(text, at, PHONE_WORDS, 4) || hasWordBefore(text, at, THING_WORDS, 3))
    score -= rule.penalty
  return score
}

// ---- passports: no checksum in the printed number, so only next to a passport word ------------
const PASSPORT = /(?<![\w-])[A-Z0-9]{6,9}(?![\w-])/g

const recognizePassports: Recognizer = ({ text }) =>
  eachMatch(PASSPORT, text, (m) => {
    if (onlyDigits(m[0]).length < 4 || !hasWordBefore(text, m.index, PASSPORT_WORDS, 6))
      return undefined
    return found('PASSPORT_NUMBER', m, 0.85, m[0])
  })

// ---- UK National Insurance number (HMRC prefix rules) --------------------------------------------
const NINO =
  /(?<![\w])([A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]) ?(\d{2}) ?(\d{2}) ?(\d{2}) ?([A-D])(?![\w])/g
const NINO_BAD_PREFIXES = new Set(['BG', 'GB', 'NK', 'KN', 'TN', 'NT', 'ZZ'])

const recognizeNinos: Recognizer = ({ text }) =>
  eachMatch(NINO, text, (m) => {
    if (NINO_BAD_PREFIXES.has(m[1] ?? '')) return undefined
    const score = 0.75 + (hasWordBefore(text, m.index, NINO_WORDS, 5) ? 0.2 : 0)
    return found('UK_NATIONAL_INSURANCE_NUMBER', m, score, m.slice(1, 6).join(''))
  })

// ---- UK NHS number (modulus 11) ------------------------------------------------------------------
const NHS = /(?<![\w-])\d{3}([ -]?)\d{3}\1\d{4}(?![\w]|-\d)/g

export function passesNhsCheck(digits: string): boolean {
  const sum = [...digits.slice(0, 9)].reduce((s, d, i) => s + Number(d) * (10 - i), 0)
  const check = 11 - (sum % 11)
  if (check === 10) return false
  return (check === 11 ? 0 : check) === Number(digits[9])
}

const recognizeNhsNumbers: Recognizer = ({ text }) =>
  eachMatch(NHS, text, (m) => {
    const digits = onlyDigits(m[0])
    if (!passesNhsCheck(digits) || /^(\d)\1+$/.test(digits)) return undefined
    const score = bareNumberScore(text, m.index, {
      base: m[1] === '' ? 0.3 : 0.45,
      words: NHS_WORDS,
      boost: 0.45,
      penalty: 0.3,
    })
    return found('UK_NATIONAL_HEALTH_SERVICE_NUMBER', m, score, digits)
  })

// ---- Spain: DNI/NIF and NIE (control letter, mod 23) ---------------------------------------------
const DNI_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE'
// 12345678Z, 12345678-Z, 12345678 Z, 12.345.678-Z
const DNI = /(?<![\w.-])(\d{2}\.?\d{3}\.?\d{3})[- ]?([A-Z])(?![\w])/g
const NIE = /(?<![\w-])([XYZ])-?(\d{7})-?([A-Z])(?![\w])/g

const recognizeSpanishIds: Recognizer = ({ text }) => [
  ...eachMatch(DNI, text, (m) => {
    const digits = (m[1] ?? '').replace(/\./g, '')
    if (DNI_LETTERS[Number(digits) % 23] !== m[2]) return undefined
    // A spaced letter is a weaker shape: it needs the DNI context to count.
    const base = m[0].includes(' ') ? 0.45 : 0.8
    const score = base + (hasWordBefore(text, m.index, DNI_WORDS, 4) ? 0.15 : 0)
    return found('ES_NIF', m, score, `${digits}${m[2]}`)
  }),
  ...eachMatch(NIE, text, (m) => {
    const number = Number(`${'XYZ'.indexOf(m[1] ?? 'X')}${m[2]}`)
    if (DNI_LETTERS[number % 23] !== m[3]) return undefined
    const score = 0.85 + (hasWordBefore(text, m.index, DNI_WORDS, 4) ? 0.1 : 0)
    return found('ES_NIF', m, score, `${m[1]}${m[2]}${m[3]}`)
  }),
]

// ---- France: NIR (numéro de sécurité sociale, key 97 − n mod 97; Corsica 2A/2B) -------------------
const NIR =
  /(?<![\w])([12]) ?(\d{2}) ?(0[1-9]|1[0-2]|[2-9]\d) ?(\d{2}|2[AB]) ?(\d{3}) ?(\d{3}) ?(\d{2})(?![\w])/g

function mod97(numeric: string): number {
  let rest = 0
  for (const ch of numeric) rest = (rest * 10 + Number(ch)) % 97
  return rest
}

export function passesNirKey(body: string, key: string): boolean {
  const numeric = body.replace('2A', '19').replace('2B', '18')
  return 97 - mod97(numeric) === Number(key)
}

const recognizeNirs: Recognizer = ({ text }) =>
  eachMatch(NIR, text, (m) => {
    const body = m.slice(1, 7).join('')
    if (!passesNirKey(body, m[7] ?? '')) return undefined
    const score = 0.8 + (hasWordBefore(text, m.index, NIR_WORDS, 5) ? 0.15 : 0)
    return found('FR_NIR', m, score, `${body}${m[7]}`)
  })

// ---- Germany: Steuerliche Identifikationsnummer (digit rule and ISO 7064 MOD 11,10) --------------
const TAX_ID = /(?<![\w-])\d{2} ?\d{3} ?\d{3} ?\d{3}(?![\w]|-\d)/g

export function isGermanTaxId(digits: string): boolean {
  if (digits.length !== 11 || digits[0] === '0') return false
  const counts = new Map<string, number>()
  for (const d of digits.slice(0, 10)) counts.set(d, (counts.get(d) ?? 0) + 1)
  const repeated = [...counts.values()].filter((c) => c > 1)
  if (repeated.length !== 1 || (repeated[0] ?? 0) > 3) return false
  let product = 10
  for (const ch of digits.slice(0, 10)) {
    let sum = (Number(ch) + product) % 10
    if (sum === 0) sum = 10
    product = (sum * 2) % 11
  }
  const check = 11 - product
  return (check === 10 ? 0 : check) === Number(digits[10])
}

const recognizeGermanTaxIds: Recognizer = ({ text }) =>
  eachMatch(TAX_ID, text, (m) => {
    const digits = onlyDigits(m[0])
    if (!isGermanTaxId(digits)) return undefined
    const score = bareNumberScore(text, m.index, {
      base: 0.55,
      words: TAX_ID_WORDS,
      boost: 0.35,
      penalty: 0.35,
    })
    return found('DE_TAX_ID', m, score, digits)
  })

export const NATIONAL_ID_RECOGNIZERS: readonly Recognizer[] = [
  recognizePassports,
  recognizeNinos,
  recognizeNhsNumbers,
  recognizeSpanishIds,
  recognizeNirs,
  recognizeGermanTaxIds,
]
