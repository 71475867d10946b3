// src/core/data-types/email.test.ts: EMAIL and EMAIL_STRICT
import { describe, expect, it } from 'vitest'
import { checkEmail, checkEmailStrict } from './email.ts'

describe('e-mail types', () => {
  it('accepts WHATWG-valid addresses and keeps them as written', () => {
    expect(checkEmail('John.Doe+news@Example.com')).toEqual({
      isValid: true,
      value: 'John.Doe+news@Example.com',
    })
  })

  it('refuses what the WHATWG expression refuses', () => {
    for (const bad of ['<a@b.com>', 'a@b', 'a b@c.com', 'a@-b.com', '@b.com', 'a@b..com', 'a@'])
      expect(checkEmail(bad).isValid, bad).toBe(bad === 'a@b')
  })

  it('quotes a local part that is not a dot-atom (RFC 5322 address form)', () => {
    expect(checkEmail('a..b@c.com')).toEqual({ isValid: true, value: '"a..b"@c.com' })
    expect(checkEmail('.a@c.com')).toEqual({ isValid: true, value: '".a"@c.com' })
  })

  it('lower-cases EMAIL_STRICT and removes a +tag sub-address', () => {
    expect(checkEmailStrict('John.Doe+News@Example.COM')).toEqual({
      isValid: true,
      value: 'john.doe@example.com',
    })
    expect(checkEmailStrict('+only@x.com')).toEqual({ isValid: true, value: '+only@x.com' })
  })
})
