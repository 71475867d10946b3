// src/sandbox/outbound.ts: the Outbound port: an SSRF-safe HTTP client that pins each hop to a checked address
import type { LookupAddress } from 'node:dns'
import type { IncomingMessage } from 'node:http'
import { BlockList, isIP } from 'node:net'
import {
  type DestinationRule,
  type Outbound,
  OutboundFailure,
  type OutboundRequest,
  type OutboundResponse,
} from '../core/actions/outbound.ts'

const MAX_REDIRECTS = 5
const REDIRECTS = new Set([301, 302, 303, 307, 308])

/**
 * Addresses a `public-address` destination may not resolve to (RFC 6890 special-purpose ranges:
 * this host, loopback, private, shared, link-local incl. cloud metadata, documentation,
 * benchmarking, multicast, reserved; IPv6 IPv4-compatible, unique-local, site- and link-local,
 * multicast, documentation, and the NAT64 and 6to4 prefixes, which may carry any IPv4 address).
 * BlockList checks IPv4-mapped IPv6 addresses (::ffff:a.b.c.d) against the IPv4 rules.
 */
const NON_PUBLIC: readonly [string, number, 'ipv4' | 'ipv6'][] = [
  ['0.0.0.0', 8, 'ipv4'],
  ['10.0.0.0', 8, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'],
  ['127.0.0.0', 8, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'],
  ['192.0.2.0', 24, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'],
  ['198.51.100.0', 24, 'ipv4'],
  ['203.0.113.0', 24, 'ipv4'],
  ['224.0.0.0', 4, 'ipv4'],
  ['240.0.0.0', 4, 'ipv4'],
  ['::', 96, 'ipv6'],
  ['64:ff9b::', 96, 'ipv6'],
  ['64:ff9b:1::', 48, 'ipv6'],
  ['100::', 64, 'ipv6'],
  ['2001:db8::', 32, 'ipv6'],
  ['2002::', 16, 'ipv6'],
  ['fc00::', 7, 'ipv6'],
  ['fec0::', 10, 'ipv6'],
  ['fe80::', 10, 'ipv6'],
  ['ff00::', 8, 'ipv6'],
]

const BLOCKED = new BlockList()
for (const [network, prefix, type] of NON_PUBLIC) BLOCKED.addSubnet(network, prefix, type)

export function isPublicAddress(address: string): boolean {
  const family = isIP(address)
  if (family === 0) return false
  return !BLOCKED.check(address, family === 4 ? 'ipv4' : 'ipv6')
}

export type Resolver = (hostname: string) => Promise<readonly LookupAddress[]>

// Taken when first needed: `import … from 'node:http'` builds a namespace that loads undici, and
// node:https loads TLS; neither belongs in the node's start-up (ADR 0010).
const systemResolver: Resolver = (hostname) =>
  process.getBuiltinModule('node:dns/promises').lookup(hostname, { all: true, verbatim: true })

function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () =>
      reject(new OutboundFailure('timeout', 'The destination did not answer in time.'))
    if (signal.aborted) return onAbort()
    signal.addEventListener('abort', onAbort, { once: true })
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}

/**
 * The address this hop connects to, resolved once and checked: the connection then goes to exactly
 * that address (no second lookup a DNS answer could change in between).
 */
async function pinAddress(
  url: URL,
  rule: DestinationRule,
  resolve: Resolver,
  signal: AbortSignal,
): Promise<LookupAddress> {
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1')
  let addresses: readonly LookupAddress[]
  if (isIP(hostname)) {
    addresses = [{ address: hostname, family: isIP(hostname) }]
  } else {
    addresses = await abortable(resolve(hostname), signal).catch((error: unknown) => {
      if (error instanceof OutboundFailure) throw error
      throw new OutboundFailure('unreachable', 'The destination host name cannot be resolved.')
    })
  }
  if (addresses.length === 0)
    throw new OutboundFailure('unreachable', 'The destination host name cannot be resolved.')
  const usable = addresses.find((a) => rule === 'any-address' || isPublicAddress(a.address))
  if (usable !== undefined) return usable
  throw new OutboundFailure(
    'address_not_allowed',
    'The destination resolves to an address that is not allowed (loopback, private or link-local).',
  )
}

type Hop = Readonly<{
  url: URL
  method: string
  headers: Record<string, string>
  body: string | undefined
}>

function send(hop: Hop, address: LookupAddress, signal: AbortSignal): Promise<IncomingMessage> {
  const { request } = process.getBuiltinModule(
    hop.url.protocol === 'https:' ? 'node:https' : 'node:http',
  )
  return new Promise((resolve, reject) => {
    let req: ReturnType<typeof request>
    try {
      req = request(hop.url, {
        method: hop.method,
        headers: hop.headers,
        agent: false,
        signal,
        lookup: (_host, options, callback) => {
          const all = (options as { all?: boolean }).all === true
          if (all) (callback as (e: null, a: LookupAddress[]) => void)(null, [address])
          else callback(null, address.address, address.family)
        },
      })
    } catch {
      return reject(
        new OutboundFailure('invalid_request', 'The request has an invalid method or header.'),
      )
    }
    req.on('response', resolve)
    req.on('error', () => {
      if (signal.aborted)
        reject(new OutboundFailure('timeout', 'The destination did not answer in time.'))
      else reject(new OutboundFailure('unreachable', 'The destination cannot be reached.'))
    })
    req.end(hop.body)
  })
}

async function readBody(response: IncomingMessage, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of response) {
    size += (chunk as Buffer).length
    if (size > maxBytes) {
      response.destroy()
      throw new OutboundFailure('too_large', `The response body is larger than ${maxBytes} bytes.`)
    }
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks).toString('utf8')
}

function firstValues(response: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const [name, values] of Object.entries(response.headersDistinct)) {
    const first = values?.[0]
    if (first !== undefined) headers[name] = first
  }
  return headers
}

