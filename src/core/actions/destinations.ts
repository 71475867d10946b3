// src/core/actions/destinations.ts: the destination allow-lists (SVC_SERVICE_ALLOWED_*HTTP_DESTINATIONS)
import type { DestinationCheck, DestinationRule } from './outbound.ts'

type Prefix = Readonly<{ origin: string; path: string }>

function isWebUrl(url: URL): boolean {
  return url.protocol === 'http:' || url.protocol === 'https:'
}

function toPrefix(entry: string): Prefix | undefined {
  if (!URL.canParse(entry)) return undefined
  const url = new URL(entry)
  if (!isWebUrl(url) || url.username !== '' || url.password !== '') return undefined
  return { origin: url.origin, path: url.pathname }
}

/**
 * Whether `path` starts with the entry's path at a segment boundary: `/v1` allows `/v1` and
 * `/v1/x` but not `/v10`, so an entry cannot be stretched past what it names.
 */
function pathMatches(prefix: string, path: string): boolean {
  if (prefix === '/' || prefix.endsWith('/')) return path.startsWith(prefix)
  return path === prefix || path.startsWith(`${prefix}/`)
}

/**
 * The check of one allow-list (config.md: URL prefixes; `*` = any destination). An entry matches
 * on scheme, host and port exactly (the URL parser lower-cases them and drops default ports) and
 * on the path as a prefix (spec proposal). Entries that are not http(s) URLs match nothing.
 * Under `*`, a destination no entry names may only resolve to public addresses.
 */
export function createDestinationCheck(entries: readonly string[]): DestinationCheck {
  const isAny = entries.some((entry) => entry.trim() === '*')
  const prefixes = entries.flatMap((entry) => toPrefix(entry.trim()) ?? [])
  return (url: URL): DestinationRule | undefined => {
    if (!isWebUrl(url) || url.username !== '' || url.password !== '') return undefined
    const named = prefixes.some((p) => p.origin === url.origin && pathMatches(p.path, url.pathname))
    if (named) return 'any-address'
    return isAny ? 'public-address' : undefined
  }
}

/** Both lists must allow the URL (PCI data); the stricter rule wins. */
export function bothChecks(a: DestinationCheck, b: DestinationCheck): DestinationCheck {
  return (url) => {
    const first = a(url)
    const second = b(url)
    if (first === undefined || second === undefined) return undefined
    return first === 'public-address' || second === 'public-address'
      ? 'public-address'
      : 'any-address'
  }
}
