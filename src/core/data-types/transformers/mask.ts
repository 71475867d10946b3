// src/core/data-types/transformers/mask.ts: the built-in `mask` transformers of text, numbers, dates and identifiers (data-model §7.4)

const STAR = '*'
const MAX_MASKED_TEXT = 30

/** Every character (code point) but the last `keep` becomes `*`. */
export function maskAllButLast(value: string, keep: number): string {
  const chars = Array.from(value)
  const cut = Math.max(0, chars.length - keep)
  return STAR.repeat(cut) + chars.slice(cut).join('')
}

/** Every digit but the last `keep` digits becomes `*`; other characters stay (PHONE_NUMBER). */
export function maskDigitsButLast(value: string, keep: number): string {
  let remaining = (value.match(/\d/g) ?? []).length - keep
  return value.replace(/\d/g, (digit) => (remaining-- > 0 ? STAR : digit))
}

/**
 * PHONE_NUMBER: every digit but the last 4 becomes `*`, and so does a leading `+`, as the
 * reference product answers (`+972541234567` → `*********4567`); separators stay.
 */
export function maskPhone(value: string): string {
  const masked = maskDigitsButLast(value, 4)
  return masked.startsWith('+') ? `${STAR}${masked.slice(1)}` : masked
}

/** Every non-whitespace character becomes `*`; past 30 characters, cut and append `...`. */
export function maskText(value: string): string {
  const chars = Array.from(value)
  const masked = chars
    .slice(0, MAX_MASKED_TEXT)
    .map((c) => (/\s/.test(c) ? c : STAR))
    .join('')
  return chars.length > MAX_MASKED_TEXT ? `${masked}...` : masked
}

/** The first letter of each word stays: `John Doe` → `J*** D**`. */
export function maskWords(value: string): string {
  return value.replace(/\S+/g, (word) => {
    const [first = '', ...rest] = Array.from(word)
    return first + STAR.repeat(rest.length)
  })
}

/** The first character of the local part and the whole domain stay: `j**********@gmail.com`. */
export function maskEmail(value: string): string {
  const at = value.lastIndexOf('@')
  if (at <= 0) return maskText(value)
  const [first = '', ...rest] = Array.from(value.slice(0, at))
  return first + STAR.repeat(rest.length) + value.slice(at)
}

/** HIPAA safe harbor: 3-digit ZIP prefixes of areas with 20,000 people or fewer are generalised. */
const SPARSE_ZIP_PREFIXES: ReadonlySet<string> = new Set([
  '036',
  '059',
  '063',
  '102',
  '203',
  '556',
  '692',
  '790',
  '821',
  '823',
  '830',
  '831',
  '878',
  '879',
  '884',
  '890',
  '893',
])

/** The first 3 digits stay (`123**`), or `000**` for a sparsely populated prefix. */
export function maskZipCode(value: string): string {
  const prefix = value.slice(0, 3)
  return SPARSE_ZIP_PREFIXES.has(prefix) ? '000**' : `${prefix}**`
}

/** Minutes and seconds are masked: `2024-11-08T15:**:**Z`. */
export function maskTimestamp(value: string): string {
  const match = /^(\d{4}-\d\d-\d\dT\d\d):/.exec(value)
  return match ? `${match[1]}:**:**Z` : maskText(value)
}

/** Month and day are masked: `2024-**-**`. */
export function maskDate(value: string): string {
  const match = /^(\d{4})-/.exec(value)
  return match ? `${match[1]}-**-**` : maskText(value)
}

/** Each digit becomes `*`; sign, point and exponent stay: `-123.45` → `-***.**`. */
export function maskNumber(value: number | string): string {
  return String(value).replace(/\d/g, STAR)
}

/** SSN `NNN-NN-NNNN`: only the last 4 digits stay: `***-**-4357`. */
export function maskSsn(value: string): string {
  return `***-**-${value.slice(-4)}`
}

export function constantMask(mask: string): (value: unknown) => string {
  return () => mask
}