/** The next hop of a redirect (RFC 9110 §15.4): 303, and 301/302 after POST, become GET. */
function redirected(hop: Hop, status: number, location: string): Hop {
  const url = new URL(location, hop.url)
  const toGet = status === 303 || ((status === 301 || status === 302) && hop.method === 'POST')
  const headers = { ...hop.headers }
  if (url.origin !== hop.url.origin) {
    // Credentials meant for one origin are not handed to another (as fetch does).
    for (const name of Object.keys(headers))
      if (/^(authorization|cookie|proxy-authorization)$/i.test(name)) delete headers[name]
  }
  if (toGet) {
    for (const name of Object.keys(headers))
      if (/^content-(type|length)$/i.test(name)) delete headers[name]
  }
  return { url, method: toGet ? 'GET' : hop.method, headers, body: toGet ? undefined : hop.body }
}

/**
 * Follows redirects itself so every hop is checked: the URL against the allow-list, then the
 * address its host resolves to against the rule, and the connection is pinned to that address.
 */
export function createOutbound(resolve: Resolver = systemResolver): Outbound {
  return {
    async send(request: OutboundRequest): Promise<OutboundResponse> {
      let hop: Hop = {
        url: request.url,
        method: request.method,
        headers: { ...request.headers },
        body: request.body,
      }
      for (let count = 0; count <= MAX_REDIRECTS; count += 1) {
        const rule = request.allow(hop.url)
        if (rule === undefined) {
          throw count === 0
            ? new OutboundFailure('not_allowed', 'The destination is not allowed.')
            : new OutboundFailure(
                'redirect_not_allowed',
                'The destination redirected to a URL that is not allowed.',
              )
        }
        const address = await pinAddress(hop.url, rule, resolve, request.signal)
        const response = await send(hop, address, request.signal)
        const location = response.headers.location
        const status = response.statusCode ?? 0
        if (
          !REDIRECTS.has(status) ||
          location === undefined ||
          !URL.canParse(location, hop.url.href)
        ) {
          const body = await abortable(readBody(response, request.maxResponseBytes), request.signal)
          return { status, headers: firstValues(response), body }
        }
        response.resume()
        hop = redirected(hop, status, location)
      }
      throw new OutboundFailure(
        'unreachable',
        `The destination redirected more than ${MAX_REDIRECTS} times.`,
      )
    },
  }
}
