// src/core/analysis/recognizers/checksums.test.ts: the check-digit and range rules that separate PII from look-alikes
import { describe, expect, it } from 'vitest'
import { isRoleMailbox } from './email.ts'
import { isNonPublicV4 } from './ip.ts'
import { isGermanTaxId, passesNhsCheck, passesNirKey } from './national-ids.ts'
import { isIssuableSsn } from './ssn.ts'
import { isPersonalUrl } from './url.ts'

describe('check digits and ranges', () => {
  it('SSN: refuses area 000, 666 and 900+, group 00, serial 0000 and the advertising numbers', () => {
    expect(isIssuableSsn('536', '22', '1234')).toBe(true)
    for (const ssn of [
      '000-12-3456',
      '666-12-3456',
      '912-12-3456',
      '536-00-1234',
      '536-22-0000',
      '078-05-1120',
    ]) {
      const [area = '', group = '', serial = ''] = ssn.split('-')
      expect(isIssuableSsn(area, group, serial), ssn).toBe(false)
    }
  })

  it('NHS number: modulus 11', () => {
    expect(passesNhsCheck('9434765919')).toBe(true)
    expect(passesNhsCheck('9434765918')).toBe(false)
  })

  it('NIR: key 97 − n mod 97, Corsica 2A/2B counted as 19/18', () => {
    expect(passesNirKey('1850578006084', '91')).toBe(true)
    expect(passesNirKey('1850578006084', '36')).toBe(false)
    const corsica = '28502A0060841'
    const numeric = corsica.replace('2A', '19')
    let rest = 0
    for (const ch of numeric) rest = (rest * 10 + Number(ch)) % 97
    expect(passesNirKey(corsica, String(97 - rest))).toBe(true)
  })

  it('German tax ID: one repeated digit in the first ten and ISO 7064 MOD 11,10', () => {
    expect(isGermanTaxId('65929970489')).toBe(true)
    expect(isGermanTaxId('65929970488')).toBe(false)
    expect(isGermanTaxId('01234567890')).toBe(false)
    expect(isGermanTaxId('12345678903')).toBe(false)
  })

  it('IPv4: private, loopback, link-local, shared, multicast ranges and netmasks are not public', () => {
    for (const ip of [
      '10.1.2.3',
      '127.0.0.1',
      '169.254.1.1',
      '172.20.0.1',
      '192.168.1.1',
      '100.64.0.1',
      '224.0.0.1',
      '255.255.255.0',
      '255.255.0.0',
      '0.0.0.0',
    ])
      expect(isNonPublicV4(ip.split('.').map(Number)), ip).toBe(true)
    expect(isNonPublicV4([81, 2, 69, 160])).toBe(false)
  })

  it('mailboxes of a function are not a person', () => {
    expect(isRoleMailbox('support')).toBe(true)
    expect(isRoleMailbox('no-reply')).toBe(true)
    expect(isRoleMailbox('sales.europe')).toBe(true)
    expect(isRoleMailbox('kundenservice')).toBe(true)
    expect(isRoleMailbox('maria.garcia')).toBe(false)
  })

  it('URLs: a profile, an e-mail or a user page carries personal data; documentation does not', () => {
    expect(isPersonalUrl('https://www.linkedin.com/in/maria-garcia-4b2')).toBe(true)
    expect(isPersonalUrl('https://github.com/janedoe')).toBe(true)
    expect(isPersonalUrl('https://app.example.com/reset?email=jo%40mail.com')).toBe(true)
    expect(isPersonalUrl('https://example.com/users/jo.smith/profile')).toBe(true)
    expect(isPersonalUrl('https://github.com/acme/api/issues/12')).toBe(false)
    expect(isPersonalUrl('https://www.facebook.com/help')).toBe(false)
    expect(isPersonalUrl('https://docs.example.com/guide')).toBe(false)
  })
})
