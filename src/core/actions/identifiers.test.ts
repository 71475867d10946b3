// src/core/actions/identifiers.test.ts: parsing global identifiers (data-model §10.3)
import { describe, expect, it } from 'vitest'
import { vaultErrorOf } from '../../../test/helpers/errors.ts'
import { parseIdentifier } from './identifiers.ts'

describe('global identifiers', () => {
  it('parses the three operations, an empty property and the trailing segment', () => {
    expect(
      parseIdentifier('v', 'pvlt:read_object:people:email:0b6f3c1e-0000-4000-8000-000000000001:'),
    ).toEqual({
      operation: 'read_object',
      collection: 'people',
      property: 'email',
      id: '0b6f3c1e-0000-4000-8000-000000000001',
      scope: '',
    })
    expect(parseIdentifier('v', 'pvlt:detokenize:cards::tok_1:').property).toBe('')
    expect(parseIdentifier('v', 'pvlt:read_object:people:ssn.mask:x:').property).toBe('ssn.mask')
    expect(parseIdentifier('v', 'pvlt:decrypt_object:people:ssn:QUJD+/=:scope1')).toMatchObject({
      operation: 'decrypt_object',
      id: 'QUJD+/=',
      scope: 'scope1',
    })
  })

  it('refuses other shapes with 400 ERR1012 naming the variable', () => {
    for (const bad of [
      '',
      'pvlt:read_object:people:email:x',
      'x:read_object:people:email:id:',
      'pvlt:delete_object:people:email:id:',
      'pvlt:read_object::email:id:',
      'pvlt:read_object:people:email::',
    ]) {
      expect(vaultErrorOf(() => parseIdentifier('var1', bad)).context).toEqual({ variable: 'var1' })
    }
  })
})
