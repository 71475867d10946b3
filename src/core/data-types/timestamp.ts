// src/core/data-types/timestamp.ts: TIMESTAMP parsing (RFC 3339, RFC 1123/822/850, ANSI C, Unix date) and RFC 3339 UTC output
import { type Check, invalid, valid } from './data-type.ts'

type Parts = {
  year: number
  month: number
  day: number
  hour: number
  minute: number
  second: number
  /** Fraction digits after the point, as written (up to nanoseconds). */
  fraction: string
  offsetMinutes: number
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']

/** US zone abbreviations; like Go's time.Parse, other abbreviations are taken as UTC offsets of zero. */
const ZONES: Readonly<Record<string, number>> = {
  EST: -300,
  EDT: -240,
  CST: -360,
  CDT: -300,
  MST: -420,
  MDT: -360,
  PST: -480,
  PDT: -420,
}

const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)'
const LONG_DAY = '(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)'
const MON = '(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)'
const HMS = '(\\d\\d):(\\d\\d):(\\d\\d)'
const ZONE = '([A-Z]{3,5}|[+-]\\d{4})'

function zoneOffset(zone: string): number {
  const numeric = /^([+-])(\d\d)(\d\d)$/.exec(zone)
  if (numeric === null) return ZONES[zone.toUpperCase()] ?? 0
  const minutes = Number(numeric[2]) * 60 + Number(numeric[3])
  return numeric[1] === '-' ? -minutes : minutes
}

/** Go's rule for two-digit years: 69–99 are 19xx, 00–68 are 20xx. */
function fullYear(text: string): number {
  const year = Number(text)
  if (text.length !== 2) return year
  return year >= 69 ? 1900 + year : 2000 + year
}

type Layout = { readonly pattern: RegExp; readonly read: (m: string[]) => Parts }

function named(m: string[], d: number, mo: number, y: number, h: number, z?: number): Parts {
  return {
    year: fullYear(m[y] ?? ''),
    month: MONTHS.indexOf((m[mo] ?? '').toLowerCase()) + 1,
    day: Number(m[d]),
    hour: Number(m[h]),
    minute: Number(m[h + 1]),
    second: Number(m[h + 2] ?? 0),
    fraction: '',
    offsetMinutes: z === undefined ? 0 : zoneOffset(m[z] ?? ''),
  }
}

const LAYOUTS: readonly Layout[] = [
  {
    // RFC 3339
    pattern:
      /^(\d{4})-(\d\d)-(\d\d)[Tt](\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d\d):(\d\d))$/,
    read: (m) => ({
      year: Number(m[1]),
      month: Number(m[2]),
      day: Number(m[3]),
      hour: Number(m[4]),
      minute: Number(m[5]),
      second: Number(m[6]),
      fraction: m[7] ?? '',
      offsetMinutes: m[8] ? 0 : (m[9] === '-' ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11])),
    }),
  },
  // RFC 1123 and 1123Z: Mon, 02 Jan 2006 15:04:05 MST
  {
    pattern: new RegExp(`^${DAY}, (\\d\\d) ${MON} (\\d{4}) ${HMS} ${ZONE}$`, 'i'),
    read: (m) => named(m, 1, 2, 3, 4, 7),
  },
  // RFC 822 and 822Z: 02 Jan 06 15:04 MST
  {
    pattern: new RegExp(`^(\\d\\d) ${MON} (\\d\\d) (\\d\\d):(\\d\\d) ${ZONE}$`, 'i'),
    read: (m) => ({ ...named(m, 1, 2, 3, 4), second: 0, offsetMinutes: zoneOffset(m[6] ?? '') }),
  },
  // RFC 850: Monday, 02-Jan-06 15:04:05 MST
  {
    pattern: new RegExp(`^${LONG_DAY}, (\\d\\d)-${MON}-(\\d\\d) ${HMS} ${ZONE}$`, 'i'),
    read: (m) => named(m, 1, 2, 3, 4, 7),
  },
  // ANSI C: Mon Jan _2 15:04:05 2006
  {
    pattern: new RegExp(`^${DAY} ${MON} ([ \\d]\\d) ${HMS} (\\d{4})$`, 'i'),
    read: (m) => named(m, 2, 1, 6, 3),
  },
  // Unix date: Mon Jan _2 15:04:05 MST 2006
  {
    pattern: new RegExp(`^${DAY} ${MON} ([ \\d]\\d) ${HMS} ${ZONE} (\\d{4})$`, 'i'),
    read: (m) => named(m, 2, 1, 7, 3, 6),
  },
]

export function isCalendarDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false
  const date = new Date(0)
  date.setUTCFullYear(year, month, 0)
  return day <= date.getUTCDate()
}

function isInRange(p: Parts): boolean {
  return (
    isCalendarDate(p.year, p.month, p.day) &&
    p.hour <= 23 &&
    p.minute <= 59 &&
    p.second <= 59 &&
    Math.abs(p.offsetMinutes) < 24 * 60
  )
}

/** `YYYY-MM-DDTHH:MM:SS[.fraction]Z`, the fraction without trailing zeros (RFC 3339 "Nano"). */
function formatUtc(p: Parts): string | undefined {
  const date = new Date(0)
  date.setUTCFullYear(p.year, p.month - 1, p.day)
  date.setUTCHours(p.hour, p.minute - p.offsetMinutes, p.second)
  const year = date.getUTCFullYear()
  if (year < 0 || year > 9999) return undefined
  const iso = date.toISOString().replace(/^[+-]0*(\d{4})/, '$1')
  const fraction = p.fraction.replace(/0+$/, '')
  return `${iso.slice(0, 19)}${fraction ? `.${fraction}` : ''}Z`
}

export function checkTimestamp(text: string): Check {
  for (const layout of LAYOUTS) {
    const match = layout.pattern.exec(text)
    if (match === null) continue
    const parts = layout.read(match as unknown as string[])
    const formatted = isInRange(parts) ? formatUtc(parts) : undefined
    return formatted === undefined ? invalid('the time does not exist') : valid(formatted)
  }
  return invalid(
    'an RFC 3339 timestamp (or an RFC 1123, 822, 850, ANSI C or Unix date) is expected',
  )
}

/** `YYYY-MM-DD`, a real calendar date. */
export function checkDate(text: string): Check {
  const match = /^(\d{4})-(\d\d)-(\d\d)$/.exec(text)
  if (match === null) return invalid('a date YYYY-MM-DD is expected')
  const isReal = isCalendarDate(Number(match[1]), Number(match[2]), Number(match[3]))
  return isReal ? valid(text) : invalid('the date does not exist')
}
