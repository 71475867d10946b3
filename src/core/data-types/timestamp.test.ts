// src/core/data-types/timestamp.test.ts: TIMESTAMP layouts and DATE
import { describe, expect, it } from 'vitest'
import { checkDate, checkTimestamp } from './timestamp.ts'

const value = (text: string) => {
  const result = checkTimestamp(text)
  return result.isValid ? result.value : undefined
}

describe('TIMESTAMP', () => {
  it('normalizes RFC 3339 to UTC and keeps the fraction without trailing zeros', () => {
    expect(value('2024-11-08T15:04:05Z')).toBe('2024-11-08T15:04:05Z')
    expect(value('2024-11-08T15:04:05.120+02:00')).toBe('2024-11-08T13:04:05.12Z')
    expect(value('2024-11-08t23:30:00.123456789-01:00')).toBe('2024-11-09T00:30:00.123456789Z')
    expect(value('2024-11-08T15:04:05.000Z')).toBe('2024-11-08T15:04:05Z')
  })

  it('reads RFC 1123, 822, 850, ANSI C and Unix date forms', () => {
    expect(value('Fri, 08 Nov 2024 15:04:05 GMT')).toBe('2024-11-08T15:04:05Z')
    expect(value('Fri, 08 Nov 2024 15:04:05 -0700')).toBe('2024-11-08T22:04:05Z')
    expect(value('08 Nov 24 15:04 PST')).toBe('2024-11-08T23:04:00Z')
    expect(value('Friday, 08-Nov-24 15:04:05 UTC')).toBe('2024-11-08T15:04:05Z')
    expect(value('Fri Nov  8 15:04:05 2024')).toBe('2024-11-08T15:04:05Z')
    expect(value('Fri Nov  8 15:04:05 EST 2024')).toBe('2024-11-08T20:04:05Z')
    expect(value('Mon Jan 02 15:04:05 1970')).toBe('1970-01-02T15:04:05Z')
  })

  it('refuses impossible or malformed times', () => {
    for (const bad of [
      '2024-02-30T00:00:00Z',
      '2024-11-08T24:00:00Z',
      '2024-11-08T15:04:60Z',
      '2024-11-08 15:04:05',
      '2024-11-08T15:04:05',
      '0000-01-01T00:00:00+01:00',
      'yesterday',
    ])
      expect(value(bad), bad).toBeUndefined()
  })
})

describe('DATE', () => {
  it('accepts real calendar dates only', () => {
    expect(checkDate('2024-02-29')).toEqual({ isValid: true, value: '2024-02-29' })
    expect(checkDate('2023-02-29').isValid).toBe(false)
    expect(checkDate('2024-13-01').isValid).toBe(false)
    expect(checkDate('2024-1-01').isValid).toBe(false)
  })
})
