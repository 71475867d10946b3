// src/http/query.ts: query-string parsing: repeated keys and comma-separated lists both give arrays
import { ARRAY_QUERY_PARAMETERS } from '../contract/common.ts'

const ARRAY_NAMES: ReadonlySet<string> = new Set(ARRAY_QUERY_PARAMETERS)

/**
 * Array parameters (`props`, `ids`, …) always become arrays, merging `a=1&a=2` with `a=1,2`
 * (the generated client sends the first form, the documentation shows the second). Other
 * parameters stay strings; a repeated scalar becomes an array so its schema rejects it.
 */
export function parseQuery(text: string): Record<string, string | string[]> {
  const result: Record<string, string | string[]> = Object.create(null)
  for (const [key, value] of queryPairs(text)) {
    const previous = result[key]
    if (ARRAY_NAMES.has(key)) {
      const items = value
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item.length > 0)
      result[key] = [...((previous as string[] | undefined) ?? []), ...items]
    } else if (previous === undefined) {
      result[key] = value
    } else {
      result[key] = [...(Array.isArray(previous) ? previous : [previous]), value]
    }
  }
  return result
}

/**
 * The query's key/value pairs as URLSearchParams gives them. Text with nothing to decode (no `%`,
 * no `+`: most queries, e.g. `reason=AppFunctionality`) is split directly, which costs a fraction
 * of building a URLSearchParams.
 */
export function queryPairs(text: string): Iterable<readonly [string, string]> {
  if (text.includes('%') || text.includes('+')) return new URLSearchParams(text)
  const pairs: [string, string][] = []
  // As URLSearchParams, one leading `?` is not part of the first key.
  for (const part of (text.startsWith('?') ? text.slice(1) : text).split('&')) {
    if (part === '') continue
    const at = part.indexOf('=')
    pairs.push(at === -1 ? [part, ''] : [part.slice(0, at), part.slice(at + 1)])
  }
  return pairs
}

export function isTrue(value: string | undefined): boolean {
  return value !== undefined && value.toLowerCase() === 'true'
}
