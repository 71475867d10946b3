// src/core/collections/names.test.ts: naming rules, reserved names and the combined length rule
import { describe, expect, it } from 'vitest'
import { VaultError } from '../errors.ts'
import {
  checkCollectionName,
  checkCombinedLength,
  checkPropertyName,
  isValidName,
  nameKey,
} from './names.ts'

function errorOf(work: () => void): VaultError {
  try {
    work()
  } catch (error) {
    if (error instanceof VaultError) return error
  }
  throw new Error('expected a VaultError')
}

describe('naming rules', () => {
  it('accepts letters, digits and _ with a leading letter', () => {
    for (const good of ['a', 'People', 'credit_card2', 'A_1_b'])
      expect(isValidName(good)).toBe(true)
    for (const bad of ['', '_x', '1a', 'a-b', 'a b', 'é', 'a.b'])
      expect(isValidName(bad)).toBe(false)
    expect(isValidName('a'.repeat(451))).toBe(false)
  })

  it('compares names case-insensitively through their key', () => {
    expect(nameKey('People')).toBe(nameKey('pEOPLE'))
  })

  it('refuses a bad collection name with 400 ERR1008', () => {
    const error = errorOf(() => checkCollectionName('9lives'))
    expect([error.code, error.status]).toEqual(['ERR1008', 400])
    expect(error.message).toBe('The collection name is invalid: it must start with a letter.')
    expect(error.context).toEqual({ collection: '9lives' })
    expect(errorOf(() => checkCollectionName('a'.repeat(41))).code).toBe('ERR1008')
    expect(() => checkCollectionName('a'.repeat(40))).not.toThrow()
  })

  it('refuses bad and reserved property names with 400 ERR1012 naming them', () => {
    const error = errorOf(() => checkPropertyName('people', '_secret'))
    expect(error.code).toBe('ERR1012')
    expect(error.message).toContain('reserved for built-in properties')
    expect(error.context).toEqual({ collection: 'people', property: '_secret' })
    for (const reserved of ['id', 'ID', 'Id']) {
      expect(errorOf(() => checkPropertyName('people', reserved)).message).toContain('reserved')
    }
  })

  it('bounds collection name plus longest property name at 40', () => {
    expect(() =>
      checkCombinedLength('a'.repeat(20), ['b'.repeat(20)], 'invalidRequest'),
    ).not.toThrow()
    const error = errorOf(() =>
      checkCombinedLength('a'.repeat(20), ['x', 'b'.repeat(21)], 'invalidRequest'),
    )
    expect(error.code).toBe('ERR1012')
    expect(error.context).toEqual({ collection: 'a'.repeat(20), property: 'b'.repeat(21) })
    expect(
      errorOf(() => checkCombinedLength('a'.repeat(30), ['b'.repeat(11)], 'collectionNameInvalid'))
        .code,
    ).toBe('ERR1008')
  })
})
