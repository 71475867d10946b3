// src/core/analysis/text.ts: small text helpers of the recognizers: words near a span, character classes
// Every pattern here has bounded repetition, so scanning stays linear in the text's length.

const WORD = /[\p{L}\p{N}_]+(?:[.'’][\p{L}\p{N}_]+)*/gu
const WINDOW = 90

/** The last `count` words before `index`, lower-cased, nearest last. */
export function wordsBefore(text: string, index: number, count: number): string[] {
  const slice = text.slice(Math.max(0, index - WINDOW), index).toLowerCase()
  const words = slice.match(WORD) ?? []
  // The first word may be cut by the window.
  const whole = index - WINDOW > 0 ? words.slice(1) : words
  return whole.slice(-count)
}

/** The first `count` words after `index`, lower-cased. */
export function wordsAfter(text: string, index: number, count: number): string[] {
  const slice = text.slice(index, index + WINDOW).toLowerCase()
  return (slice.match(WORD) ?? []).slice(0, count)
}

/** Whether one of the `count` words before `index` is in `words` (also without inner dots). */
export function hasWordBefore(
  text: string,
  index: number,
  words: ReadonlySet<string>,
  count = 5,
): boolean {
  return wordsBefore(text, index, count).some(
    (w) => words.has(w) || words.has(w.replace(/\./g, '')),
  )
}

export function hasWordAfter(
  text: string,
  index: number,
  words: ReadonlySet<string>,
  count = 3,
): boolean {
  return wordsAfter(text, index, count).some((w) => words.has(w))
}

export const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9'
export const isLetterOrDigit = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}]/u.test(c)

/** Whether the characters around [begin, end) keep the span a token of its own. */
export function isStandalone(text: string, begin: number, end: number): boolean {
  return !isLetterOrDigit(text[begin - 1]) && !isLetterOrDigit(text[end])
}

export const onlyDigits = (s: string) => s.replace(/\D/g, '')

export const clamp = (x: number) => Math.max(0, Math.min(1, x))
