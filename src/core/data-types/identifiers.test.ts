// src/core/data-types/identifiers.test.ts: SSN, OBJECT_ID, TENANT_ID
import { describe, expect, it } from 'vitest'
import type { TypeLimits } from './data-type.ts'
import { checkSsn, IDENTIFIER_TYPES } from './identifiers.ts'

const LIMITS: TypeLimits = { maxStringLength: 450, maxBlobLength: 1000, isLuhnCheckEnabled: true }
const check = (name: string, value: unknown) =>
  IDENTIFIER_TYPES.find((t) => t.name === name)?.check(value, LIMITS)

describe('identifier types', () => {
  it('normalizes SSNs to NNN-NN-NNNN', () => {
    for (const ssn of ['123456789', '123-45-6789', '123 45 6789'])
      expect(checkSsn(ssn)).toEqual({ isValid: true, value: '123-45-6789' })
  })

  it('refuses SSNs with a zero group or serial, or the wrong shape', () => {
    for (const bad of ['123-00-6789', '123-45-0000', '12345678', '123-456-789', 'abc-de-fghi'])
      expect(checkSsn(bad).isValid, bad).toBe(false)
  })

  it('lower-cases object IDs and refuses non-UUIDs', () => {
    expect(check('OBJECT_ID', 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11')).toEqual({
      isValid: true,
      value: 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
    })
    expect(check('OBJECT_ID', 'not-a-uuid')?.isValid).toBe(false)
  })

  it('needs a non-empty tenant ID', () => {
    expect(check('TENANT_ID', '')?.isValid).toBe(false)
    expect(check('TENANT_ID', 't1')?.isValid).toBe(true)
  })

  it('masks the SSN but offers no mask for object IDs', () => {
    const ssn = IDENTIFIER_TYPES.find((t) => t.name === 'SSN')?.transformers.mask
    expect(ssn?.kind === 'value' && ssn.apply('123-45-4357', { now: 0 })).toBe('***-**-4357')
    const objectId = IDENTIFIER_TYPES.find((t) => t.name === 'OBJECT_ID')
    expect(Object.keys(objectId?.transformers ?? {})).toEqual(['token'])
    expect(objectId?.defaultTransformer).toBeUndefined()
  })
})
