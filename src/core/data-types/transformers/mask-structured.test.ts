// src/core/data-types/transformers/mask-structured.test.ts: JSON and URL masks (data-model §7.4)
import { describe, expect, it } from 'vitest'
import { maskJson, maskUrl } from './mask-structured.ts'

describe('structured masks', () => {
  it('keeps JSON keys and structure and masks the leaves', () => {
    expect(maskJson({ first_name: 'John', last_name: 'Doe' })).toBe(
      '{"first_name":"****","last_name":"***"}',
    )
    expect(maskJson({ a: [1, -2.5, true, null], b: { c: 'x y' } })).toBe(
      '{"a":["*","-*.*","*",null],"b":{"c":"* *"}}',
    )
    expect(maskJson('secret')).toBe('"******"')
  })

  it('keeps the scheme and registrable domain of a URL and masks the rest', () => {
    expect(maskUrl('https://www.domain.com/a/b/c/d')).toBe('https://****domain.com********')
    expect(maskUrl('https://domain.com')).toBe('https://domain.com')
    expect(maskUrl('http://a.b.shop.co.uk:8080/x?y=1')).toBe('http://****shop.co.uk***********')
    expect(maskUrl('example.com/path')).toBe('example.com*****')
    expect(maskUrl('https://user:pw@www.example.com/')).toBe('https://************example.com*')
    expect(maskUrl('http://10.0.0.1/admin')).toBe('http://10.0.0.1******')
  })
})
