// src/core/collections/pvschema/parser.ts: PVSchema grammar (data-model §2) → collections with every attribute filled in
import { ownValue } from '../../own.ts'

import type { CollectionView, PropertyView } from '../collection.ts'
import { DEFAULT_ATTRIBUTES } from '../collection.ts'
import { syntaxError, type Token, tokenize } from './tokenizer.ts'

/*
 * schema     := collection* end
 * collection := word word '(' [ property { ',' property } [ ',' ] ] ')' [ ';' ]
 * property   := word word { attribute | 'COMMENT' string }
 * attribute  := [ 'NOT' ] ( 'NULL' | 'UNIQUE' | 'INDEX' | 'SUBSTRING_INDEX' | 'SUBSTRING' 'INDEX'
 *                         | 'ENCRYPTED' | 'BUILTIN' | 'READONLY' )
 * Keywords are case-insensitive; names are kept as written and checked by the naming rules later.
 */

type Flag =
  | 'isNullable'
  | 'isUnique'
  | 'isIndex'
  | 'isSubstringIndex'
  | 'isEncrypted'
  | 'isBuiltin'
  | 'isReadonly'

const FLAGS: Readonly<Record<string, Flag>> = {
  NULL: 'isNullable',
  UNIQUE: 'isUnique',
  INDEX: 'isIndex',
  SUBSTRING_INDEX: 'isSubstringIndex',
  ENCRYPTED: 'isEncrypted',
  BUILTIN: 'isBuiltin',
  READONLY: 'isReadonly',
}

const ATTRIBUTE_LIST = 'NULL, UNIQUE, INDEX, SUBSTRING_INDEX, ENCRYPTED, BUILTIN, READONLY'

function describe(token: Token): string {
  switch (token.kind) {
    case 'end':
      return 'the end of the text'
    case 'string':
      return 'a quoted string'
    case 'word':
      return `'${token.text.slice(0, 40)}'`
    default:
      return `'${token.kind}'`
  }
}

function parser(tokens: readonly Token[]) {
  let index = 0
  const peek = (): Token => tokens[index] ?? (tokens.at(-1) as Token)
  const take = (): Token => {
    const token = peek()
    if (token.kind !== 'end') index++
    return token
  }
  const isKeyword = (word: string) => peek().kind === 'word' && peek().text.toUpperCase() === word
  function expect(kind: Token['kind'], what: string): Token {
    const token = peek()
    if (token.kind !== kind) throw syntaxError(token, `expected ${what}, found ${describe(token)}`)
    return take()
  }
  return { peek, take, isKeyword, expect }
}

type Parser = ReturnType<typeof parser>

/** `SUBSTRING_INDEX`, or `SUBSTRING INDEX` as two words; anything else must be a flag keyword. */
function readFlag(p: Parser): Flag {
  const token = p.expect('word', `an attribute (${ATTRIBUTE_LIST})`)
  const word = token.text.toUpperCase()
  if (word === 'SUBSTRING') {
    p.expect('word', 'INDEX after SUBSTRING')
    return 'isSubstringIndex'
  }
  const flag = ownValue(FLAGS, word)
  if (flag === undefined) {
    throw syntaxError(token, `expected an attribute (${ATTRIBUTE_LIST}), found ${describe(token)}`)
  }
  return flag
}

const KEYWORD_OF: Readonly<Record<string, string>> = Object.fromEntries([
  ...Object.entries(FLAGS).map(([keyword, flag]) => [flag, keyword]),
  ['description', 'COMMENT'],
])

function readAttribute(p: Parser): [key: string, value: unknown] {
  if (p.isKeyword('COMMENT')) {
    p.take()
    return ['description', p.expect('string', 'a quoted comment after COMMENT').text]
  }
  const isNot = p.isKeyword('NOT')
  if (isNot) p.take()
  return [readFlag(p), !isNot]
}

function readAttributes(p: Parser, property: Record<string, unknown>): void {
  const seen = new Set<string>()
  while (p.peek().kind === 'word') {
    const start = p.peek()
    const [key, value] = readAttribute(p)
    if (seen.has(key)) throw syntaxError(start, `${KEYWORD_OF[key]} is given twice`)
    seen.add(key)
    property[key] = value
  }
}

function readProperty(p: Parser): PropertyView {
  const name = p.expect('word', 'a property name').text
  const dataType = p.expect('word', `a data type after property ${name}`).text
  const property: Record<string, unknown> = {
    name,
    dataType,
    ...DEFAULT_ATTRIBUTES,
    isBuiltin: false,
    isReadonly: false,
  }
  readAttributes(p, property)
  const next = p.peek()
  if (next.kind !== ',' && next.kind !== ')') {
    throw syntaxError(next, `expected an attribute, COMMENT, ',' or ')', found ${describe(next)}`)
  }
  return property as PropertyView
}

function readCollection(p: Parser): CollectionView {
  const name = p.expect('word', 'a collection name').text
  const prototype = p.expect('word', `a schema prototype (PERSONS or DATA) after ${name}`).text
  p.expect('(', "'(' to open the property list")
  const properties: PropertyView[] = []
  while (p.peek().kind !== ')') {
    properties.push(readProperty(p))
    if (p.peek().kind === ',') p.take()
  }
  p.take()
  if (p.peek().kind === ';') p.take()
  const upper = prototype.toUpperCase()
  return { name, type: upper === 'PERSONS' || upper === 'DATA' ? upper : prototype, properties }
}

/** Parses every collection of the text (several may be concatenated). */
export function parsePvschema(source: string): CollectionView[] {
  const p = parser(tokenize(source))
  const collections: CollectionView[] = []
  while (p.peek().kind !== 'end') collections.push(readCollection(p))
  return collections
}

/** Parses text that must hold exactly one collection (add and update collection). */
export function parseOneCollection(source: string): CollectionView {
  const collections = parsePvschema(source)
  const [first, second] = collections
  if (first === undefined) throw syntaxError({ line: 1, column: 1 }, 'expected a collection')
  if (second !== undefined) {
    throw syntaxError({ line: 1, column: 1 }, 'expected exactly one collection, found several')
  }
  return first
}
