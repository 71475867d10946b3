// test/fuzz/values.ts: fast-check arbitraries for request parts: schema-shaped values and hostile mutations
import fc from 'fast-check'

/** A JSON schema as the served OpenAPI document gives it (TypeBox output). */
export type Schema = {
  type?: string | string[]
  properties?: Record<string, Schema>
  required?: string[]
  items?: Schema
  anyOf?: Schema[]
  oneOf?: Schema[]
  enum?: unknown[]
  const?: unknown
  additionalProperties?: boolean | Schema
  $ref?: string
}

/** Names and values the fuzzed service knows, so mutated requests reach deep code too. */
export type Known = {
  readonly names: readonly string[]
  readonly ids: readonly string[]
}

/** A raw JSON text that JSON.stringify cannot produce (numbers past 2^53, prototype keys). */
export class RawJson {
  readonly text: string
  constructor(text: string) {
    this.text = text
  }
}

const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty']

export const ODD_STRINGS: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udc00y',
  '\ufeff',
  '..',
  '../..',
  '%00',
  '%FF',
  '*',
  '?',
  '***',
  '\n',
  'null',
  'true',
  '1e308',
  '-0',
  'not-a-uuid',
  '00000000-0000-0000-0000-00000000000g',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '{{ .x }}',
  '<script>',
  "'; DROP TABLE x; --",
  ...PROTO_KEYS,
]

const ODD_NUMBERS: readonly RawJson[] = [
  '9223372036854775808',
  '-9223372036854775809',
  '9223372036854775807',
  '1e308',
  '-1e308',
  '1e309',
  '5e-324',
  '-0',
  '0.1',
  '1.0',
  '123456789012345678901234567890',
].map((text) => new RawJson(text))

function resolve(schema: Schema, root: Record<string, Schema>): Schema {
  if (schema.$ref === undefined) return schema
  const name = schema.$ref.split('/').at(-1) ?? ''
  return root[name] ?? {}
}

/** A string: mostly names the service knows, sometimes odd or random text, rarely huge. */
export function stringArb(known: Known): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 30, arbitrary: fc.constantFrom(...known.names) },
    { weight: 10, arbitrary: fc.constantFrom(...known.ids) },
    { weight: 10, arbitrary: fc.constantFrom(...ODD_STRINGS) },
    { weight: 15, arbitrary: fc.string({ maxLength: 40, unit: 'binary' }) },
    { weight: 1, arbitrary: fc.constantFrom(5_000, 70_000).map((n) => 'a'.repeat(n)) },
  )
}

function scalarArb(known: Known): fc.Arbitrary<unknown> {
  return fc.oneof(
    stringArb(known),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.constantFrom(...ODD_NUMBERS),
  )
}

/** Any JSON value, to put where the schema wants something else. */
export function anyJsonArb(known: Known): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 4, arbitrary: scalarArb(known) },
    { weight: 1, arbitrary: fc.array(scalarArb(known), { maxLength: 4 }) },
    {
      weight: 1,
      arbitrary: fc.dictionary(fc.constantFrom(...known.names, ...PROTO_KEYS), scalarArb(known), {
        maxKeys: 4,
      }),
    },
    { weight: 1, arbitrary: fc.constantFrom(10, 63, 64, 65, 2_000).map((depth) => nested(depth)) },
  )
}

/** An array nested `depth` deep around a number, as raw JSON. */
function nested(depth: number): RawJson {
  return new RawJson(`${'['.repeat(depth)}1${']'.repeat(depth)}`)
}

/**
 * A value for `schema`: well-formed most of the time (so the call goes past validation), with a
 * mutation at any level: a wrong JSON type, a missing required or an extra field, a prototype key.
 */
export function valueArb(
  schema: Schema,
  known: Known,
  root: Record<string, Schema>,
  depth = 0,
): fc.Arbitrary<unknown> {
  const shaped = shapedArb(resolve(schema, root), known, root, depth)
  if (depth > 4) return shaped
  return fc.oneof({ weight: 12, arbitrary: shaped }, { weight: 1, arbitrary: anyJsonArb(known) })
}

function shapedArb(
  schema: Schema,
  known: Known,
  root: Record<string, Schema>,
  depth: number,
): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const)
  if (schema.enum !== undefined && schema.enum.length > 0) return fc.constantFrom(...schema.enum)
  const choices = schema.anyOf ?? schema.oneOf
  if (choices !== undefined && choices.length > 0)
    return fc.oneof(...choices.map((choice) => valueArb(choice, known, root, depth + 1)))
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type
  switch (type) {
    case 'string':
      return stringArb(known)
    case 'integer':
      return fc.oneof(
        fc.integer({ min: -5, max: 3_000 }),
        fc.integer(),
        fc.constantFrom(...ODD_NUMBERS),
      )
    case 'number':
      return fc.oneof(fc.double(), fc.constantFrom(...ODD_NUMBERS))
    case 'boolean':
      return fc.boolean()
    case 'null':
      return fc.constant(null)
    case 'array':
      return fc.array(valueArb(schema.items ?? {}, known, root, depth + 1), {
        maxLength: depth === 0 ? 6 : 3,
      })
    case 'object':
      return objectArb(schema, known, root, depth)
    default:
      return anyJsonArb(known)
  }
}

function objectArb(
  schema: Schema,
  known: Known,
  root: Record<string, Schema>,
  depth: number,
): fc.Arbitrary<unknown> {
  const properties = Object.entries(schema.properties ?? {})
  const required = new Set(schema.required ?? [])
  const record: Record<string, fc.Arbitrary<unknown>> = {}
  for (const [name, property] of properties)
    record[name] = valueArb(property, known, root, depth + 1)
  const optional = properties.map(([name]) => name).filter((name) => !required.has(name))
  const base =
    properties.length > 0
      ? fc.record(record, { requiredKeys: [...required].filter((name) => name in record) })
      : fc.constant({})
  const extra =
    schema.additionalProperties === false || properties.length > 0
      ? fc.dictionary(fc.constantFrom(...known.names), scalarArb(known), { maxKeys: 2 })
      : fc.dictionary(fc.constantFrom(...known.names, ...PROTO_KEYS), anyJsonArb(known), {
          maxKeys: 4,
        })
  return fc
    .tuple(
      base,
      extra,
      fc.nat(20),
      fc.constantFrom(...(required.size > 0 ? [...required] : ['']), ...optional, ''),
    )
    .map(([value, more, dice, dropped]) => {
      const out: Record<string, unknown> = { ...(value as object) }
      if (dice === 0 && dropped !== '') delete out[dropped]
      if (dice <= 3 || properties.length === 0) Object.assign(out, more)
      return out
    })
}

/** The JSON text of a value with RawJson parts spliced in, sometimes led by a prototype key. */
export function toJsonText(value: unknown, protoKey?: string): string {
  const text = serialize(value)
  if (protoKey === undefined || !text.startsWith('{')) return text
  const entry = `${JSON.stringify(protoKey)}:{"polluted":true}`
  return text === '{}' ? `{${entry}}` : `{${entry},${text.slice(1)}`
}

function serialize(value: unknown): string {
  if (value instanceof RawJson) return value.text
  if (Array.isArray(value)) return `[${value.map(serialize).join(',')}]`
  if (value !== null && typeof value === 'object')
    return `{${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)}:${serialize(item)}`)
      .join(',')}}`
  return JSON.stringify(value) ?? 'null'
}
