// src/core/paging/cursor.test.ts: cursors round-trip and refuse tampering or another query
import { describe, expect, it } from 'vitest'
import { VaultError } from '../errors.ts'
import { decodeCursor, encodeCursor, queryFingerprint } from './cursor.ts'

describe('cursors', () => {
  const query = queryFingerprint({ collection: 'people', props: ['name'] })

  it('round-trip a position for the same query', () => {
    const id = '8d0f1c1e-8b6c-4ec3-a7f4-3b1ad8a0ad4e'
    const cursor = encodeCursor({ createdAt: 1_700_000_000_000_123, id }, query)
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/)
    expect(decodeCursor(cursor, query)).toEqual({ createdAt: 1_700_000_000_000_123, id })
  })

  it('refuse a cursor of another query, malformed input and wrong field types with 400 ERR1012', () => {
    const cursor = encodeCursor({ createdAt: 1, id: 'x' }, query)
    const other = queryFingerprint({ collection: 'people', props: ['email'] })
    for (const bad of [
      () => decodeCursor(cursor, other),
      () => decodeCursor('not a cursor!', query),
      () => decodeCursor(Buffer.from('{"t":"1","i":"x","q":"q"}').toString('base64url'), query),
      () => decodeCursor(Buffer.from('null').toString('base64url'), query),
      // A forged cursor naming something that is not an object id (e.g. with a NUL character).
      () => decodeCursor(encodeCursor({ createdAt: 1, id: 'x\u0000' }, query), query),
    ]) {
      expect(bad).toThrow(VaultError)
      try {
        bad()
      } catch (error) {
        expect((error as VaultError).code).toBe('ERR1012')
      }
    }
  })
})
