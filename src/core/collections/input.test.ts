// src/core/collections/input.test.ts: JSON bodies read leniently, and JSON ↔ PVSchema giving the same collection
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  pvschemaToBody,
  readCollectionBody,
  readPropertyBody,
  readUpdatePropertyBody,
} from './input.ts'
import { renderCollection } from './pvschema/render.ts'

const name = fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,15}$/)
/** A JSON collection with every attribute given. */
type FullBody = {
  name: string
  type: string
  properties: {
    name: string
    data_type_name: string
    description: string
    is_encrypted: boolean
    is_index: boolean
    is_substring_index: boolean
    is_nullable: boolean
    is_unique: boolean
  }[]
}

const body: fc.Arbitrary<FullBody> = fc.record({
  name,
  type: fc.constantFrom('PERSONS', 'DATA'),
  properties: fc.array(
    fc.record({
      name,
      data_type_name: fc.constantFrom('STRING', 'EMAIL', 'SSN', 'INTEGER', 'BLOB', 'CUSTOM_T'),
      description: fc.string({ unit: 'binary', maxLength: 30 }),
      is_encrypted: fc.boolean(),
      is_index: fc.boolean(),
      is_substring_index: fc.boolean(),
      is_nullable: fc.boolean(),
      is_unique: fc.boolean(),
    }),
    { maxLength: 6 },
  ),
})

/** JSON body → the PVSchema text of the same collection. */
function toPvschema(json: FullBody): string {
  const properties = json.properties.map((p) => ({
    name: p.name,
    dataType: p.data_type_name,
    description: p.description,
    isEncrypted: p.is_encrypted,
    isIndex: p.is_index,
    isSubstringIndex: p.is_substring_index,
    isNullable: p.is_nullable,
    isUnique: p.is_unique,
    isBuiltin: false,
    isReadonly: false,
  }))
  return renderCollection({ name: json.name, type: json.type, properties })
}

describe('request bodies', () => {
  it('ignores optional attributes of the wrong JSON type (seed 2.2)', () => {
    expect(
      readPropertyBody({
        name: 'a',
        data_type_name: 'STRING',
        description: 5,
        is_index: 'yes',
        is_nullable: true,
        is_unique: null,
      }),
    ).toEqual({
      name: 'a',
      dataType: 'STRING',
      description: undefined,
      isEncrypted: undefined,
      isIndex: undefined,
      isSubstringIndex: undefined,
      isNullable: true,
      isUnique: undefined,
    })
  })

  it('reads an update-property body: absent description becomes empty', () => {
    expect(readUpdatePropertyBody({ is_nullable: true, name: 'x' })).toEqual({
      bodyName: 'x',
      description: '',
      isIndex: undefined,
      isSubstringIndex: undefined,
      isNullable: true,
      isUnique: undefined,
    })
  })

  it('gives the same collection from JSON and from its PVSchema rendering (property test)', () => {
    fc.assert(
      fc.property(body, (json) => {
        const fromText = pvschemaToBody(toPvschema(json))
        expect(fromText).toEqual(json)
        expect(readCollectionBody(fromText)).toEqual(readCollectionBody(json))
      }),
      { numRuns: 500 },
    )
  })
})
