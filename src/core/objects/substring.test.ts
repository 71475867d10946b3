// src/core/objects/substring.test.ts: trigrams, like-pattern rules and glob matching
import { describe, expect, it } from 'vitest'
import { globMatches, parseLike, trigrams } from './substring.ts'

function like(pattern: string) {
  const parsed = parseLike(pattern)
  if (!parsed.ok) throw new Error(parsed.reason)
  return parsed.pattern
}

describe('trigrams', () => {
  it('gives the distinct lower-case 3-character runs', () => {
    expect(trigrams('John')).toEqual(['joh', 'ohn'])
    expect(trigrams('aaaa')).toEqual(['aaa'])
    expect(trigrams('ab')).toEqual([])
  })

  it('counts code points, not UTF-16 units, and folds to NFC', () => {
    expect(trigrams('😀ab')).toEqual(['😀ab'])
    expect(trigrams('Cafe\u0301')).toEqual(trigrams('Café'))
  })
})

describe('like patterns', () => {
  it.each([
    ['*john*', 'Dr. John Smith', true],
    ['*john*', 'Jon', false],
    ['john*', 'John Smith', true],
    ['john*', 'Dr. John', false],
    ['*smith', 'John SMITH', true],
    ['j?hn sm*', 'john smith', true],
    ['j?hn sm*', 'jhn smith', false],
    ['john smith', 'JOHN SMITH', true],
    ['john smith', 'john smithe', false],
    ['*a.b*c+d*', 'xaxbxc+d', false],
    ['*a.b*c+dd*', 'xa.bzc+dd', true],
    ['*person 2-99*', 'Person 2-995', true],
    ['*a/b(c)[d]{e}|f^g$h\\i*', 'a/b(c)[d]{e}|f^g$h\\i', true],
  ])('%s against %s → %s', (pattern, value, expected) => {
    expect(like(pattern).matches(value)).toBe(expected)
  })

  it('requires at least two 3-character runs in the literal parts', () => {
    expect(parseLike('*jo*').ok).toBe(false)
    expect(parseLike('*joh*').ok).toBe(false)
    expect(parseLike('*jo?n*').ok).toBe(false)
    expect(parseLike('****').ok).toBe(false)
    expect(parseLike('*john*').ok).toBe(true)
    expect(parseLike('*abc*def*').ok).toBe(true)
  })

  it('names the trigrams every match must contain', () => {
    expect([...like('*john*smi*').grams].sort()).toEqual(['joh', 'ohn', 'smi'])
  })
})

describe('glob matching in bounded time', () => {
  it.each([
    ['', '', true],
    ['*', '', true],
    ['a*', 'a', true],
    ['*a', 'ba', true],
    ['a*b*c', 'aXbYc', true],
    ['a*b*c', 'aXbYcZ', false],
    ['a?c', 'abc', true],
    ['a?c', 'ac', false],
    ['**a**', 'xax', true],
    ['*ab*ab*', 'abab', true],
    ['*ab*ab*', 'aba', false],
  ])('%j against %j → %s', (pattern, value, expected) => {
    expect(globMatches(Array.from(pattern), Array.from(value))).toBe(expected)
  })

  it('answers hostile patterns against long values without backtracking', () => {
    const value = 'a'.repeat(400)
    expect(like(`${'*aaa'.repeat(60)}*aab`).matches(value)).toBe(false)
    expect(like(`*aaaa${'?a'.repeat(100)}*b*`).matches(value)).toBe(false)
    expect(like(`${'*aaa'.repeat(50)}*`).matches(value)).toBe(true)
  })

  it('rejects a pattern with more fixed characters than the value at once', () => {
    const pattern = like(`*${'abc'.repeat(5000)}*`)
    expect(pattern.matches('abc'.repeat(100))).toBe(false)
    expect(pattern.matches('abc'.repeat(5000))).toBe(true)
  })
})
