// src/core/data-types/transformers/mask.test.ts: the mask examples of data-model §7.4
import { describe, expect, it } from 'vitest'
import {
  maskAllButLast,
  maskDate,
  maskDigitsButLast,
  maskEmail,
  maskNumber,
  maskSsn,
  maskText,
  maskTimestamp,
  maskWords,
  maskZipCode,
} from './mask.ts'

describe('mask transformers', () => {
  it('keeps the first character of an e-mail local part and the whole domain', () => {
    expect(maskEmail('john.doe123@gmail.com')).toBe('j**********@gmail.com')
    expect(maskEmail('"a..b"@x.io')).toBe('"*****@x.io')
  })

  it('keeps the last 4 digits of an SSN', () => {
    expect(maskSsn('123-45-4357')).toBe('***-**-4357')
  })

  it('masks all but the last 4 of bank account and card numbers', () => {
    expect(maskAllButLast('12345677917', 4)).toBe('*******7917')
    expect(maskAllButLast('4111111111119573', 4)).toBe('************9573')
    expect(maskAllButLast('12', 4)).toBe('12')
  })

  it('keeps the last 3 of a routing number and the last 4 of a US account number', () => {
    expect(maskAllButLast('123456789', 3)).toBe('******789')
    expect(maskAllButLast('123456789', 4)).toBe('*****6789')
  })

  it('masks every phone digit but the last 4 and keeps other characters', () => {
    expect(maskDigitsButLast('555-1234-2795', 4)).toBe('***-****-2795')
    expect(maskDigitsButLast('+15551232795', 4)).toBe('+*******2795')
  })

  it('keeps the first 3 ZIP digits, or generalises sparse prefixes to 000', () => {
    expect(maskZipCode('12345')).toBe('123**')
    expect(maskZipCode('12345-6789')).toBe('123**')
    for (const prefix of ['036', '059', '063', '102', '203', '556', '692', '790', '821'])
      expect(maskZipCode(`${prefix}12`)).toBe('000**')
    for (const prefix of ['823', '830', '831', '878', '879', '884', '890', '893'])
      expect(maskZipCode(`${prefix}12`)).toBe('000**')
  })

  it('masks minutes and seconds of a timestamp', () => {
    expect(maskTimestamp('2024-11-08T15:04:05Z')).toBe('2024-11-08T15:**:**Z')
    expect(maskTimestamp('2024-11-08T15:04:05.123456Z')).toBe('2024-11-08T15:**:**Z')
  })

  it('masks month and day of a date', () => {
    expect(maskDate('2024-11-08')).toBe('2024-**-**')
  })

  it('keeps the first letter of each word of a name', () => {
    expect(maskWords('John Doe')).toBe('J*** D**')
    expect(maskWords('  Ann  ')).toBe('  A**  ')
  })

  it('masks every non-whitespace character and cuts at 30 characters', () => {
    expect(maskText('Main St.')).toBe('**** ***')
    expect(maskText('x'.repeat(31))).toBe(`${'*'.repeat(30)}...`)
    expect(maskText('x'.repeat(30))).toBe('*'.repeat(30))
    expect(maskText('ünï cödé')).toBe('*** ****')
  })

  it('masks digits of numbers and keeps sign and point', () => {
    expect(maskNumber(12345)).toBe('*****')
    expect(maskNumber(-123.45)).toBe('-***.**')
    expect(maskNumber('-9223372036854775808')).toBe(`-${'*'.repeat(19)}`)
  })
})
