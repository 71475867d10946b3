// src/core/data-types/standard.test.ts: STRING, LONG_TEXT, JSON, INTEGER, BOOLEAN, DOUBLE, BLOB validation and normalization
import { describe, expect, it } from 'vitest'
import type { TypeLimits } from './data-type.ts'
import { base64Size, checkBlob, checkInteger, checkJson, STANDARD_TYPES } from './standard.ts'

const LIMITS: TypeLimits = { maxStringLength: 10, maxBlobLength: 16, isLuhnCheckEnabled: true }
const type = (name: string) => STANDARD_TYPES.find((t) => t.name === name)
const check = (name: string, value: unknown) => type(name)?.check(value, LIMITS)

describe('standard types', () => {
  it('normalizes STRING to NFC and bounds it in characters', () => {
    expect(check('STRING', 'e\u0301')).toEqual({ isValid: true, value: '\u00e9' })
    expect(check('STRING', '😀'.repeat(10))).toMatchObject({ isValid: true })
    expect(check('STRING', 'x'.repeat(11))).toMatchObject({ isValid: false })
    expect(check('STRING', 5)).toMatchObject({ isValid: false })
  })

  it('bounds LONG_TEXT by the blob length', () => {
    expect(check('LONG_TEXT', 'x'.repeat(16))).toMatchObject({ isValid: true })
    expect(check('LONG_TEXT', 'x'.repeat(17))).toMatchObject({ isValid: false })
  })

  it('accepts any JSON value, parses strings holding JSON, and bounds its size', () => {
    expect(checkJson({ a: 1 }, LIMITS)).toEqual({ isValid: true, value: { a: 1 } })
    expect(checkJson('{"a": [1, 2]}', LIMITS)).toEqual({ isValid: true, value: { a: [1, 2] } })
    expect(checkJson('plain', LIMITS)).toEqual({ isValid: true, value: 'plain' })
    expect(checkJson({ long: 'x'.repeat(20) }, LIMITS)).toMatchObject({ isValid: false })
  })

  it('accepts 64-bit integers, as numbers or as decimal strings past 2^53', () => {
    expect(checkInteger(42)).toEqual({ isValid: true, value: 42 })
    expect(checkInteger('-42')).toEqual({ isValid: true, value: -42 })
    expect(checkInteger('9223372036854775807')).toEqual({
      isValid: true,
      value: '9223372036854775807',
    })
    expect(checkInteger('9223372036854775808')).toMatchObject({ isValid: false })
    expect(checkInteger('-9223372036854775808')).toMatchObject({ isValid: true })
    expect(checkInteger(1.5)).toMatchObject({ isValid: false })
    expect(checkInteger(true)).toMatchObject({ isValid: false })
    expect(checkInteger('1e3')).toMatchObject({ isValid: false })
  })

  it('accepts only booleans for BOOLEAN and finite numbers for DOUBLE', () => {
    expect(check('BOOLEAN', false)).toEqual({ isValid: true, value: false })
    expect(check('BOOLEAN', 'true')).toMatchObject({ isValid: false })
    expect(check('DOUBLE', -1.25)).toEqual({ isValid: true, value: -1.25 })
    expect(check('DOUBLE', '1.5')).toMatchObject({ isValid: false })
  })

  it('accepts standard base64 within the blob limit and reports its size', () => {
    expect(checkBlob('aGVsbG8=', LIMITS)).toEqual({ isValid: true, value: 'aGVsbG8=' })
    expect(checkBlob('', LIMITS)).toMatchObject({ isValid: true })
    expect(checkBlob('aGVsbG8', LIMITS)).toMatchObject({ isValid: false })
    expect(checkBlob('aGV-bG8=', LIMITS)).toMatchObject({ isValid: false })
    expect(checkBlob('A'.repeat(24), LIMITS)).toMatchObject({ isValid: false })
    expect(base64Size('aGVsbG8=')).toBe(5)
    expect(base64Size('aGVsbA==')).toBe(4)
  })

  it('offers the spec transformers with mask as default', () => {
    const now = 0
    const mask = (name: string, value: unknown) => {
      const t = type(name)?.transformers.mask
      return t?.kind === 'value' ? t.apply(value, { now }) : undefined
    }
    expect(mask('INTEGER', -12345)).toBe('-*****')
    expect(mask('DOUBLE', -123.45)).toBe('-***.**')
    expect(mask('BOOLEAN', true)).toBe('*')
    expect(mask('BLOB', 'aGVsbG8=')).toBe('<BLOB>')
    expect(mask('STRING', null)).toBeNull()
    const size = type('BLOB')?.transformers.size
    expect(size?.kind === 'value' && size.apply('aGVsbG8=', { now })).toBe(5)
    expect(type('JSON')?.defaultTransformer).toBe('mask')
    expect(Object.keys(type('BLOB')?.transformers ?? {})).toEqual(['mask', 'size', 'token'])
  })
})
