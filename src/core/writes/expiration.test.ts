// src/core/writes/expiration.test.ts: expiration_secs on creates and updates
import { describe, expect, it } from 'vitest'
import { applyExpiry, parseExpiration } from './expiration.ts'

const now = 1_700_000_000_000_000
const create = { defaultSecs: undefined, isUpdate: false }
const update = { defaultSecs: undefined, isUpdate: true }

describe('expiration_secs', () => {
  it('uses the default on create and keeps the expiry on update when absent', () => {
    expect(parseExpiration(undefined, create, now)).toEqual({ kind: 'never' })
    expect(parseExpiration(undefined, { defaultSecs: 60, isUpdate: false }, now)).toEqual({
      kind: 'at',
      at: now + 60_000_000,
    })
    expect(parseExpiration(undefined, update, now)).toEqual({ kind: 'unchanged' })
  })

  it('reads empty as never and N as now + N seconds', () => {
    expect(parseExpiration('', create, now)).toEqual({ kind: 'never' })
    expect(parseExpiration('3600', update, now)).toEqual({ kind: 'at', at: now + 3_600_000_000 })
  })

  it('archives at once with 0 on updates and refuses 0 on creates', () => {
    expect(parseExpiration('0', update, now)).toEqual({ kind: 'at', at: now })
    expect(() => parseExpiration('0', create, now)).toThrow(/cannot be 0/)
  })

  it.each(['-1', '1.5', 'abc', '1e3', '9999999999999'])('refuses %j with 400 ERR1012', (raw) => {
    expect(() => parseExpiration(raw, update, now)).toThrow(/whole number/)
  })

  it('refuses an expiry the store cannot hold (past June 2255)', () => {
    expect(() => parseExpiration('999999999999', create, now)).toThrow(/too large/)
    expect(parseExpiration('7000000000', update, now)).toEqual({
      kind: 'at',
      at: now + 7_000_000_000_000_000,
    })
  })

  it('applies a change to the current expiry', () => {
    expect(applyExpiry(5, { kind: 'unchanged' })).toBe(5)
    expect(applyExpiry(5, { kind: 'never' })).toBeUndefined()
    expect(applyExpiry(undefined, { kind: 'at', at: 9 })).toBe(9)
  })
})
