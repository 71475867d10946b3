// src/core/data-types/personal.ts: personal built-in types: e-mail, URL, phone, ZIP code, name, gender, address (§7.2)
import type { BuiltinType } from './data-type.ts'
import { invalid, valid } from './data-type.ts'
import { checkEmail, checkEmailStrict } from './email.ts'
import { matching, stringType } from './string-type.ts'
import { constantMask, maskEmail, maskPhone, maskWords, maskZipCode } from './transformers/mask.ts'
import { maskUrl } from './transformers/mask-structured.ts'
import { checkUrl } from './url.ts'

const MAX_PHONE_DIGITS = 15

/** E.164-like: an optional leading `+`, up to 15 digits, `-` anywhere; hyphens are removed. */
export function checkPhoneNumber(text: string) {
  if (!/^\+?[\d-]+$/.test(text))
    return invalid('a phone number of digits, - and a leading + is expected')
  const digits = text.replace(/\D/g, '').length
  if (digits === 0 || digits > MAX_PHONE_DIGITS) {
    return invalid(`a phone number has 1 to ${MAX_PHONE_DIGITS} digits`)
  }
  return valid(text.replaceAll('-', ''))
}

export const PERSONAL_TYPES: readonly BuiltinType[] = [
  stringType({
    name: 'EMAIL',
    description: 'An e-mail address.',
    check: checkEmail,
    canSubstringIndex: true,
    mask: maskEmail,
  }),
  stringType({
    name: 'EMAIL_STRICT',
    description: 'An e-mail address, lower-cased and without a +tag sub-address.',
    check: checkEmailStrict,
    canSubstringIndex: true,
    mask: maskEmail,
  }),
  stringType({
    name: 'URL',
    description: 'An absolute or host-relative URL.',
    check: checkUrl,
    canSubstringIndex: true,
    mask: maskUrl,
  }),
  stringType({
    name: 'PHONE_NUMBER',
    description: 'A phone number (E.164-like).',
    check: checkPhoneNumber,
    mask: maskPhone,
  }),
  stringType({
    name: 'ZIP_CODE_US',
    description: 'A US ZIP code: 12345 or 12345-6789.',
    check: matching(/^\d{5}([ -]\d{4})?$/, 'a US ZIP code is expected'),
    mask: maskZipCode,
  }),
  stringType({
    name: 'NAME',
    description: "A person's name.",
    canSubstringIndex: true,
    mask: maskWords,
  }),
  stringType({
    name: 'GENDER',
    description: 'A gender.',
    canSubstringIndex: true,
    mask: constantMask('**********'),
  }),
  stringType({ name: 'ADDRESS', description: 'A postal address.', canSubstringIndex: true }),
]
