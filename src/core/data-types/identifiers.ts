// src/core/data-types/identifiers.ts: identifier built-in types: SSN, OBJECT_ID, TENANT_ID (§7.2)
import type { BuiltinType } from './data-type.ts'
import { invalid, valid } from './data-type.ts'
import { matching, stringType } from './string-type.ts'
import { maskSsn } from './transformers/mask.ts'

/** 9 digits, optionally `NNN-NN-NNNN` or with spaces; group ≠ 00, serial ≠ 0000 → `NNN-NN-NNNN`. */
export function checkSsn(text: string) {
  const match = /^(\d{3})[- ]?(\d{2})[- ]?(\d{4})$/.exec(text)
  if (match === null) return invalid('an SSN of 9 digits is expected')
  const [, area, group, serial] = match
  if (group === '00' || serial === '0000') return invalid('the SSN group or serial number is zero')
  return valid(`${area}-${group}-${serial}`)
}

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/

export const IDENTIFIER_TYPES: readonly BuiltinType[] = [
  stringType({
    name: 'SSN',
    description: 'A US social security number.',
    check: checkSsn,
    canSubstringIndex: true,
    mask: maskSsn,
  }),
  stringType({
    name: 'OBJECT_ID',
    description: 'An object ID (UUID), lower case.',
    check: (text) => (UUID.test(text) ? valid(text.toLowerCase()) : invalid('a UUID is expected')),
    mask: 'none',
  }),
  stringType({
    name: 'TENANT_ID',
    description: 'A tenant ID.',
    check: matching(/^[\s\S]+$/, 'a non-empty tenant ID is expected'),
  }),
]
