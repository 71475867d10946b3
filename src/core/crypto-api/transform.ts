// src/core/crypto-api/transform.ts: the `props` of decrypt: plain properties and transformations (`ssn.mask`)

import type { StoredCollection } from '../collections/collection.ts'
import type { RequestContext } from '../context.ts'
import type { ResolvedTransformer, TypeRegistry } from '../data-types/registry.ts'
import { VaultError } from '../errors.ts'
import type { PolicyCheck } from '../iam/evaluate.ts'
import { propertyResources } from '../iam/policy.ts'
import { ownValue } from '../own.ts'
import { dataTypeOf, propertyOrThrow, type Values } from './fields.ts'

/**
 * Runs a custom data type's transformer (`"<bundle>.<function>"`) in the sandbox with the
 * context of data-model §9.3; `ctx.transParam` (X-Trans-Param) becomes `context.param`. The
 * bundles capability provides it; `object` holds the decrypted fields.
 */
export type CustomTransformerRunner = (
  ctx: RequestContext,
  call: Readonly<{
    function: string
    collection: StoredCollection
    property: string
    object: Readonly<Values>
    value: unknown
  }>,
) => Promise<unknown>

/** One requested output: `key` as spelled in `props`, the property it reads, its transformer. */
export type PropRequest = Readonly<{
  key: string
  property: string
  dataType: string
  transformer?: Readonly<{ name: string; resolved: ResolvedTransformer }>
}>

function transformerNotFound(collection: string, key: string): VaultError {
  return new VaultError('propertyNotFound', {
    message: 'The transformer is not defined for the property.',
    context: { collection, property: key.slice(0, 100) },
  })
}

/** Parses `props`: unknown properties or transformers are 404 ERR3004 (data-model §5.1). */
export function parseProps(
  types: TypeRegistry,
  collection: StoredCollection,
  props: readonly string[],
): PropRequest[] {
  return [...new Set(props)].map((key) => {
    const dot = key.indexOf('.')
    const property = propertyOrThrow(collection, dot < 0 ? key : key.slice(0, dot))
    const request = { key, property: property.name, dataType: property.dataType }
    if (dot < 0) return request
    const name = key.slice(dot + 1)
    const resolved = types.transformer(property.dataType, name)
    if (resolved === undefined) throw transformerNotFound(collection.name, key)
    return { ...request, transformer: { name, resolved } }
  })
}

/** Every field of a ciphertext, untransformed: decrypt without `props`. */
export function allFields(collection: StoredCollection, fields: Readonly<Values>): PropRequest[] {
  return Object.keys(fields).map((name) => ({
    key: name,
    property: name,
    dataType: dataTypeOf(collection, name),
  }))
}

/** Requested props must be in the ciphertext (crypto.md §2: else 404 ERR3004). */
export function assertInFields(
  collection: string,
  requests: readonly PropRequest[],
  fields: Readonly<Values>,
): void {
  const missing = requests.find((request) => !Object.hasOwn(fields, request.property))
  if (missing === undefined) return
  throw new VaultError('propertyNotFound', {
    message: `The property ${missing.property} is not in the ciphertext.`,
    context: { collection, property: missing.property },
  })
}

/** The policy check of each output: the raw property, or its transformation binding. */
export function propChecks(
  operation: string,
  collection: string,
  requests: readonly PropRequest[],
  isArchived: boolean,
): PolicyCheck[] {
  return requests.map((request) => ({
    operation,
    resources: propertyResources({
      collection,
      property: request.property,
      type: request.dataType,
      transformer: request.transformer?.name,
      isArchived,
    }),
  }))
}

export type TransformDeps = Readonly<{
  collection: StoredCollection
  runCustom: CustomTransformerRunner | undefined
}>

async function transform(
  ctx: RequestContext,
  deps: TransformDeps,
  request: PropRequest,
  fields: Readonly<Values>,
): Promise<unknown> {
  const value = ownValue(fields, request.property)
  const resolved = request.transformer?.resolved
  if (resolved === undefined) return value
  if (resolved.kind === 'value') return resolved.apply(value, { now: ctx.now })
  // `token` names a pci token of a stored object's property; a ciphertext belongs to no object.
  if (resolved.kind === 'token') return null
  if (deps.runCustom === undefined)
    throw new VaultError('featureDisabled', { message: 'Custom transformers are not available.' })
  const call = {
    function: resolved.function,
    collection: deps.collection,
    property: request.property,
  }
  return deps.runCustom(ctx, { ...call, object: fields, value })
}

/** The output map of one item, keyed as requested. */
export async function applyProps(
  ctx: RequestContext,
  deps: TransformDeps,
  requests: readonly PropRequest[],
  fields: Readonly<Values>,
): Promise<Values> {
  const output: Values = {}
  for (const request of requests) output[request.key] = await transform(ctx, deps, request, fields)
  return output
}
