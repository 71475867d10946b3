// src/core/analysis/recognizers/ip.ts: public IPv4 and IPv6 addresses (not loopback, private, link-local, netmasks or versions)
import { isIPv6 } from 'node:net'
import { IP_WORDS, VERSION_WORDS } from '../context-words.ts'
import type { Detection } from '../detector.ts'
import { eachMatch, type Recognizer } from '../recognizer.ts'
import { clamp, hasWordBefore } from '../text.ts'

const V4 = /(?<![\w.])(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?!\w|\.\d)/g
const V6 = /(?<![\w:.])[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}(?![\w:])/g
const MASK_OCTETS = new Set([0, 128, 192, 224, 240, 248, 252, 254, 255])

/** Ranges that never identify a subscriber on the internet (RFC 1918, 5735, 6598, 3927). */
export function isNonPublicV4(o: readonly number[]): boolean {
  const [a = 0, b = 0] = o
  if (a === 0 || a === 10 || a === 127 || a >= 224) return true
  if (a === 169 && b === 254) return true
  if (a === 172 && b >= 16 && b <= 31) return true
  if (a === 192 && b === 168) return true
  if (a === 100 && b >= 64 && b <= 127) return true
  // Netmasks: a run of 255s, then one mask octet, then zeros.
  return a === 255 || (o.every((x) => MASK_OCTETS.has(x)) && o[3] === 0 && b >= (o[2] ?? 0))
}

/** `v1.2.3.4`, `Chrome/120.0.0.0`, `version 10.0.1.2`: a version, not an address. */
function isVersion(text: string, begin: number): boolean {
  if (text[begin - 1] === '/' && /[A-Za-z]/.test(text[begin - 2] ?? '')) return true
  return (
    /[vV]$/.test(text.slice(Math.max(0, begin - 1), begin)) ||
    hasWordBefore(text, begin, VERSION_WORDS, 2)
  )
}

function v4(text: string): Detection[] {
  return eachMatch(V4, text, (match) => {
    const octets = match.slice(1, 5).map(Number)
    if (octets.some((o) => o > 255) || match.slice(1, 5).some((o) => /^0\d/.test(o ?? '')))
      return undefined
    // A network (x.y.z.0) or broadcast (x.y.z.255) address names no host.
    const isHostless = octets[3] === 0 || octets[3] === 255
    if (isNonPublicV4(octets) || isHostless || isVersion(text, match.index)) return undefined
    const score = 0.7 + (hasWordBefore(text, match.index, IP_WORDS, 4) ? 0.2 : 0)
    const end = match.index + match[0].length
    return {
      type: 'IP_ADDRESS',
      begin: match.index,
      end,
      score: clamp(score),
      normalized: match[0],
    }
  })
}

function isNonPublicV6(address: string): boolean {
  const lower = address.toLowerCase()
  if (lower === '::' || lower === '::1') return true
  if (/^fe[89ab]/.test(lower) || /^f[cd]/.test(lower) || lower.startsWith('ff')) return true
  return lower.startsWith('::ffff:') || lower.startsWith('64:ff9b')
}

function v6(text: string): Detection[] {
  if (!text.includes(':')) return []
  return eachMatch(V6, text, (match) => {
    const value = match[0]
    // At least three groups written out: `::1:8080` is a loopback address and a port.
    const groups = value.split(':').filter(Boolean)
    if (!isIPv6(value) || isNonPublicV6(value) || groups.length < 3 || value.startsWith(':'))
      return undefined
    const score = 0.75 + (hasWordBefore(text, match.index, IP_WORDS, 4) ? 0.15 : 0)
    const end = match.index + value.length
    return {
      type: 'IP_ADDRESS',
      begin: match.index,
      end,
      score: clamp(score),
      normalized: value.toLowerCase(),
    }
  })
}

export const recognizeIps: Recognizer = ({ text }) => [...v4(text), ...v6(text)]
