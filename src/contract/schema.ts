// src/contract/schema.ts: the TypeBox builders the contract uses, without TypeBox's run-time graph
import type { Type as TypeBox } from 'typebox'

// Importing `Type` from `typebox` loads ~370 modules (about 0.2 s of every start) for eleven
// builders (ADR 0010). These build the very same values: plain JSON Schema plus TypeBox's
// non-enumerable markers (`~kind`, `~optional`), with TypeBox's key order and property
// descriptors, so TypeBox's compiler, Fastify's serializer and @fastify/swagger see exactly what
// `Type.*` builds; schema.test.ts compares every builder against TypeBox. The types are TypeBox's
// own (`import type` is erased at run time), so `Static<typeof X>` works as before.

type Builders = Pick<
  typeof TypeBox,
  | 'Array'
  | 'Boolean'
  | 'Integer'
  | 'Number'
  | 'Literal'
  | 'Null'
  | 'Object'
  | 'Optional'
  | 'Record'
  | 'String'
  | 'Union'
  | 'Unknown'
>

type Json = Record<string, unknown>

const UNSAFE_KEYS = new Set<PropertyKey>(['__proto__', 'constructor', 'prototype'])

function defineHidden(target: Json, hidden: Json): Json {
  for (const key of Object.keys(hidden)) {
    Object.defineProperty(target, key, {
      configurable: true,
      writable: true,
      enumerable: false,
      value: hidden[key],
    })
  }
  return target
}

/** TypeBox's `Memory.Create`: the enumerable keys, then the options, then the hidden ones. */
function create(kind: string, enumerable: Json, options: object = {}): Json {
  return defineHidden({ ...enumerable, ...options }, { '~kind': kind })
}

/** TypeBox's `Memory.Update`: a copy keeping descriptors, then hidden keys, then options. */
function update(current: object, hidden: Json, options: object): Json {
  const replaced = new Set<PropertyKey>([...Object.keys(hidden), ...Object.keys(options)])
  const result: Json = {}
  for (const key of Reflect.ownKeys(current)) {
    if (UNSAFE_KEYS.has(key) || replaced.has(key)) continue
    const descriptor = Object.getOwnPropertyDescriptor(current, key)
    if (descriptor !== undefined) Object.defineProperty(result, key, descriptor)
  }
  defineHidden(result, hidden)
  for (const key of Object.keys(options)) {
    if (UNSAFE_KEYS.has(key)) continue
    Object.defineProperty(result, key, {
      configurable: true,
      enumerable: true,
      writable: true,
      value: (options as Json)[key],
    })
  }
  return result
}

function isOptional(schema: unknown): boolean {
  return typeof schema === 'object' && schema !== null && '~optional' in schema
}

function literalType(value: unknown): string {
  const type = typeof value
  if (type === 'bigint' || type === 'boolean' || type === 'number' || type === 'string') return type
  throw new Error('Invalid Literal value')
}

/** Records keyed by `String()` only (the pattern `^.*$`, or the key's own `pattern`). */
function record(key: Json, value: object, options: object = {}): Json {
  if (key['~kind'] !== 'String') {
    throw new Error('src/contract/schema.ts: Record keys other than String() are not built here')
  }
  const pattern =
    typeof key.pattern === 'string' || key.pattern instanceof RegExp
      ? key.pattern.toString()
      : '^.*$'
  const schema = create('Record', { type: 'object', patternProperties: { [pattern]: value } })
  return update(schema, {}, options)
}

const builders = {
  Array: (items: object, options?: object) => create('Array', { type: 'array', items }, options),
  Boolean: (options?: object) => create('Boolean', { type: 'boolean' }, options),
  Integer: (options?: object) => create('Integer', { type: 'integer' }, options),
  Number: (options?: object) => create('Number', { type: 'number' }, options),
  Literal: (value: unknown, options?: object) =>
    create('Literal', { type: literalType(value), const: value }, options),
  Null: (options?: object) => create('Null', { type: 'null' }, options),
  Object: (properties: Record<string, object>, options?: object) => {
    const required = Object.keys(properties).filter((key) => !isOptional(properties[key]))
    const fields = required.length > 0 ? { required } : {}
    return create('Object', { type: 'object', ...fields, properties }, options)
  },
  Optional: (type: object) => update(type, { '~optional': true }, {}),
  Record: record,
  String: (options?: object) => create('String', { type: 'string' }, options),
  Union: (anyOf: object[], options?: object) => create('Union', { anyOf }, options),
  Unknown: (options?: object) => create('Unknown', {}, options),
}

/** Drop-in for `Type` from `typebox`, limited to the builders the contract uses. */
export const Type: Builders = builders as unknown as Builders
