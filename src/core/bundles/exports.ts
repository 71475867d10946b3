// src/core/bundles/exports.ts: judging what a bundle exports (data-model §9.2) and the update superset rule
import { isValidName } from '../collections/names.ts'
import { VaultError } from '../errors.ts'
import { FUNCTION_TYPES, type FunctionType, type RawExport } from './sandbox.ts'

/** A function a bundle exports, as the API reports it (data-model §9.1 FunctionPrototype). */
export type FunctionPrototype = Readonly<{
  name: string
  type: FunctionType
  description?: string
  dependencies?: Readonly<{ properties?: readonly string[] }>
}>

/** Property names, or globs over them (`*`, `?`), in `dependencies.properties`. */
const PROPERTY_GLOB = /^[A-Za-z0-9_*?]{1,450}$/
const MAX_DESCRIPTION = 10_000

function invalidExport(bundle: string, name: string, why: string): VaultError {
  const shown = name.slice(0, 100)
  return new VaultError('invalidRequest', {
    message: `The export ${shown} of bundle ${bundle} is invalid: ${why}.`,
    context: { bundle, function: shown },
  })
}

function isFunctionType(value: unknown): value is FunctionType {
  return typeof value === 'string' && (FUNCTION_TYPES as readonly string[]).includes(value)
}

function dependenciesOf(bundle: string, raw: RawExport): FunctionPrototype['dependencies'] {
  const given = raw.dependencies
  if (given === undefined || given === null) return undefined
  const why = 'dependencies must be an object { properties: [property names or patterns] }'
  if (typeof given !== 'object' || Array.isArray(given)) throw invalidExport(bundle, raw.name, why)
  const { properties } = given as { properties?: unknown }
  if (properties === undefined || properties === null) return {}
  const isValid =
    Array.isArray(properties) &&
    properties.every((p) => typeof p === 'string' && PROPERTY_GLOB.test(p))
  if (!isValid) throw invalidExport(bundle, raw.name, why)
  return { properties: [...new Set(properties as string[])] }
}

function judgeOne(bundle: string, raw: RawExport): FunctionPrototype {
  if (!isValidName(raw.name))
    throw invalidExport(
      bundle,
      raw.name,
      'the name must follow the naming rules (letters, digits, _)',
    )
  if (!raw.isObject) throw invalidExport(bundle, raw.name, 'it must be an object { type, handler }')
  if (!isFunctionType(raw.type)) {
    const known = FUNCTION_TYPES.join(', ')
    throw invalidExport(bundle, raw.name, `its type must be one of ${known}`)
  }
  if (!raw.hasHandler) throw invalidExport(bundle, raw.name, 'its handler must be a function')
  const { description } = raw
  if (description !== undefined && description !== null && typeof description !== 'string')
    throw invalidExport(bundle, raw.name, 'its description must be a string')
  if (typeof description === 'string' && description.length > MAX_DESCRIPTION)
    throw invalidExport(
      bundle,
      raw.name,
      `its description is longer than ${MAX_DESCRIPTION} characters`,
    )
  const dependencies = dependenciesOf(bundle, raw)
  return {
    name: raw.name,
    type: raw.type,
    ...(typeof description === 'string' ? { description } : {}),
    ...(dependencies === undefined ? {} : { dependencies }),
  }
}

/** The exported functions, sorted by name; the first invalid export is 400 ERR1012 naming it. */
export function judgeExports(bundle: string, raw: readonly RawExport[]): FunctionPrototype[] {
  return raw
    .map((entry) => judgeOne(bundle, entry))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
}

/**
 * An update keeps every function of the old code with the same type (endpoints §6.9); new ones
 * may be added and dependencies may change, so what references the bundle stays valid.
 */
export function assertSuperset(
  bundle: string,
  before: readonly FunctionPrototype[],
  after: readonly FunctionPrototype[],
): void {
  const types = new Map(after.map((f) => [f.name, f.type]))
  for (const old of before) {
    const type = types.get(old.name)
    if (type === old.type) continue
    const now = type === undefined ? 'no longer exports it' : `exports it as a ${type}`
    throw new VaultError('invalidRequest', {
      message: `The new code of bundle ${bundle} must keep the ${old.type} ${old.name}, but it ${now}.`,
      context: { bundle, function: old.name },
    })
  }
}
