// test/sandbox/outbound.test.ts: the SSRF-safe client: address rules, pinning to the checked address, redirects
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDestinationCheck } from '../../src/core/actions/destinations.ts'
import { OutboundFailure, type OutboundRequest } from '../../src/core/actions/outbound.ts'
import { createOutbound, isPublicAddress } from '../../src/sandbox/outbound.ts'
import { startUpstream, type Upstream } from '../helpers/upstream.ts'

describe('public addresses', () => {
  it('tells public addresses from loopback, private, link-local and special ones', () => {
    for (const address of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])
      expect(isPublicAddress(address), address).toBe(true)
    const inner = [
      '127.0.0.1',
      '127.1.2.3',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '64:ff9b::a00:1',
      '2002:a00:1::1',
      'not an address',
    ]
    for (const address of inner) expect(isPublicAddress(address), address).toBe(false)
  })
})

describe('outbound client', () => {
  let upstream: Upstream
  let port: string
  beforeAll(async () => {
    upstream = await startUpstream()
    port = new URL(upstream.origin).port
  })
  afterAll(() => upstream.close())

  // Names resolve here, not through DNS: `rebind.test` is a public-looking name that points at loopback.
  const outbound = createOutbound(async (hostname) =>
    hostname === 'rebind.test' ? [{ address: '127.0.0.1', family: 4 }] : [],
  )
  const request = (
    url: string,
    entries: string[],
    extra: Partial<OutboundRequest> = {},
  ): OutboundRequest => ({
    url: new URL(url),
    method: 'GET',
    headers: {},
    allow: createDestinationCheck(entries),
    signal: AbortSignal.timeout(5000),
    maxResponseBytes: 1_048_576,
    ...extra,
  })
  const failure = async (work: Promise<unknown>) => {
    const error = await work.then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(OutboundFailure)
    return (error as OutboundFailure).kind
  }

  it('refuses a name that resolves to loopback under *, and connects to nothing', async () => {
    const before = upstream.seen.length
    expect(await failure(outbound.send(request(`http://rebind.test:${port}/x`, ['*'])))).toBe(
      'address_not_allowed',
    )
    expect(upstream.seen.length).toBe(before)
  })

  it('connects a named destination to the address it checked, keeping the Host header', async () => {
    const response = await outbound.send(
      request(`http://rebind.test:${port}/pinned`, [`http://rebind.test:${port}/`]),
    )
    expect(response.status).toBe(200)
    const seen = upstream.seen.at(-1)
    expect(seen?.path).toBe('/pinned')
    expect(seen?.headers.host).toBe(`rebind.test:${port}`)
  })

  it('follows redirects: 303 becomes GET, credentials stay with their origin', async () => {
    const to = encodeURIComponent(`http://rebind.test:${port}/landed`)
    const entries = [`${upstream.origin}/`, `http://rebind.test:${port}/`]
    const response = await outbound.send(
      request(`${upstream.origin}/redirect?status=303&to=${to}`, entries, {
        method: 'POST',
        body: 'payload',
        headers: { authorization: 'Bearer x', 'content-type': 'text/plain', 'x-keep': '1' },
      }),
    )
    expect(JSON.parse(response.body)).toEqual({ method: 'GET', path: '/landed', body: '' })
    const seen = upstream.seen.at(-1)
    expect(seen?.headers.authorization).toBeUndefined()
    expect(seen?.headers['x-keep']).toBe('1')
  })

  it('keeps method and body on 307, and stops after five redirects', async () => {
    const to = encodeURIComponent(`${upstream.origin}/echo`)
    const kept = await outbound.send(
      request(`${upstream.origin}/redirect?status=307&to=${to}`, [`${upstream.origin}/`], {
        method: 'PUT',
        body: 'b',
      }),
    )
    expect(JSON.parse(kept.body)).toEqual({ method: 'PUT', path: '/echo', body: 'b' })
    expect(
      await failure(outbound.send(request(`${upstream.origin}/loop`, [`${upstream.origin}/`]))),
    ).toBe('unreachable')
  })

  it('refuses a redirect off the list, a bad header, and an unknown name', async () => {
    const to = encodeURIComponent('http://rebind.test/')
    expect(
      await failure(
        outbound.send(request(`${upstream.origin}/redirect?to=${to}`, [`${upstream.origin}/`])),
      ),
    ).toBe('redirect_not_allowed')
    expect(
      await failure(
        outbound.send(
          request(`${upstream.origin}/x`, ['*', `${upstream.origin}/`], {
            headers: { 'x-a': 'a\r\nb: c' },
          }),
        ),
      ),
    ).toBe('invalid_request')
    expect(await failure(outbound.send(request('http://unknown.test/', ['*'])))).toBe('unreachable')
  })
})
