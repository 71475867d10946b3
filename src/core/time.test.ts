// src/core/time.test.ts: the spec's time formats, including many calls within one millisecond
import { describe, expect, it } from 'vitest'
import { formatNano, formatSeconds } from './time.ts'

describe('time formats', () => {
  it('gives nanosecond digits from microseconds, within and across milliseconds', () => {
    const base = Date.UTC(2024, 0, 2, 3, 4, 5, 678) * 1000
    expect(formatNano(base)).toBe('2024-01-02T03:04:05.678000000Z')
    expect(formatNano(base + 9)).toBe('2024-01-02T03:04:05.678009000Z')
    expect(formatNano(base + 999)).toBe('2024-01-02T03:04:05.678999000Z')
    expect(formatNano(base + 1000)).toBe('2024-01-02T03:04:05.679000000Z')
    expect(formatNano(base - 1)).toBe('2024-01-02T03:04:05.677999000Z')
    expect(formatNano(base)).toBe('2024-01-02T03:04:05.678000000Z')
  })

  it('gives seconds for coarse fields', () => {
    expect(formatSeconds(Date.UTC(2024, 0, 2, 3, 4, 5, 678) * 1000)).toBe('2024-01-02T03:04:05Z')
  })
})
