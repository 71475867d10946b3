// src/core/data-types/transformers/age.test.ts: DATE_OF_BIRTH age and age_frac against a fixed "today"
import { describe, expect, it } from 'vitest'
import { age, ageFraction } from './age.ts'

const at = (iso: string) => Date.parse(iso) * 1000

describe('age transformers', () => {
  it('counts completed years in UTC', () => {
    expect(age('1989-01-15', at('2024-11-08T12:00:00Z'))).toBe(35)
    expect(age('1989-11-08', at('2024-11-08T00:00:00Z'))).toBe(35)
    expect(age('1989-11-09', at('2024-11-08T23:59:59Z'))).toBe(34)
    expect(age('2030-01-01', at('2024-11-08T00:00:00Z'))).toBe(0)
  })

  it('gives years with one decimal, rounded down', () => {
    expect(ageFraction('1989-01-15', at('2024-11-08T12:00:00Z'))).toBe(35.8)
    expect(ageFraction('1989-11-08', at('2024-11-08T00:00:00Z'))).toBe(35)
    expect(ageFraction('1989-11-09', at('2024-11-08T00:00:00Z'))).toBe(34.9)
  })

  it('handles a 29 February birthday in other years', () => {
    expect(age('2000-02-29', at('2023-02-28T00:00:00Z'))).toBe(22)
    expect(age('2000-02-29', at('2023-03-01T00:00:00Z'))).toBe(23)
  })
})
