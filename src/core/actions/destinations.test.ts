// src/core/actions/destinations.test.ts: the http_call and fetch allow-lists
import { describe, expect, it } from 'vitest'
import { bothChecks, createDestinationCheck } from './destinations.ts'

const check = (entries: string[], url: string) => createDestinationCheck(entries)(new URL(url))

describe('destination allow-lists', () => {
  it('allows nothing when empty', () => {
    expect(check([], 'https://api.example.com/')).toBeUndefined()
  })

  it('matches scheme, host and port exactly and the path as a prefix at a segment boundary', () => {
    const list = ['https://api.example.com/v1', 'http://127.0.0.1:8080/']
    expect(check(list, 'https://api.example.com/v1')).toBe('any-address')
    expect(check(list, 'https://API.example.com:443/v1/users?x=1')).toBe('any-address')
    expect(check(list, 'https://api.example.com/v10')).toBeUndefined()
    expect(check(list, 'https://api.example.com/')).toBeUndefined()
    expect(check(list, 'http://api.example.com/v1')).toBeUndefined()
    expect(check(list, 'https://api.example.com:8443/v1')).toBeUndefined()
    expect(check(list, 'https://api.example.com.evil.test/v1')).toBeUndefined()
    expect(check(list, 'https://evil.test/?https://api.example.com/v1')).toBeUndefined()
    expect(check(list, 'http://127.0.0.1:8080/anything')).toBe('any-address')
    expect(check(list, 'http://127.0.0.1:8081/')).toBeUndefined()
  })

  it('refuses URLs with credentials and schemes other than http(s)', () => {
    const list = ['*', 'https://api.example.com/']
    expect(check(list, 'https://user:pw@api.example.com/')).toBeUndefined()
    expect(check(list, 'https://api.example.com@evil.test/')).toBeUndefined()
    expect(check(list, 'file:///etc/passwd')).toBeUndefined()
    expect(check(list, 'ftp://api.example.com/')).toBeUndefined()
  })

  it('lets * reach any web URL, public addresses only, unless an entry names it', () => {
    expect(check(['*'], 'https://anything.test/x')).toBe('public-address')
    expect(check(['*', 'http://10.0.0.5/'], 'http://10.0.0.5/x')).toBe('any-address')
  })

  it('ignores entries that are not web URLs', () => {
    expect(check(['api.example.com', 'ftp://x/'], 'https://api.example.com/')).toBeUndefined()
  })

  it('needs both lists, with the stricter rule, for card data', () => {
    const both = bothChecks(
      createDestinationCheck(['*']),
      createDestinationCheck(['https://pay.test/']),
    )
    expect(both(new URL('https://pay.test/charge'))).toBe('public-address')
    expect(both(new URL('https://other.test/'))).toBeUndefined()
  })
})
