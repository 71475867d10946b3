// src/core/data-types/transformers/age.ts: DATE_OF_BIRTH `age` and `age_frac`, computed against today in UTC
import type { Micros } from '../../time.ts'

type Ymd = { readonly year: number; readonly month: number; readonly day: number }

function parseYmd(value: string): Ymd {
  const [year = 0, month = 1, day = 1] = value.split('-').map(Number)
  return { year, month, day }
}

function todayUtc(now: Micros): Ymd {
  const date = new Date(Math.floor(now / 1000))
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() }
}

/** Midnight UTC of the birthday in `year` (29 February falls on 1 March in other years). */
function birthdayIn(birth: Ymd, year: number): number {
  const date = new Date(0)
  date.setUTCFullYear(year, birth.month - 1, birth.day)
  return date.getTime()
}

function wholeYears(birth: Ymd, today: Ymd): number {
  const hadBirthday =
    today.month > birth.month || (today.month === birth.month && today.day >= birth.day)
  return today.year - birth.year - (hadBirthday ? 0 : 1)
}

/** Completed years since the date of birth (`YYYY-MM-DD`), never negative. */
export function age(value: string, now: Micros): number {
  return Math.max(0, wholeYears(parseYmd(value), todayUtc(now)))
}

/**
 * Years with one decimal, rounded down (`35.8`): the share of the current year of life that has
 * passed, so the value never claims an age not yet reached.
 */
export function ageFraction(value: string, now: Micros): number {
  const birth = parseYmd(value)
  const today = todayUtc(now)
  const years = wholeYears(birth, today)
  if (years < 0) return 0
  const last = birthdayIn(birth, birth.year + years)
  const next = birthdayIn(birth, birth.year + years + 1)
  const todayMs = Date.UTC(today.year, today.month - 1, today.day)
  const share = Math.floor(((todayMs - last) / (next - last)) * 10 + 1e-9) / 10
  return Math.round((years + Math.min(share, 0.9)) * 10) / 10
}
