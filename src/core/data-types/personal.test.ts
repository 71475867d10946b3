// src/core/data-types/personal.test.ts: phone, ZIP code, names and their masks
import { describe, expect, it } from 'vitest'
import type { TypeLimits } from './data-type.ts'
import { checkPhoneNumber, PERSONAL_TYPES } from './personal.ts'

const LIMITS: TypeLimits = { maxStringLength: 450, maxBlobLength: 1000, isLuhnCheckEnabled: true }
const type = (name: string) => PERSONAL_TYPES.find((t) => t.name === name)
const mask = (name: string, value: string) => {
  const t = type(name)?.transformers.mask
  return t?.kind === 'value' ? t.apply(value, { now: 0 }) : undefined
}

describe('personal types', () => {
  it('accepts E.164-like phone numbers and removes hyphens', () => {
    expect(checkPhoneNumber('+1-555-123-2795')).toEqual({ isValid: true, value: '+15551232795' })
    expect(checkPhoneNumber('123456789012345').isValid).toBe(true)
    expect(checkPhoneNumber('1234567890123456').isValid).toBe(false)
    expect(checkPhoneNumber('++1').isValid).toBe(false)
    expect(checkPhoneNumber('1 555').isValid).toBe(false)
    expect(checkPhoneNumber('-').isValid).toBe(false)
  })

  it('checks US ZIP codes', () => {
    const zip = (v: string) => type('ZIP_CODE_US')?.check(v, LIMITS).isValid
    expect(zip('12345')).toBe(true)
    expect(zip('12345-6789')).toBe(true)
    expect(zip('12345 6789')).toBe(true)
    expect(zip('1234')).toBe(false)
    expect(zip('12345-678')).toBe(false)
  })

  it('masks per the spec examples', () => {
    expect(mask('EMAIL', 'john.doe123@gmail.com')).toBe('j**********@gmail.com')
    expect(mask('PHONE_NUMBER', '555-1234-2795')).toBe('***-****-2795')
    expect(mask('ZIP_CODE_US', '12345')).toBe('123**')
    expect(mask('NAME', 'John Doe')).toBe('J*** D**')
    expect(mask('GENDER', 'female')).toBe('**********')
    expect(mask('ADDRESS', 'Main St.')).toBe('**** ***')
    expect(mask('URL', 'https://www.domain.com/a/b/c/d')).toBe('https://****domain.com********')
  })

  it('normalizes names to NFC', () => {
    expect(type('NAME')?.check('Zoe\u0308', LIMITS)).toEqual({ isValid: true, value: 'Zo\u00eb' })
  })
})
