// src/core/analysis/recognizers/phone.ts: phone numbers, validated by libphonenumber-js for the country they name or the text's language
import {
  type CountryCode,
  type PhoneNumber,
  parsePhoneNumberFromString,
} from 'libphonenumber-js/max'
import { PHONE_WORDS, SERVICE_LINE_WORDS, THING_WORDS } from '../context-words.ts'
import type { Language } from '../detector.ts'
import { eachMatch, type Recognizer } from '../recognizer.ts'
import { clamp, hasWordAfter, hasWordBefore, isDigit, onlyDigits } from '../text.ts'

/** Countries whose national formats are tried, by language of the text. */
const COUNTRIES: Readonly<Record<Language, readonly CountryCode[]>> = {
  en: ['US', 'GB', 'AU', 'IN', 'CA', 'IE'],
  es: ['ES', 'MX', 'AR', 'CO', 'US', 'BR'],
  de: ['DE', 'AT', 'CH'],
  fr: ['FR', 'BE', 'CH', 'CA'],
}

// Starts after no word character, spans 7–20 characters of digits and separators.
const CANDIDATE = /(?<![\w+])(?:\+|00)?\(?\d[\d \u00a0()./-]{5,18}\d(?!\w)/g
// A date, alone or before a time: `2024-05-01 10`, `06.12.1998` (but `06.14.98.18.50` is a phone).
const DATE_LIKE =
  /^(?:\d{4}[-./]\d{1,2}[-./]\d{1,2}|\d{1,2}[-./]\d{1,2}[-./](?:\d{4}|\d{2}))(?:$|[ T])/
const DOTTED_QUAD = /^\d{1,3}(?:\.\d{1,3}){3}$/
const SSN_SHAPE = /^\d{3}[- ]\d{2}[- ]\d{4}$/
const AREA_SLASH = /^0\d{1,5} ?\/ ?\d[\d -]{2,12}$/

/** Countries whose national numbers are written without a trunk prefix (no leading 0). */
const NO_TRUNK_PREFIX = new Set<CountryCode>(['US', 'CA', 'ES', 'MX', 'CO', 'IT', 'PT', 'DK', 'NO'])
const OTHER_COUNTRIES = [...new Set(Object.values(COUNTRIES).flat())]

type Parsed = Readonly<{
  parsed: PhoneNumber
  international: boolean
  isForeign: boolean
  /** Dialable in length and country code, but outside the plan's assigned ranges. */
  isUnassigned: boolean
}>

/** Numbers of organisations, not persons: free, shared-cost, premium and single-number services. */
const SERVICE_TYPES = new Set(['TOLL_FREE', 'SHARED_COST', 'PREMIUM_RATE', 'UAN'])

/**
 * A service number of the text's own country (a foreign reading of the digits, or one in a
 * language only guessed, may be one by chance: `030 12345678` is a UK UAN and a Berlin number).
 */
const isServiceNumber = (r: Parsed, isLanguageGuessed: boolean) =>
  !r.isUnassigned &&
  !r.isForeign &&
  !isLanguageGuessed &&
  SERVICE_TYPES.has(r.parsed.getType() ?? '')

const isSeparator = (c: string | undefined) => c === ' ' || c === '.' || c === '-'

const isInternational = (candidate: string) =>
  candidate.startsWith('+') || candidate.startsWith('00')

/**
 * Parses as international, else in the language's countries, else (less likely; only when asked,
 * parsing is the costly step) in the others.
 */
function parse(candidate: string, language: Language, tryForeign: boolean): Parsed | undefined {
  const international = isInternational(candidate)
  const spelled = candidate.replace('/', ' ')
  if (international) {
    const parsed = parsePhoneNumberFromString(spelled.replace(/^00/, '+'))
    if (parsed === undefined || !parsed.isPossible()) return undefined
    // `+44 7700 900123`: a number written in full international form is a phone number even in a
    // range the plan keeps unassigned (drama numbers, new ranges the metadata does not know yet).
    return { parsed, international, isForeign: false, isUnassigned: !parsed.isValid() }
  }
  const own = COUNTRIES[language]
  const countries = tryForeign ? [...own, ...OTHER_COUNTRIES.filter((c) => !own.includes(c))] : own
  for (const country of countries) {
    const parsed = parsePhoneNumberFromString(spelled, country)
    if (!parsed?.isValid()) continue
    // Where numbers are dialled with a trunk 0, a national number without it is not one.
    if (!NO_TRUNK_PREFIX.has(country) && !/^[0(]/.test(candidate)) continue
    return { parsed, international, isForeign: !own.includes(country), isUnassigned: false }
  }
  return undefined
}

/** How much the spelling looks like a phone number: groups, a trunk 0, parentheses. */
function shapeScore(candidate: string, international: boolean): number {
  if (international) return 0.75
  const grouped = /[ ().-]/.test(candidate)
  if (/^\(\d/.test(candidate) || (/^0\d/.test(candidate) && grouped)) return 0.55
  return grouped ? 0.5 : 0.35
}

export const recognizePhones: Recognizer = ({ text, language, isLanguageGuessed }) =>
  eachMatch(CANDIDATE, text, (match) => {
    const raw = match[0].replace(/[ .-]+$/, '')
    const begin = match.index
    const digits = onlyDigits(raw)
    if (digits.length < 7 || digits.length > 15) return undefined
    if (DATE_LIKE.test(raw) || DOTTED_QUAD.test(raw) || SSN_SHAPE.test(raw)) return undefined
    // A slash only between a German-style area code and the number: `030/1234567`, `089 / 123 45`.
    if (raw.includes('/') && !AREA_SLASH.test(raw)) return undefined
    // A piece of a longer chain of digit groups (an IBAN, a card) is not a number of its own.
    const end = begin + raw.length
    if (isSeparator(text[begin - 1]) && isDigit(text[begin - 2])) return undefined
    if (isSeparator(text[end]) && isDigit(text[end + 1])) return undefined
    // Part of an identifier: `ORD-2024-…`, `#123…`, `/orders/123…`.
    const before = text[begin - 1]
    if (before !== undefined && /[-#/:=_]/.test(before) && /\w/.test(text[begin - 2] ?? ''))
      return undefined
    if (before === '#') return undefined
    const hasContext = hasWordBefore(text, begin, PHONE_WORDS, 4)
    const context = (hasContext ? 0.3 : 0) - (hasWordBefore(text, begin, THING_WORDS, 3) ? 0.4 : 0)
    const shape = shapeScore(raw, isInternational(raw))
    // A candidate that cannot reach the report threshold is not worth parsing.
    if (shape + context < 0.5) return undefined
    // A foreign number costs 0.1, so without context it stays below the threshold: skip those.
    const result = parse(raw, language, hasContext || isLanguageGuessed)
    if (result === undefined) return undefined
    const penalty =
      (result.isForeign && !isLanguageGuessed ? 0.1 : 0) +
      (result.isUnassigned ? 0.2 : 0) +
      (isServiceNumber(result, isLanguageGuessed) ? 0.4 : 0) +
      (hasWordBefore(text, begin, SERVICE_LINE_WORDS, 4) ||
      hasWordAfter(text, begin + raw.length, SERVICE_LINE_WORDS, 2)
        ? 0.3
        : 0)
    const score = shape + context - penalty
    return {
      type: 'PHONE',
      begin,
      end: begin + raw.length,
      score: clamp(score),
      normalized: result.parsed.number,
    }
  })
