// src/core/collections/pvschema/tokenizer.test.ts: PVSchema tokens, positions, strings and comments
import { describe, expect, it } from 'vitest'
import { VaultError } from '../../errors.ts'
import { tokenize } from './tokenizer.ts'

function errorOf(source: string): VaultError {
  try {
    tokenize(source)
  } catch (error) {
    if (error instanceof VaultError) return error
  }
  throw new Error('expected a syntax error')
}

describe('PVSchema tokenizer', () => {
  it('produces words, strings and punctuation with 1-based positions', () => {
    const tokens = tokenize("people PERSONS (\n  ssn SSN COMMENT 'It''s';\n)")
    expect(tokens.map((t) => [t.kind, t.text, t.line, t.column])).toEqual([
      ['word', 'people', 1, 1],
      ['word', 'PERSONS', 1, 8],
      ['(', '(', 1, 16],
      ['word', 'ssn', 2, 3],
      ['word', 'SSN', 2, 7],
      ['word', 'COMMENT', 2, 11],
      ['string', "It's", 2, 19],
      [';', ';', 2, 26],
      [')', ')', 3, 1],
      ['end', '', 3, 2],
    ])
  })

  it('accepts double quotes, strings across lines and characters beyond ASCII inside them', () => {
    const [, , string, after] = tokenize('a b "say ""hi""\n😀" x')
    expect(string?.text).toBe('say "hi"\n😀')
    expect([after?.line, after?.column]).toEqual([2, 4])
  })

  it('drops -- comments and blank space', () => {
    expect(tokenize('-- a comment\n\n  a -- trailing\n').map((t) => t.kind)).toEqual([
      'word',
      'end',
    ])
  })

  it('reports an unclosed string at its opening quote', () => {
    const error = errorOf("a b (\n  x STRING COMMENT 'open")
    expect(error.code).toBe('ERR1012')
    expect(error.context).toEqual({ line: '2', column: '20' })
    expect(error.message).toMatch(/line 2, column 20: a quoted string is not closed\.$/)
  })

  it('reports an unexpected character by position', () => {
    expect(errorOf('a b (\n x-y').context).toEqual({ line: '2', column: '3' })
    expect(errorOf('é').message).toContain("unexpected character 'é'")
    expect(errorOf('\u0000').message).toContain('U+0000')
  })
})
