// src/core/objects/substring.ts: substring search: value trigrams, `like` patterns, glob matching
/**
 * Values and patterns are compared case-insensitively in Unicode NFC (data-model §5.2); a
 * character is a code point.
 */
function fold(text: string): string[] {
  return Array.from(text.normalize('NFC').toLowerCase())
}

/** The distinct 3-character runs of a value; the substring index holds their keyed digests. */
export function trigrams(value: string): string[] {
  const chars = fold(value)
  const grams = new Set<string>()
  for (let i = 0; i + 3 <= chars.length; i++) grams.add(chars.slice(i, i + 3).join(''))
  return [...grams]
}

export type LikePattern = Readonly<{
  /** The trigrams every match must contain (from the literal parts between wildcards). */
  grams: readonly string[]
  matches(value: string): boolean
}>

export type LikeParse =
  | { readonly ok: true; readonly pattern: LikePattern }
  | { readonly ok: false; readonly reason: string }

function globRegExp(chars: readonly string[]): RegExp {
  const source = chars
    .map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('')
  return new RegExp(`^${source}$`, 'su')
}

/**
 * Parses a `like` glob: `*` any run (possibly empty), `?` one character, anything else literal.
 * The literal parts must hold at least two 3-character runs, or the index cannot narrow the
 * search (`*john*` is fine, `*jo*` is too short).
 */
export function parseLike(pattern: string): LikeParse {
  const chars = fold(pattern)
  const literals = chars.join('').split(/[*?]/)
  const grams = [...new Set(literals.flatMap((part) => trigrams(part)))]
  const runs = literals.reduce((sum, part) => sum + Math.max(0, Array.from(part).length - 2), 0)
  if (runs < 2) {
    return {
      ok: false,
      reason: 'the literal parts of a like pattern must contain at least two 3-character runs',
    }
  }
  const regexp = globRegExp(chars)
  return { ok: true, pattern: { grams, matches: (value) => regexp.test(fold(value).join('')) } }
}
