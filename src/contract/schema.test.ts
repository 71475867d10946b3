// src/contract/schema.test.ts: the local builders build exactly what TypeBox's `Type.*` builds

import { Type as TypeBox } from 'typebox'
import { Compile } from 'typebox/compile'
import { describe, expect, it } from 'vitest'
import { Type } from './schema.ts'

/** Every own key in order, with its descriptor flags, recursively: what "the same value" means. */
function anatomy(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value
  if (Array.isArray(value)) return value.map(anatomy)
  return {
    prototype: Object.getPrototypeOf(value) === Object.prototype ? 'Object' : 'other',
    isFrozen: Object.isFrozen(value),
    keys: Reflect.ownKeys(value).map((key) => {
      const descriptor = Object.getOwnPropertyDescriptor(value, key) as PropertyDescriptor
      return {
        key: String(key),
        enumerable: descriptor.enumerable,
        writable: descriptor.writable,
        configurable: descriptor.configurable,
        value: anatomy(descriptor.value),
      }
    }),
  }
}

type Builder = typeof Type | typeof TypeBox

/** Each builder with each option the contract passes, and the nestings it uses. */
const CASES: Record<string, (T: Builder) => unknown> = {
  'String()': (T) => T.String(),
  'String({ minLength })': (T) => T.String({ minLength: 1 }),
  'String({ pattern })': (T) => T.String({ pattern: '^\\s*\\d{1,9}\\s*$' }),
  'Integer()': (T) => T.Integer(),
  'Integer({ minimum })': (T) => T.Integer({ minimum: 0 }),
  'Integer({ minimum, maximum })': (T) => T.Integer({ minimum: 400, maximum: 599 }),
  'Boolean()': (T) => T.Boolean(),
  'Number({ minimum, maximum })': (T) => T.Number({ minimum: 0, maximum: 1 }),
  'Null()': (T) => T.Null(),
  'Unknown()': (T) => T.Unknown(),
  'Literal(string)': (T) => T.Literal('pass'),
  'Literal(boolean)': (T) => T.Literal(false),
  'Literal(number)': (T) => T.Literal(3),
  'Array(String())': (T) => T.Array(T.String()),
  'Array(String(), { minItems })': (T) => T.Array(T.String(), { minItems: 1 }),
  'Array(Optional(...))': (T) => T.Array(T.Optional(T.String())),
  'Optional(String())': (T) => T.Optional(T.String()),
  'Optional(String({ minLength }))': (T) => T.Optional(T.String({ minLength: 1 })),
  'Optional(Optional(...))': (T) => T.Optional(T.Optional(T.Integer())),
  'Optional(Object(...))': (T) => T.Optional(T.Object({ a: T.String() })),
  'Optional(Record(...))': (T) => T.Optional(T.Record(T.String(), T.Unknown())),
  'Object({})': (T) => T.Object({}),
  'Object(required and optional)': (T) =>
    T.Object({ a: T.String(), b: T.Optional(T.Integer()), c: T.Array(T.Boolean()) }),
  'Object(all optional)': (T) => T.Object({ a: T.Optional(T.String()) }),
  'Object(nested)': (T) =>
    T.Object({
      inner: T.Object({ x: T.Union([T.String(), T.Null()]) }),
      list: T.Array(T.Unknown()),
    }),
  'Object(shared member)': (T) => {
    const name = T.String()
    return [T.Object({ a: name, b: T.Optional(name) }), name]
  },
  'Object({ description })': (T) => T.Object({ a: T.String() }, { description: 'text' }),
  'Union(literals)': (T) => T.Union([T.Literal('a'), T.Literal('b'), T.Literal('c')]),
  'Union(String, Null)': (T) => T.Union([T.String(), T.Null()]),
  'Union(String, Array)': (T) =>
    T.Union([T.String({ minLength: 1 }), T.Array(T.String(), { minItems: 1 })]),
  'Record(String(), Unknown())': (T) => T.Record(T.String(), T.Unknown()),
  'Record(String(), String())': (T) => T.Record(T.String(), T.String()),
  'Record(String(), Object(...))': (T) =>
    T.Record(T.String(), T.Object({ role: T.String(), disabled: T.Optional(T.Boolean()) })),
  'Record(String(), Array(...))': (T) => T.Record(T.String(), T.Array(T.Unknown())),
  'Record(String({ pattern }), ...)': (T) => T.Record(T.String({ pattern: '^a' }), T.String()),
  'Record(..., { description })': (T) => T.Record(T.String(), T.String(), { description: 'text' }),
}

describe('contract schema builders', () => {
  for (const [name, build] of Object.entries(CASES)) {
    it(`${name} is the value TypeBox builds`, () => {
      expect(anatomy(build(Type))).toEqual(anatomy(build(TypeBox)))
    })
  }

  it('builds schemas TypeBox validates the same way', () => {
    const build = CASES['Object(required and optional)'] as (T: Builder) => object
    const ours = Compile(build(Type) as never)
    const theirs = Compile(build(TypeBox) as never)
    for (const value of [{ a: 'x', c: [] }, { a: 'x', b: 1.5, c: [] }, { c: [true] }, null]) {
      expect(ours.Check(value)).toBe(theirs.Check(value))
      expect(ours.Errors(value)).toEqual(theirs.Errors(value))
    }
    expect(ours.Check({ a: 'x', b: 2, c: [true] })).toBe(true)
  })

  it('refuses a Literal TypeBox refuses', () => {
    expect(() => Type.Literal(null as never)).toThrow('Invalid Literal value')
    expect(() => TypeBox.Literal(null as never)).toThrow('Invalid Literal value')
  })

  it('refuses Record keys it does not build', () => {
    expect(() => Type.Record(Type.Integer() as never, Type.String())).toThrow(/Record keys/)
  })
})
