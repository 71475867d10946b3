// src/core/collections/pvschema/parser.test.ts: the PVSchema grammar, defaults and error messages
import { describe, expect, it } from 'vitest'
import { VaultError } from '../../errors.ts'
import { DEFAULT_ATTRIBUTES } from '../collection.ts'
import { parseOneCollection, parsePvschema } from './parser.ts'

const plain = { ...DEFAULT_ATTRIBUTES, isBuiltin: false, isReadonly: false }

function errorOf(source: string): VaultError {
  try {
    parseOneCollection(source)
  } catch (error) {
    if (error instanceof VaultError) return error
  }
  throw new Error('expected a syntax error')
}

describe('PVSchema parser', () => {
  it('parses the spec example with defaults for absent attributes', () => {
    const collection = parseOneCollection(`customers PERSONS (
  ssn SSN UNIQUE COMMENT 'Social security number',
  email EMAIL,
  phone_number PHONE_NUMBER NULL,
  zip_code_us ZIP_CODE_US NULL,
);`)
    expect(collection).toEqual({
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
        { ...plain, name: 'zip_code_us', dataType: 'ZIP_CODE_US', isNullable: true },
      ],
    })
  })

  it('reads NOT forms, keywords in any case, SUBSTRING INDEX as two words and COMMENT anywhere', () => {
    const [p] = parseOneCollection(
      'c data (x STRING comment "d" not encrypted Substring Index not null index not unique builtin readonly)',
    ).properties
    expect(p).toEqual({
      ...plain,
      name: 'x',
      dataType: 'STRING',
      description: 'd',
      isEncrypted: false,
      isSubstringIndex: true,
      isIndex: true,
      isBuiltin: true,
      isReadonly: true,
    })
  })

  it('accepts an empty property list, no trailing comma, no semicolon, and several collections', () => {
    const collections = parsePvschema('a DATA ()\nb PERSONS (x STRING);\n-- end\n')
    expect(collections.map((c) => [c.name, c.type, c.properties.length])).toEqual([
      ['a', 'DATA', 0],
      ['b', 'PERSONS', 1],
    ])
  })

  it('keeps an unknown prototype as written for the service to refuse', () => {
    expect(parseOneCollection('a THINGS ()').type).toBe('THINGS')
  })

  it.each([
    ['', 'line 1, column 1: expected a collection'],
    [
      'a',
      'line 1, column 2: expected a schema prototype (PERSONS or DATA) after a, found the end of the text',
    ],
    ['a DATA x', "line 1, column 8: expected '(' to open the property list, found 'x'"],
    ['a DATA (x)', "line 1, column 10: expected a data type after property x, found ')'"],
    [
      'a DATA (x STRING FAST)',
      "expected an attribute (NULL, UNIQUE, INDEX, SUBSTRING_INDEX, ENCRYPTED, BUILTIN, READONLY), found 'FAST'",
    ],
    ['a DATA (x STRING y STRING)', "found 'y'"],
    [
      'a DATA (x STRING "d")',
      "line 1, column 18: expected an attribute, COMMENT, ',' or ')', found a quoted string",
    ],
    [
      'a DATA (x STRING COMMENT)',
      "line 1, column 25: expected a quoted comment after COMMENT, found ')'",
    ],
    ['a DATA (x STRING NULL NOT NULL)', 'line 1, column 23: NULL is given twice'],
    ["a DATA (x STRING COMMENT 'a' COMMENT 'b')", 'COMMENT is given twice'],
    ['a DATA (x STRING SUBSTRING)', 'expected INDEX after SUBSTRING'],
    ['a DATA (x STRING,,)', "line 1, column 18: expected a property name, found ','"],
    [
      'a DATA (x STRING',
      "line 1, column 17: expected an attribute, COMMENT, ',' or ')', found the end of the text",
    ],
    ['a DATA (x STRING) b', 'expected a schema prototype'],
  ])('reports %j with position and expectation', (source, expected) => {
    const error = errorOf(source)
    expect(error.code).toBe('ERR1012')
    expect(error.message).toContain(expected)
    expect(error.message).toMatch(/^The PVSchema text is invalid at line \d+, column \d+: .*\.$/)
  })

  it('refuses several collections where one is expected', () => {
    expect(() => parseOneCollection('a DATA () b DATA ()')).toThrow(/exactly one collection/)
  })
})
