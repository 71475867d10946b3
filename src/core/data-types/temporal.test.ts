// src/core/data-types/temporal.test.ts: TIMESTAMP, DATE and DATE_OF_BIRTH as types: transformers and masks
import { describe, expect, it } from 'vitest'
import { TEMPORAL_TYPES } from './temporal.ts'

const NOW = Date.parse('2024-11-08T12:00:00Z') * 1000
const apply = (type: string, transformer: string, value: unknown) => {
  const t = TEMPORAL_TYPES.find((x) => x.name === type)?.transformers[transformer]
  return t?.kind === 'value' ? t.apply(value, { now: NOW }) : undefined
}

describe('temporal types', () => {
  it('masks per the spec examples', () => {
    expect(apply('TIMESTAMP', 'mask', '2024-11-08T15:04:05Z')).toBe('2024-11-08T15:**:**Z')
    expect(apply('DATE', 'mask', '2024-11-08')).toBe('2024-**-**')
    expect(apply('DATE_OF_BIRTH', 'mask', '2024-11-08')).toBe('2024-**-**')
  })

  it('offers age and age_frac on DATE_OF_BIRTH only', () => {
    expect(apply('DATE_OF_BIRTH', 'age', '1989-01-15')).toBe(35)
    expect(apply('DATE_OF_BIRTH', 'age_frac', '1989-01-15')).toBe(35.8)
    expect(apply('DATE_OF_BIRTH', 'age', null)).toBeNull()
    expect(apply('DATE', 'age', '1989-01-15')).toBeUndefined()
  })
})
