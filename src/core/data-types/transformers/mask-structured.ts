// src/core/data-types/transformers/mask-structured.ts: `mask` of JSON values and URLs, which keep their structure
import { maskNumber, maskText } from './mask.ts'

function maskJsonValue(value: unknown): unknown {
  if (typeof value === 'string') return maskText(value)
  if (typeof value === 'number') return maskNumber(value)
  if (typeof value === 'boolean') return '*'
  if (Array.isArray(value)) return value.map(maskJsonValue)
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskJsonValue(v)]))
  }
  return value
}

/**
 * Keys and structure stay; string leaves are masked like STRING, numbers like INTEGER/DOUBLE,
 * booleans become `*`. The result is the JSON text: `{"first_name":"****","last_name":"***"}`.
 */
export function maskJson(value: unknown): string {
  return JSON.stringify(maskJsonValue(value))
}

/** Second-level labels under which registrations happen (a short list, not the full PSL). */
const SECOND_LEVEL_SUFFIXES: ReadonlySet<string> = new Set([
  'co.uk',
  'org.uk',
  'ac.uk',
  'gov.uk',
  'com.au',
  'net.au',
  'org.au',
  'co.nz',
  'co.za',
  'co.il',
  'co.jp',
  'co.in',
  'com.br',
  'com.cn',
  'com.mx',
])

/** The registrable domain (kept) and the sub-domain labels before it (masked). */
function splitHost(host: string): { sub: string; registrable: string } {
  if (/^\[.*\]$/.test(host) || /^[\d.]+$/.test(host)) return { sub: '', registrable: host }
  const labels = host.split('.')
  const lastTwo = labels.slice(-2).join('.').toLowerCase()
  const keep = SECOND_LEVEL_SUFFIXES.has(lastTwo) ? 3 : 2
  const cut = Math.max(0, labels.length - keep)
  const sub = labels.slice(0, cut).join('.')
  return { sub: sub === '' ? '' : `${sub}.`, registrable: labels.slice(cut).join('.') }
}

const stars = (text: string) => '*'.repeat(Array.from(text).length)

/**
 * Scheme and registrable domain stay; user info, sub-domain labels, port, path, query and
 * fragment are masked: `https://www.domain.com/a/b/c/d` → `https://****domain.com********`.
 */
export function maskUrl(value: string): string {
  const match = /^([a-zA-Z][a-zA-Z0-9+.-]*:\/\/)?([^/?#]*)([\s\S]*)$/.exec(value)
  if (match === null) return maskText(value)
  const [, scheme = '', authority = '', rest = ''] = match
  const at = authority.lastIndexOf('@')
  const userinfo = at >= 0 ? authority.slice(0, at + 1) : ''
  const hostPort = authority.slice(at + 1)
  const portMatch = /^(.*?)(:\d*)?$/.exec(hostPort)
  const host = portMatch?.[1] ?? hostPort
  const port = portMatch?.[2] ?? ''
  const { sub, registrable } = splitHost(host)
  return scheme + stars(userinfo) + stars(sub) + registrable + stars(port + rest)
}
