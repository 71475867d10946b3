// src/http/query.test.ts: the query-string parser against URLSearchParams, and its array parameters
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseQuery, queryPairs } from './query.ts'

describe('query strings', () => {
  it('splits the pairs as URLSearchParams does, with or without anything to decode', () => {
    const text = fc.string({
      unit: fc.constantFrom('a', 'b', 'é', '=', '&', '?', ',', '%', '2', '0', '+', ' '),
      maxLength: 24,
    })
    fc.assert(
      fc.property(text, (query) => {
        expect([...queryPairs(query)]).toEqual([...new URLSearchParams(query)])
      }),
      { numRuns: 2000 },
    )
  })

  it('keeps scalars as strings and merges array parameters', () => {
    expect(parseQuery('reason=AppFunctionality&props=a,b&props=c')).toEqual({
      reason: 'AppFunctionality',
      props: ['a', 'b', 'c'],
    })
    expect(parseQuery('?reason=a%20b&reason=c')).toEqual({ reason: ['a b', 'c'] })
    expect(parseQuery('flag&=x&&')).toEqual({ flag: '', '': 'x' })
  })
})
