// src/core/collections/pvschema/render.test.ts: PVSchema output rules, and the round trip as a property test
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { VaultError } from '../../errors.ts'
import type { CollectionView, PropertyView } from '../collection.ts'
import { DEFAULT_ATTRIBUTES } from '../collection.ts'
import { parseOneCollection, parsePvschema } from './parser.ts'
import { renderCollection, renderCollections } from './render.ts'

const plain = { ...DEFAULT_ATTRIBUTES, isBuiltin: false, isReadonly: false }

const name = fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,19}$/)
const description = fc.oneof(
  fc.constant(''),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom("It's", '"quoted"', "''", '-- not a comment', 'a,b);', 'line\nbreak'),
)
const property: fc.Arbitrary<PropertyView> = fc.record({
  name,
  dataType: fc.oneof(fc.constantFrom('STRING', 'EMAIL', 'SSN', 'INTEGER', 'JSON'), name),
  description,
  isEncrypted: fc.boolean(),
  isIndex: fc.boolean(),
  isSubstringIndex: fc.boolean(),
  isNullable: fc.boolean(),
  isUnique: fc.boolean(),
  isBuiltin: fc.boolean(),
  isReadonly: fc.boolean(),
})
const collection: fc.Arbitrary<CollectionView> = fc.record({
  name,
  type: fc.constantFrom('PERSONS', 'DATA'),
  properties: fc.array(property, { maxLength: 8 }),
})

describe('PVSchema renderer', () => {
  it('prints the spec example', () => {
    const text = renderCollection({
      name: 'customers',
      type: 'PERSONS',
      properties: [
        {
          ...plain,
          name: 'ssn',
          dataType: 'SSN',
          isUnique: true,
          description: 'Social security number',
        },
        { ...plain, name: 'email', dataType: 'EMAIL' },
        { ...plain, name: 'phone_number', dataType: 'PHONE_NUMBER', isNullable: true },
      ],
    })
    expect(text).toBe(`customers PERSONS (
  ssn SSN UNIQUE COMMENT 'Social security number',
  email EMAIL,
  phone_number PHONE_NUMBER NULL,
);`)
  })

  it('prints non-default attributes in a fixed order and doubles quotes in comments', () => {
    const text = renderCollection({
      name: 'c',
      type: 'DATA',
      properties: [
        {
          name: 'id',
          dataType: 'OBJECT_ID',
          description: "it's",
          isEncrypted: false,
          isIndex: true,
          isSubstringIndex: true,
          isNullable: true,
          isUnique: true,
          isBuiltin: true,
          isReadonly: true,
        },
      ],
    })
    expect(text).toBe(
      "c DATA (\n  id OBJECT_ID NULL UNIQUE INDEX SUBSTRING_INDEX NOT ENCRYPTED BUILTIN READONLY COMMENT 'it''s',\n);",
    )
  })

  it('joins several collections with a newline', () => {
    const text = renderCollections([
      { name: 'a', type: 'DATA', properties: [] },
      { name: 'b', type: 'PERSONS', properties: [] },
    ])
    expect(text).toBe('a DATA (\n);\nb PERSONS (\n);')
    expect(parsePvschema(text).map((c) => c.name)).toEqual(['a', 'b'])
  })

  it('round-trips: parse(render(c)) is c, and render(parse(text)) is stable', () => {
    fc.assert(
      fc.property(collection, (c) => {
        const text = renderCollection(c)
        const parsed = parseOneCollection(text)
        expect(parsed).toEqual(c)
        expect(renderCollection(parsed)).toBe(text)
      }),
      { numRuns: 500 },
    )
  })

  it('fails only with a 400 syntax error on arbitrary or damaged text', () => {
    const damaged = fc
      .tuple(collection, fc.nat(), fc.string({ unit: 'binary', maxLength: 3 }))
      .map(([c, at, insert]) => {
        const text = renderCollection(c)
        const cut = at % (text.length + 1)
        return text.slice(0, cut) + insert + text.slice(cut + 1)
      })
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), damaged), (text) => {
        try {
          parsePvschema(text)
        } catch (error) {
          expect(error).toBeInstanceOf(VaultError)
          expect((error as VaultError).code).toBe('ERR1012')
        }
      }),
      { numRuns: 1000 },
    )
  })
})
