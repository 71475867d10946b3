// src/core/data-types/registry.test.ts: the registry: the spec's list, index support, validation errors, custom types
import { describe, expect, it } from 'vitest'
import { VaultError } from '../errors.ts'
import { createTypeRegistry } from './registry.ts'

const LIMITS = { maxStringLength: 450, maxBlobLength: 5_242_880, isLuhnCheckEnabled: true }

const SPEC_TYPES = [
  'STRING',
  'LONG_TEXT',
  'JSON',
  'INTEGER',
  'BOOLEAN',
  'DOUBLE',
  'BLOB',
  'EMAIL',
  'EMAIL_STRICT',
  'URL',
  'PHONE_NUMBER',
  'ZIP_CODE_US',
  'TIMESTAMP',
  'DATE',
  'DATE_OF_BIRTH',
  'NAME',
  'GENDER',
  'ADDRESS',
  'CC_HOLDER_NAME',
  'SSN',
  'BAN',
  'CC_NUMBER',
  'CC_EXPIRATION_STRING',
  'CC_CVV',
  'US_BANK_ROUTING',
  'US_BANK_ACCOUNT_NUMBER',
  'OBJECT_ID',
  'TENANT_ID',
]

const SUBSTRING = [
  'STRING',
  'LONG_TEXT',
  'EMAIL',
  'EMAIL_STRICT',
  'URL',
  'NAME',
  'GENDER',
  'BAN',
  'SSN',
  'ADDRESS',
  'CC_HOLDER_NAME',
  'US_BANK_ROUTING',
  'US_BANK_ACCOUNT_NUMBER',
]

describe('type registry', () => {
  const registry = createTypeRegistry({ limits: LIMITS })

  it('lists exactly the built-in types of the spec', () => {
    expect(
      registry
        .list({ showBuiltins: true })
        .map((t) => t.name)
        .sort(),
    ).toEqual([...SPEC_TYPES].sort())
    expect(registry.list({ showBuiltins: true }).every((t) => t.isBuiltin)).toBe(true)
    expect(registry.list({ showBuiltins: false })).toEqual([])
  })

  it('allows is_index/is_unique on every type but LONG_TEXT, JSON and BLOB', () => {
    for (const name of SPEC_TYPES) {
      const expected = !['LONG_TEXT', 'JSON', 'BLOB'].includes(name)
      expect(registry.indexSupport(name).canIndex, name).toBe(expected)
    }
  })

  it('allows is_substring_index only on the types of §7.3', () => {
    for (const name of SPEC_TYPES)
      expect(registry.indexSupport(name).canSubstringIndex, name).toBe(SUBSTRING.includes(name))
  })

  it('refuses indexes on string types when SVC_DB_MAX_STRING_LENGTH is above 2048', () => {
    const wide = createTypeRegistry({ limits: { ...LIMITS, maxStringLength: 4096 } })
    expect(wide.indexSupport('STRING').canIndex).toBe(false)
    expect(wide.indexSupport('EMAIL').canIndex).toBe(false)
    expect(wide.indexSupport('INTEGER').canIndex).toBe(true)
  })

  it('returns normalized values and 400 ERR3002 naming the property for invalid ones', () => {
    expect(registry.validate({ name: 'ssn', dataType: 'SSN' }, '123 45 6789')).toBe('123-45-6789')
    let error: unknown
    try {
      registry.validate({ name: 'ssn', dataType: 'SSN' }, '000-00-0000')
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(VaultError)
    expect((error as VaultError).code).toBe('ERR3002')
    expect((error as VaultError).context).toEqual({ property: 'ssn' })
    expect((error as VaultError).message).not.toContain('000-00')
  })

  it('answers 404 ERR1004 for an unknown type', () => {
    expect(() => registry.getOrThrow('NOPE')).toThrowError(VaultError)
    expect(registry.get('string')).toBeUndefined()
  })

  it('reports each type JSON value type', () => {
    expect(registry.jsonType('INTEGER')).toBe('integer')
    expect(registry.jsonType('JSON')).toBe('json')
    expect(registry.jsonType('EMAIL')).toBe('string')
  })

  it('knows only the transformers a type defines, not inherited object members', () => {
    expect(registry.transformer('SSN', 'mask')?.kind).toBe('value')
    for (const name of ['toString', 'constructor', '__proto__', 'hasOwnProperty', 'nope'])
      expect(registry.transformer('SSN', name)).toBeUndefined()
  })

  it('lets custom types join with their base type rules and transformers', () => {
    const custom = createTypeRegistry({ limits: LIMITS })
    custom.setCustomTypes([
      {
        name: 'STRING_SSN',
        baseTypeName: 'STRING',
        description: 'Relaxed SSN',
        transformers: ['string_ssn.mask', 'string_ssn.compact'],
        defaultTransformer: 'string_ssn.mask',
        createdAt: 1,
      },
      { name: 'NOTES', baseTypeName: 'LONG_TEXT', description: '', transformers: [], createdAt: 1 },
      { name: 'ORPHAN', baseTypeName: 'MISSING', description: '', transformers: [], createdAt: 1 },
    ])
    expect(custom.get('ORPHAN')).toBeUndefined()
    expect(custom.list({ showBuiltins: false }).map((t) => t.name)).toEqual(['NOTES', 'STRING_SSN'])
    expect(custom.list({ showBuiltins: false, bundle: 'string_ssn' }).map((t) => t.name)).toEqual([
      'STRING_SSN',
    ])
    expect(custom.list({ showBuiltins: true, bundle: 'other' })).toEqual([])
    expect(custom.get('STRING_SSN')?.transformerNames).toEqual(['mask', 'compact', 'token'])
    expect(custom.transformer('STRING_SSN', 'mask')).toEqual({
      kind: 'custom',
      function: 'string_ssn.mask',
    })
    expect(custom.transformer('NOTES', 'mask')?.kind).toBe('value')
    expect(custom.indexSupport('STRING_SSN')).toEqual({ canIndex: true, canSubstringIndex: true })
    expect(custom.indexSupport('NOTES')).toEqual({ canIndex: false, canSubstringIndex: false })
    expect(custom.validate({ name: 'n', dataType: 'STRING_SSN' }, 'e\u0301')).toBe('\u00e9')
  })
})
