// src/core/collections/rules.test.ts: new-property attributes, the seed's change rules, built-ins in requests
import { describe, expect, it } from 'vitest'
import { VaultError } from '../errors.ts'
import { DEFAULT_ATTRIBUTES, type PropertyAttributes } from './collection.ts'
import { changeAttributes, checkBuiltinListed, hasChanged, newAttributes } from './rules.ts'

const where = { collection: 'people', property: 'email' }
const ALL = { canIndex: true, canSubstringIndex: true }
const NONE = { canIndex: false, canSubstringIndex: false }
const options = { where, isEncryptionEnabled: true }

function errorOf(work: () => unknown): VaultError {
  try {
    work()
  } catch (error) {
    if (error instanceof VaultError) return error
  }
  throw new Error('expected a VaultError')
}

describe('new property attributes', () => {
  it('fills defaults: encrypted, everything else off, empty description', () => {
    expect(newAttributes({ name: 'email', dataType: 'EMAIL' }, ALL, options)).toEqual(
      DEFAULT_ATTRIBUTES,
    )
  })

  it('keeps what was asked for', () => {
    const input = { name: 'email', dataType: 'EMAIL', isUnique: true, description: 'd' }
    expect(newAttributes(input, ALL, options)).toMatchObject({ isUnique: true, description: 'd' })
  })

  it('stores values plain when encryption is switched off', () => {
    const off = { where, isEncryptionEnabled: false }
    expect(newAttributes({ name: 'a', dataType: 'STRING' }, ALL, off).isEncrypted).toBe(false)
  })

  it.each([
    ['isIndex', 'is_index'],
    ['isUnique', 'is_unique'],
    ['isSubstringIndex', 'is_substring_index'],
  ])('refuses %s on a type that does not support it, naming the property', (flag, wire) => {
    const error = errorOf(() =>
      newAttributes({ name: 'email', dataType: 'JSON', [flag]: true }, NONE, options),
    )
    expect(error.code).toBe('ERR1012')
    expect(error.message).toBe(
      `The property email cannot set ${wire}: data type JSON does not support it.`,
    )
    expect(error.context).toEqual(where)
  })

  it('refuses NUL characters in descriptions', () => {
    const input = { name: 'a', dataType: 'STRING', description: 'a\u0000b' }
    expect(errorOf(() => newAttributes(input, ALL, options)).code).toBe('ERR1012')
  })
})

describe('attribute changes', () => {
  const base: PropertyAttributes = { ...DEFAULT_ATTRIBUTES }
  const change = (current: PropertyAttributes, requested: object, support = ALL) =>
    changeAttributes(current, requested, { where, dataType: 'EMAIL', support })

  it('changes descriptions any way and is_index both ways', () => {
    expect(change(base, { description: 'x', isIndex: true })).toMatchObject({
      description: 'x',
      isIndex: true,
    })
    expect(change({ ...base, isIndex: true }, { isIndex: false }).isIndex).toBe(false)
  })

  it('allows only the one-way changes of the seed', () => {
    expect(
      change({ ...base, isSubstringIndex: true }, { isSubstringIndex: false }).isSubstringIndex,
    ).toBe(false)
    expect(change(base, { isNullable: true }).isNullable).toBe(true)
    expect(change({ ...base, isUnique: true }, { isUnique: false }).isUnique).toBe(false)
  })

  it.each([
    [{ isSubstringIndex: true }, 'is_substring_index from false to true; only true to false'],
    [{ isUnique: true }, 'is_unique from false to true; only true to false'],
  ])('refuses %j', (requested, text) => {
    const error = errorOf(() => change(base, requested))
    expect(error.message).toContain(text)
    expect(error.context).toEqual(where)
  })

  it('refuses making a nullable property non-nullable', () => {
    const error = errorOf(() => change({ ...base, isNullable: true }, { isNullable: false }))
    expect(error.message).toContain('is_nullable from true to false; only false to true')
  })

  it('refuses is_index on a type without index support', () => {
    expect(errorOf(() => change(base, { isIndex: true }, NONE)).code).toBe('ERR1012')
  })

  it('ignores unchanged and absent attributes and is_encrypted', () => {
    const same = change({ ...base, isUnique: true }, { isUnique: true, isIndex: undefined })
    expect(hasChanged(same, { ...base, isUnique: true })).toBe(false)
  })
})

describe('built-ins in requests', () => {
  it('accepts a built-in listed exactly as defined', () => {
    const id = {
      name: 'id',
      dataType: 'OBJECT_ID',
      isUnique: true,
      isIndex: true,
      isEncrypted: false,
    }
    expect(() => checkBuiltinListed(id, where)).not.toThrow()
    expect(() =>
      checkBuiltinListed({ name: '_creation_time', dataType: 'TIMESTAMP' }, where),
    ).not.toThrow()
  })

  it('refuses a changed built-in or an unknown reserved name', () => {
    expect(
      errorOf(() => checkBuiltinListed({ name: 'id', dataType: 'STRING' }, where)).message,
    ).toBe('The built-in property id cannot be defined or changed.')
    expect(
      errorOf(() =>
        checkBuiltinListed({ name: '_tenant_id', dataType: 'TENANT_ID', isNullable: false }, where),
      ).code,
    ).toBe('ERR1012')
    expect(
      errorOf(() => checkBuiltinListed({ name: '_x', dataType: 'STRING' }, where)).message,
    ).toContain('reserved')
  })
})
