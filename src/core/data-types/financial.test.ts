// src/core/data-types/financial.test.ts: card numbers (Luhn), expirations, CVV, bank numbers and their masks
import { describe, expect, it } from 'vitest'
import type { TypeLimits } from './data-type.ts'
import { checkCardExpiration, checkCardNumber, FINANCIAL_TYPES, isLuhnValid } from './financial.ts'

const LIMITS: TypeLimits = { maxStringLength: 450, maxBlobLength: 1000, isLuhnCheckEnabled: true }
const type = (name: string) => FINANCIAL_TYPES.find((t) => t.name === name)
const isValid = (name: string, value: string) => type(name)?.check(value, LIMITS).isValid
const mask = (name: string, value: string) => {
  const t = type(name)?.transformers.mask
  return t?.kind === 'value' ? t.apply(value, { now: 0 }) : undefined
}

describe('financial types', () => {
  it('checks the Luhn digit', () => {
    expect(isLuhnValid('4111111111111111')).toBe(true)
    expect(isLuhnValid('4111111111111112')).toBe(false)
    expect(isLuhnValid('79927398713')).toBe(true)
  })

  it('accepts card numbers with spaces or dashes and removes them', () => {
    expect(checkCardNumber('4111 1111-1111 1111', LIMITS)).toEqual({
      isValid: true,
      value: '4111111111111111',
    })
    expect(checkCardNumber('4111111111111112', LIMITS).isValid).toBe(false)
    expect(checkCardNumber('411111111111', LIMITS).isValid).toBe(false)
    expect(checkCardNumber('41111111111111111111', LIMITS).isValid).toBe(false)
  })

  it('skips the Luhn check when it is switched off', () => {
    const off = { ...LIMITS, isLuhnCheckEnabled: false }
    expect(checkCardNumber('4111111111111112', off).isValid).toBe(true)
  })

  it('normalizes expirations to MM/YYYY', () => {
    expect(checkCardExpiration('3/27')).toEqual({ isValid: true, value: '03/2027' })
    expect(checkCardExpiration('12/2030')).toEqual({ isValid: true, value: '12/2030' })
    expect(checkCardExpiration('13/27').isValid).toBe(false)
    expect(checkCardExpiration('00/27').isValid).toBe(false)
    expect(checkCardExpiration('1/2').isValid).toBe(false)
  })

  it('checks CVV, BAN and routing numbers', () => {
    expect(isValid('CC_CVV', '123')).toBe(true)
    expect(isValid('CC_CVV', '12345')).toBe(false)
    expect(isValid('BAN', '12345')).toBe(true)
    expect(isValid('BAN', '1234')).toBe(false)
    for (const routing of ['123456789', '1234/5678', '12-1234/5678'])
      expect(isValid('US_BANK_ROUTING', routing), routing).toBe(true)
    expect(isValid('US_BANK_ROUTING', '12345678')).toBe(false)
    expect(isValid('US_BANK_ACCOUNT_NUMBER', '')).toBe(false)
  })

  it('masks per the spec examples', () => {
    expect(mask('BAN', '12345677917')).toBe('*******7917')
    expect(mask('CC_NUMBER', '4111111111119573')).toBe('************9573')
    expect(mask('CC_HOLDER_NAME', 'John Doe')).toBe('J*** D**')
    expect(mask('CC_EXPIRATION_STRING', '03/2027')).toBe('**/****')
    expect(mask('CC_CVV', '123')).toBe('***')
    expect(mask('US_BANK_ROUTING', '123456789')).toBe('******789')
    expect(mask('US_BANK_ACCOUNT_NUMBER', '123456789')).toBe('*****6789')
  })
})
