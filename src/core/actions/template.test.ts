// src/core/actions/template.test.ts: http_call templates: parsing, errors, escaping and pipelines
import { describe, expect, it } from 'vitest'
import { vaultErrorOf as errorOf } from '../../../test/helpers/errors.ts'
import { parseTemplate, renderTemplate, variablesOf } from './template.ts'

const render = (text: string, variables: Record<string, unknown>) =>
  renderTemplate('body', parseTemplate('body', text), variables)

describe('http_call templates', () => {
  it('keeps text without actions as it is', () => {
    expect(render('plain { text } }}', {})).toBe('plain { text } }}')
  })

  it('finds the variables, with or without spaces', () => {
    expect(
      variablesOf(parseTemplate('url', '/{{.a}}/{{ .b.c }}/{{ .a | escape_quotes }}')),
    ).toEqual(['a', 'b', 'a'])
  })

  it('escapes quotes and backslashes of string values printed as they are', () => {
    expect(render('{"n": "{{ .n }}"}', { n: 'a "b" \\c' })).toBe('{"n": "a \\"b\\" \\\\c"}')
    expect(JSON.parse(render('{"n": "{{ .n }}"}', { n: 'a "b" \\c' }))).toEqual({ n: 'a "b" \\c' })
  })

  it('prints numbers, booleans, null and objects as JSON, unescaped', () => {
    expect(
      render('{{ .n }} {{ .b }} {{ .z }} {{ .o }}', { n: 4.5, b: true, z: null, o: { a: '"' } }),
    ).toBe('4.5 true null {"a":"\\""}')
  })

  it('reads properties of object values', () => {
    expect(
      render('{{ .p.email }}/{{ .p.inner.x }}', { p: { email: 'a@b.c', inner: { x: 1 } } }),
    ).toBe('a@b.c/1')
  })

  it('applies escape_quotes in a pipeline once, to the unescaped text', () => {
    expect(render('{{ .n | escape_quotes }}', { n: 'say "hi"' })).toBe('say \\"hi\\"')
    expect(render('{{ .o | escape_quotes }}', { o: { a: 'b' } })).toBe('{\\"a\\":\\"b\\"}')
    expect(render('{{ .n | escape_quotes | escape_quotes }}', { n: '"' })).toBe('\\\\\\"')
  })

  it('refuses unclosed actions, bad references and unknown functions (400 ERR1012)', () => {
    for (const bad of [
      '{{ .a',
      '{{ a }}',
      '{{ }}',
      '{{ .a. }}',
      '{{ .1a }}',
      '{{ .a | upper }}',
      '{{ .a | }}',
      '{{ .a-b }}',
    ]) {
      const error = errorOf(() => parseTemplate('request.url', bad))
      expect(error.errorName).toBe('invalidRequest')
      expect(error.context).toEqual({ field: 'request.url' })
    }
  })

  it('refuses a property an object value does not have', () => {
    const error = errorOf(() => render('{{ .p.missing }}', { p: { a: 1 } }))
    expect(error.message).toContain('has no property missing')
    expect(errorOf(() => render('{{ .p.toString }}', { p: {} })).errorName).toBe('invalidRequest')
    expect(errorOf(() => render('{{ .s.length }}', { s: 'abc' })).errorName).toBe('invalidRequest')
  })
})
