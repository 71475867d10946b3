// src/core/data-types/financial.ts: financial built-in types: cards, bank accounts and routing numbers (§7.2)
import type { BuiltinType, Check, TypeLimits } from './data-type.ts'
import { invalid, valid } from './data-type.ts'
import { matching, stringType } from './string-type.ts'
import { constantMask, maskAllButLast, maskWords } from './transformers/mask.ts'

/** ISO/IEC 7812-1 Annex B: the Luhn mod-10 check digit. */
export function isLuhnValid(digits: string): boolean {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i])
    if (i % 2 === 1) {
      digit *= 2
      if (digit > 9) digit -= 9
    }
    sum += digit
  }
  return sum % 10 === 0
}

/** 13–19 digits with optional spaces or dashes, Luhn-checked unless switched off; separators removed. */
export function checkCardNumber(text: string, limits: TypeLimits): Check {
  if (!/^\d[\d -]*\d$/.test(text)) return invalid('a card number of digits is expected')
  const digits = text.replace(/[ -]/g, '')
  if (digits.length < 13 || digits.length > 19) return invalid('a card number has 13 to 19 digits')
  if (limits.isLuhnCheckEnabled && !isLuhnValid(digits)) {
    return invalid('the card number fails the Luhn check')
  }
  return valid(digits)
}

/** `MM/YY` or `MM/YYYY` (leading zero optional) → `MM/YYYY`, two-digit years in 20YY. */
export function checkCardExpiration(text: string): Check {
  const match = /^(0?[1-9]|1[0-2])\/(\d{2}|\d{4})$/.exec(text)
  if (match === null) return invalid('an expiration MM/YY or MM/YYYY is expected')
  const [, month = '', year = ''] = match
  return valid(`${month.padStart(2, '0')}/${year.length === 2 ? `20${year}` : year}`)
}

export const FINANCIAL_TYPES: readonly BuiltinType[] = [
  stringType({
    name: 'BAN',
    description: 'A bank account number.',
    check: matching(/^[0-9]{5,17}$/, 'a bank account number of 5 to 17 digits is expected'),
    canSubstringIndex: true,
    mask: (text) => maskAllButLast(text, 4),
  }),
  stringType({
    name: 'CC_NUMBER',
    description: 'A payment card number.',
    check: checkCardNumber,
    mask: (text) => maskAllButLast(text, 4),
  }),
  stringType({
    name: 'CC_HOLDER_NAME',
    description: "A card holder's name.",
    canSubstringIndex: true,
    mask: maskWords,
  }),
  stringType({
    name: 'CC_EXPIRATION_STRING',
    description: 'A card expiration date, MM/YYYY.',
    check: checkCardExpiration,
    mask: constantMask('**/****'),
  }),
  stringType({
    name: 'CC_CVV',
    description: 'A card verification value.',
    check: matching(/^\d{3,4}$/, 'a CVV of 3 or 4 digits is expected'),
    mask: constantMask('***'),
  }),
  stringType({
    name: 'US_BANK_ROUTING',
    description: 'A US bank routing number.',
    check: matching(
      /^(([0-9]{9})|([0-9]{4}\/[0-9]{4})|(([0-9]{2})-([0-9]{4})\/([0-9]{4})))$/,
      'a US bank routing number is expected',
    ),
    canSubstringIndex: true,
    mask: (text) => maskAllButLast(text, 3),
  }),
  stringType({
    name: 'US_BANK_ACCOUNT_NUMBER',
    description: 'A US bank account number.',
    check: matching(/^[\s\S]+$/, 'a non-empty account number is expected'),
    canSubstringIndex: true,
    mask: (text) => maskAllButLast(text, 4),
  }),
]
