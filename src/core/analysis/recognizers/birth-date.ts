// src/core/analysis/recognizers/birth-date.ts: dates stated as a person's birth date, in the formats of the four languages
import { BIRTH_WORDS } from '../context-words.ts'
import type { Detection, Language } from '../detector.ts'
import { eachMatch, type Recognizer } from '../recognizer.ts'
import { hasWordAfter, hasWordBefore } from '../text.ts'

const MONTHS: readonly (readonly string[])[] = [
  ['january', 'jan', 'enero', 'ene', 'januar', 'jänner', 'janvier', 'janv'],
  ['february', 'feb', 'febrero', 'februar', 'février', 'fevrier', 'févr', 'fevr'],
  ['march', 'mar', 'marzo', 'märz', 'maerz', 'mars'],
  ['april', 'apr', 'abril', 'abr', 'avril', 'avr'],
  ['may', 'mayo', 'mai'],
  ['june', 'jun', 'junio', 'juni', 'juin'],
  ['july', 'jul', 'julio', 'juli', 'juillet', 'juil'],
  ['august', 'aug', 'agosto', 'ago', 'août', 'aout'],
  ['september', 'sep', 'sept', 'septiembre', 'setiembre', 'septembre'],
  ['october', 'oct', 'octubre', 'oktober', 'okt', 'octobre'],
  ['november', 'nov', 'noviembre', 'novembre'],
  ['december', 'dec', 'diciembre', 'dic', 'dezember', 'dez', 'décembre', 'decembre', 'déc'],
]
const MONTH_OF = new Map(MONTHS.flatMap((names, i) => names.map((n) => [n, i + 1] as const)))
const MONTH = [...MONTH_OF.keys()].sort((a, b) => b.length - a.length).join('|')

const NUMERIC = /(?<![\w./-])(\d{1,4})([./-])(\d{1,2})\2(\d{2,4})(?![\w]|[./-]\d)/g
const DAY_MONTH = new RegExp(
  `(?<![\\p{L}\\d])(\\d{1,2})(?:er|\\.|º|st|nd|rd|th)?[\\s/-](?:de\\s|of\\s)?(${MONTH})\\.?,?[\\s/-](?:de\\s)?(\\d{4}|\\d{2})(?![\\d/.-])`,
  'giu',
)
const MONTH_DAY = new RegExp(
  `(?<![\\p{L}\\d])(${MONTH})\\.?\\s(\\d{1,2})(?:st|nd|rd|th)?,?\\s(\\d{4})(?!\\d)`,
  'giu',
)

const THIS_YEAR = new Date().getUTCFullYear()

function iso(y: number, m: number, d: number): string | undefined {
  const year = y < 100 ? (y + 2000 > THIS_YEAR ? y + 1900 : y + 2000) : y
  if (year < 1900 || year > THIS_YEAR || m < 1 || m > 12 || d < 1) return undefined
  const date = new Date(Date.UTC(year, m - 1, d))
  if (date.getUTCMonth() !== m - 1) return undefined
  return `${year}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`
}

/** Reads a numeric date; English texts try month first, the others day first. */
function numeric(a: string, b: string, c: string, language: Language): string | undefined {
  if (a.length === 4) return c.length <= 2 ? iso(+a, +b, +c) : undefined
  if (a.length > 2) return undefined
  const dayFirst = iso(+c, +b, +a)
  const monthFirst = iso(+c, +a, +b)
  return language === 'en' ? (monthFirst ?? dayFirst) : (dayFirst ?? monthFirst)
}

function birthDate(
  text: string,
  begin: number,
  length: number,
  value: string | undefined,
): Detection | undefined {
  if (value === undefined) return undefined
  // "born on 3 May 1990", "am 03.05.1990 geboren": the birth word comes before or just after.
  const isBirth =
    hasWordBefore(text, begin, BIRTH_WORDS, 4) || hasWordAfter(text, begin + length, BIRTH_WORDS, 4)
  if (!isBirth) return undefined
  return { type: 'DATE_OF_BIRTH', begin, end: begin + length, score: 0.85, normalized: value }
}

export const recognizeBirthDates: Recognizer = ({ text, language }) => [
  ...eachMatch(NUMERIC, text, (m) =>
    birthDate(text, m.index, m[0].length, numeric(m[1] ?? '', m[3] ?? '', m[4] ?? '', language)),
  ),
  ...eachMatch(DAY_MONTH, text, (m) =>
    birthDate(
      text,
      m.index,
      m[0].length,
      iso(+(m[3] ?? 0), MONTH_OF.get((m[2] ?? '').toLowerCase()) ?? 0, +(m[1] ?? 0)),
    ),
  ),
  ...eachMatch(MONTH_DAY, text, (m) =>
    birthDate(
      text,
      m.index,
      m[0].length,
      iso(+(m[3] ?? 0), MONTH_OF.get((m[1] ?? '').toLowerCase()) ?? 0, +(m[2] ?? 0)),
    ),
  ),
]
