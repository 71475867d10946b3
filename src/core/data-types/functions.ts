// src/core/data-types/functions.ts: resolving the bundle functions a custom data type names, inside its write
import { exportedFunction, parseReference } from '../bundles/registry.ts'
import type { FunctionType } from '../bundles/sandbox.ts'
import type { Repos } from '../store.ts'
import { functionNotFound, invalidType } from './errors.ts'
import type { StoredDataType } from './store.ts'

/** `"<bundle>.<function>"`, or `{ bundle, function }` (endpoints §6.2). */
export type FunctionInput = string | Readonly<{ bundle: string; function: string }>

export const functionName = (reference: string) => reference.slice(reference.indexOf('.') + 1)

type Wanted = Readonly<{
  validator?: FunctionInput
  normalizer?: FunctionInput
  transformers?: readonly string[]
}>

type Resolved = { validator?: string; normalizer?: string; transformers?: string[] }

export const asText = (input: FunctionInput) =>
  typeof input === 'string' ? input : `${input.bundle}.${input.function}`

/**
 * Checks each reference inside the type's write: the bundle exists (held until the end, so a
 * concurrent bundle delete sees this type), exports the function, with the expected type.
 */
async function resolveOne(
  tx: Repos,
  type: string,
  input: FunctionInput,
  expected: FunctionType,
  field: string,
): Promise<string> {
  const text = asText(input)
  const reference = parseReference(text)
  if (reference === undefined)
    throw invalidType(
      type,
      `${field} ${text.slice(0, 100)} must be "<bundle>.<function>" with valid names`,
      field,
    )
  const isHeld = await tx.bundles.hold(reference.bundle)
  const bundle = isHeld ? await tx.bundles.get(reference.bundle) : undefined
  const exported = bundle?.exports.find((f) => f.name === reference.function)
  if (bundle === undefined || exported === undefined)
    throw functionNotFound(reference.bundle, reference.function, field)
  if (exportedFunction(bundle, reference.function, expected) === undefined)
    throw invalidType(
      type,
      `${field} ${text} is a ${exported.type} of bundle ${reference.bundle}, not a ${expected}`,
      field,
    )
  return text
}

/** The references `wanted` names, checked; fields not in `wanted` are left out. */
export async function resolveFunctions(
  tx: Repos,
  type: StoredDataType,
  wanted: Wanted,
): Promise<Resolved> {
  const resolved: Resolved = {}
  if (wanted.validator !== undefined)
    resolved.validator = await resolveOne(tx, type.name, wanted.validator, 'validator', 'validator')
  if (wanted.normalizer !== undefined)
    resolved.normalizer = await resolveOne(
      tx,
      type.name,
      wanted.normalizer,
      'normalizer',
      'normalizer',
    )
  if (wanted.transformers !== undefined) {
    const transformers: string[] = []
    for (const input of wanted.transformers) {
      const text = await resolveOne(tx, type.name, input, 'transformer', 'transformers')
      if (transformers.some((t) => functionName(t) === functionName(text)))
        throw invalidType(
          type.name,
          `two transformers are named ${functionName(text)}; they are addressed by function name`,
          'transformers',
        )
      transformers.push(text)
    }
    resolved.transformers = transformers
  }
  return resolved
}
