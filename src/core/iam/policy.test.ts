// src/core/iam/policy.test.ts: resource patterns: matching, validation and the resource strings of checks
import { describe, expect, it } from 'vitest'
import {
  actionResource,
  collectionResource,
  compilePattern,
  isValidResourcePattern,
  propertyResources,
  tokensResource,
} from './policy.ts'

describe('resource patterns', () => {
  it.each([
    ['*', 'people/properties/ssn', true],
    ['*', 'people', true],
    ['people/properties/ssn', 'people/properties/ssn', true],
    ['people/properties/ssn', 'people/properties/ssn.mask', false],
    ['people/properties/ssn', 'People/properties/ssn', false],
    ['people/properties/ssn.*', 'people/properties/ssn.mask', true],
    ['people/properties/ssn.*', 'people/properties/ssn', false],
    ['*/properties/_*', 'people/properties/_tenant_id', true],
    ['*/properties/_*', 'people/properties/name_x', false],
    ['*/types/EMAIL', 'a/types/EMAIL', true],
    ['*/types/EMAIL', 'a/types/EMAIL.mask', false],
    ['*/types/EMAIL.mask', 'a/types/EMAIL.mask', true],
    ['*/tokens', 'people/tokens', true],
    ['people', 'people', true],
    ['people', 'people/tokens', false],
    ['actions/*', 'actions/http_call', true],
    ['a.b', 'axb', false],
    ['archived/*', 'archived/people/properties/ssn', true],
    ['people/*', 'archived/people/properties/ssn', false],
  ])('%s matches %s: %s', (pattern, resource, expected) => {
    expect(compilePattern(pattern).regex.test(resource)).toBe(expected)
  })

  it.each([
    '*',
    'people',
    'people/properties/ssn',
    'people/properties/ssn.mask',
    'people/properties/ssn.*',
    'people/types/SSN',
    '*/types/EMAIL.mask',
    '*/properties/_*',
    '*/properties/id',
    '*/tokens',
    'people/tokens',
    'people/*',
    'actions/http_call',
    'actions/*',
    'archived/people/properties/ssn',
    'archived/*',
    '*/email',
    'actions',
  ])('accepts the resource %s', (text) => {
    expect(isValidResourcePattern(text)).toBe(true)
  })

  it.each([
    '',
    '/people',
    'people/',
    'people//ssn',
    'people/fields/ssn',
    'people/properties',
    'people/properties/ssn/extra',
    'people/tokens/x',
    'people/types/SS N',
    'people/properties/a.b.c',
    'archived/archived/people',
    'people/properties/ss$n',
  ])('refuses the resource %j', (text) => {
    expect(isValidResourcePattern(text)).toBe(false)
  })
})

describe('resource strings of checks', () => {
  it('names a property and its type, or a transformation of both, never both kinds', () => {
    expect(propertyResources({ collection: 'people', property: 'ssn', type: 'SSN' })).toEqual([
      'people/properties/ssn',
      'people/types/SSN',
    ])
    expect(
      propertyResources({
        collection: 'people',
        property: 'ssn',
        type: 'SSN',
        transformer: 'mask',
      }),
    ).toEqual(['people/properties/ssn.mask', 'people/types/SSN.mask'])
  })

  it('prefixes archived resources', () => {
    expect(
      propertyResources({ collection: 'c', property: 'p', type: 'T', isArchived: true }),
    ).toEqual(['archived/c/properties/p', 'archived/c/types/T'])
    expect(tokensResource('c', true)).toEqual(['archived/c/tokens'])
  })

  it('names tokens, collections and actions', () => {
    expect(tokensResource('c')).toEqual(['c/tokens'])
    expect(collectionResource('c')).toEqual(['c'])
    expect(actionResource('http_call')).toEqual(['actions/http_call'])
  })
})
