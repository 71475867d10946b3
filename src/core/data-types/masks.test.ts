// src/core/data-types/masks.test.ts: every `mask` of data-model §7.4 against the spec's own examples
import { describe, expect, it } from 'vitest'
import type { TypeLimits } from './data-type.ts'
import { BUILTIN_TYPES } from './registry.ts'

const LIMITS: TypeLimits = { maxStringLength: 450, maxBlobLength: 1000, isLuhnCheckEnabled: true }

/** Validates and normalizes `input` as the vault stores it, then applies the type's `mask`. */
function masked(typeName: string, input: unknown): unknown {
  const type = BUILTIN_TYPES.find((t) => t.name === typeName)
  if (type === undefined) throw new Error(`no built-in type ${typeName}`)
  const checked = type.check(input, LIMITS)
  if (!checked.isValid) throw new Error(`${typeName} refuses the example input`)
  const mask = type.transformers.mask
  if (mask?.kind !== 'value') throw new Error(`${typeName} has no mask`)
  return mask.apply(checked.value, { now: 0 })
}

// [type, an input value, the output the spec's table shows]
const SPEC_EXAMPLES: readonly (readonly [string, unknown, string])[] = [
  ['EMAIL', 'john.doe123@gmail.com', 'j**********@gmail.com'],
  ['EMAIL_STRICT', 'john.doe123@gmail.com', 'j**********@gmail.com'],
  ['SSN', '123-45-4357', '***-**-4357'],
  ['BAN', '12345677917', '*******7917'],
  ['PHONE_NUMBER', '+15551232795', '********2795'],
  ['PHONE_NUMBER', '+972541234567', '*********4567'],
  ['ZIP_CODE_US', '12345', '123**'],
  ['ZIP_CODE_US', '03612', '000**'],
  ['TIMESTAMP', '2024-11-08T15:04:05Z', '2024-11-08T15:**:**Z'],
  ['DATE', '2024-11-08', '2024-**-**'],
  ['DATE_OF_BIRTH', '2024-11-08', '2024-**-**'],
  ['NAME', 'John Doe', 'J*** D**'],
  ['CC_HOLDER_NAME', 'John Doe', 'J*** D**'],
  ['GENDER', 'female', '**********'],
  ['ADDRESS', 'Main St.', '**** ***'],
  ['STRING', 'Main St.', '**** ***'],
  ['LONG_TEXT', 'Main St.', '**** ***'],
  ['TENANT_ID', 'acme corp', '**** ****'],
  ['STRING', 'a'.repeat(31), `${'*'.repeat(30)}...`],
  ['CC_NUMBER', '4111111111079573', '************9573'],
  ['CC_EXPIRATION_STRING', '12/2030', '**/****'],
  ['CC_CVV', '123', '***'],
  ['US_BANK_ROUTING', '123456789', '******789'],
  ['US_BANK_ACCOUNT_NUMBER', '123456789', '*****6789'],
  ['INTEGER', 12345, '*****'],
  ['INTEGER', -12345, '-*****'],
  ['DOUBLE', -123.45, '-***.**'],
  ['BOOLEAN', true, '*'],
  ['JSON', { first_name: 'John', last_name: 'Doe' }, '{"first_name":"****","last_name":"***"}'],
  ['URL', 'https://www.domain.com/a/b/c/d', 'https://****domain.com********'],
  ['BLOB', 'aGVsbG8=', '<BLOB>'],
]

describe('mask (data-model §7.4)', () => {
  it.each(SPEC_EXAMPLES)('%s %j → %s', (typeName, input, expected) => {
    expect(masked(typeName, input)).toBe(expected)
  })

  it('keeps the separators of a phone number (stored values have none: hyphens are removed)', () => {
    const mask = BUILTIN_TYPES.find((t) => t.name === 'PHONE_NUMBER')?.transformers.mask
    const apply = (value: string) => (mask?.kind === 'value' ? mask.apply(value, { now: 0 }) : '')
    expect(apply('555-1234-2795')).toBe('***-****-2795')
    expect(apply('+972-54-123-4567')).toBe('****-**-***-4567')
  })

  it('covers every type of the spec table', () => {
    const covered = new Set(SPEC_EXAMPLES.map(([name]) => name))
    const withMask = BUILTIN_TYPES.filter((t) => t.transformers.mask !== undefined).map(
      (t) => t.name,
    )
    expect(withMask.filter((name) => !covered.has(name))).toEqual([])
  })
})
