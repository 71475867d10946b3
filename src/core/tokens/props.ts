// src/core/tokens/props.ts: detokenize `props`: raw properties or transformation bindings (`ssn.mask`), their policy checks
import { findProperty, type StoredCollection } from '../collections/collection.ts'
import type { RequestContext } from '../context.ts'
import type { TypeRegistry } from '../data-types/registry.ts'
import { VaultError } from '../errors.ts'
import type { PolicyCheck } from '../iam/evaluate.ts'
import { propertyResources } from '../iam/policy.ts'
import { invalidItem } from './errors.ts'

/** One requested output key: the property it reads and the built-in transformer, if any. */
export type PropItem = Readonly<{
  key: string
  property: string
  dataType: string
  transformer: string | undefined
  apply: ((value: unknown, ctx: RequestContext) => unknown) | undefined
  /** A custom data type's transformer `"<bundle>.<function>"`, run for all tokens at once. */
  custom?: string
}>

function transformerNotFound(collection: string, property: string, name: string) {
  const shown = name.slice(0, 100)
  return new VaultError('propertyNotFound', {
    message: 'The transformer is not defined for the property.',
    context: { collection, property: `${property}.${shown}` },
  })
}

/** Plans each key; unknown transformers are 404 ERR3004, `token` is 400 ERR1012. */
export function planProps(
  collection: StoredCollection,
  types: TypeRegistry,
  keys: readonly string[],
): PropItem[] {
  return keys.map((key) => {
    const dot = key.indexOf('.')
    const name = dot < 0 ? key : key.slice(0, dot)
    const property = findProperty(collection, name)
    if (property === undefined)
      throw invalidItem('The props must be among the properties of the tokens.', 'props')
    const base = { key, property: name, dataType: property.dataType }
    if (dot < 0) return { ...base, transformer: undefined, apply: undefined }
    const transformer = key.slice(dot + 1)
    const resolved = types.transformer(property.dataType, transformer)
    if (resolved === undefined) throw transformerNotFound(collection.name, name, transformer)
    if (resolved.kind === 'custom')
      return { ...base, transformer, apply: undefined, custom: resolved.function }
    if (resolved.kind !== 'value')
      throw invalidItem('The token transformer cannot be used in detokenize.', 'props')
    const apply = (value: unknown, ctx: RequestContext) =>
      value === null || value === undefined
        ? null
        : resolved.apply(value, { now: ctx.now, param: ctx.transParam })
    return { ...base, transformer, apply }
  })
}

/** `detokenize` and `read` on each item: the raw property or its transformation binding. */
export function propChecks(collection: string, items: readonly PropItem[]): PolicyCheck[] {
  return ['detokenize', 'read'].flatMap((operation) =>
    items.map((item) => ({
      operation,
      resources: propertyResources({
        collection,
        property: item.property,
        type: item.dataType,
        transformer: item.transformer,
        isArchived: false,
      }),
    })),
  )
}
