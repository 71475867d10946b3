// src/core/time.ts: the clock and time formats; times inside core are microseconds since the epoch
export type Micros = number

/** Returns the current time in microseconds. Injected everywhere so tests control time. */
export type Clock = () => Micros

export const systemClock: Clock = () =>
  Math.floor((performance.timeOrigin + performance.now()) * 1000)

/**
 * RFC 3339 in UTC with nanosecond digits (the spec's "Nano" form); our clock has microsecond
 * resolution, so the last three digits are zero.
 */
export function formatNano(micros: Micros): string {
  const millis = Math.floor(micros / 1000)
  // Calls come many to a millisecond: its text is made once.
  if (millis !== lastMillis) {
    lastMillis = millis
    lastMillisText = new Date(millis).toISOString().slice(0, 23) // 2024-01-02T03:04:05.678
  }
  const subMillis = String(micros - millis * 1000).padStart(3, '0')
  return `${lastMillisText}${subMillis}000Z`
}

let lastMillis = Number.NaN
let lastMillisText = ''

/** RFC 3339 in UTC with second precision, for expiry times and other coarse fields. */
export function formatSeconds(micros: Micros): string {
  return `${new Date(Math.floor(micros / 1000)).toISOString().slice(0, 19)}Z`
}

export const MICROS_PER_SECOND = 1_000_000

/**
 * Whether a time can be stored and read back: times are kept as microseconds in safe integers
 * (node:sqlite refuses to read larger ones), i.e. from 1684-07-28 to 2255-06-05.
 */
export function isStorableTime(micros: Micros): boolean {
  return Number.isSafeInteger(micros)
}
