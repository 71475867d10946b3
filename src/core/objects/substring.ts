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

/**
 * Whether `value` matches the glob `pattern` (both folded code points): the greedy two-pointer
 * matcher. On a mismatch after a `*`, only the last `*` is retried one character further, so the
 * work is at most value × pattern steps with no backtracking explosion (a regular expression of
 * many `.*` can take seconds on a few hundred characters). Callers reject first a pattern with
 * more fixed characters than the value, so the pattern is at most about twice the value's length
 * and the work is bounded by the stored value's size, whatever the pattern.
 */
export function globMatches(pattern: readonly string[], value: readonly string[]): boolean {
  let p = 0
  let v = 0
  let star = -1
  let resume = 0
  while (v < value.length) {
    const c = pattern[p]
    if (c === '*') {
      star = p++
      resume = v
    } else if (c !== undefined && (c === '?' || c === value[v])) {
      p++
      v++
    } else if (star >= 0) {
      p = star + 1
      v = ++resume
    } else return false
  }
  while (pattern[p] === '*') p++
  return p === pattern.length
}

/** A pattern's characters with runs of `*` collapsed into one (they match the same values). */
function collapseStars(chars: readonly string[]): string[] {
  return chars.filter((c, i) => c !== '*' || chars[i - 1] !== '*')
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
  const glob = collapseStars(chars)
  const fixed = glob.filter((c) => c !== '*').length
  const matches = (value: string) => {
    const folded = fold(value)
    return folded.length >= fixed && globMatches(glob, folded)
  }
  return { ok: true, pattern: { grams, matches } }
}
