// src/core/analysis/text.ts: small text helpers of the recognizers: words near a span, character classes
// Every pattern here has bounded repetition, so scanning stays linear in the text's length.

const WINDOW = 90
const NON_ASCII_WORD = /[\p{L}\p{N}]/u

/** A letter, digit or underscore (any script); checked by code for ASCII, which is most text. */
function isWordChar(text: string, i: number): boolean {
  const c = text.charCodeAt(i)
  if (c < 128)
    return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95
  return NON_ASCII_WORD.test(text[i] ?? '')
}

/** `.`, `'` and `’` join the parts of one word (d.o.b, i'm, l’adresse). */
const isJoiner = (text: string, i: number) => {
  const c = text[i]
  return c === '.' || c === "'" || c === '’'
}

/**
 * The last `count` words that end before `index` and start within 90 characters of it,
 * lower-cased, nearest last. Walks back character by character: no slice or pattern per call.
 */
export function wordsBefore(text: string, index: number, count: number): string[] {
  const words: string[] = []
  const limit = Math.max(0, index - WINDOW)
  let i = index - 1
  while (words.length < count && i >= limit) {
    while (i >= limit && !isWordChar(text, i)) i--
    if (i < limit) break
    const end = i + 1
    while (
      i >= limit &&
      (isWordChar(text, i) ||
        (isJoiner(text, i) && isWordChar(text, i - 1) && isWordChar(text, i + 1)))
    )
      i--
    // A word cut by the window is not a word.
    if (i < limit && limit > 0) break
    words.unshift(text.slice(i + 1, end).toLowerCase())
  }
  return words
}

/** The first `count` words after `index` (within 90 characters), lower-cased. */
export function wordsAfter(text: string, index: number, count: number): string[] {
  const words: string[] = []
  const limit = Math.min(text.length, index + WINDOW)
  let i = index
  while (words.length < count && i < limit) {
    while (i < limit && !isWordChar(text, i)) i++
    if (i >= limit) break
    const begin = i
    while (
      i < limit &&
      (isWordChar(text, i) ||
        (isJoiner(text, i) && isWordChar(text, i - 1) && isWordChar(text, i + 1)))
    )
      i++
    words.push(text.slice(begin, i).toLowerCase())
  }
  return words
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
