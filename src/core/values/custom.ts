// src/core/values/custom.ts: the custom data type steps of the write pipeline, and the port that runs their functions
import type { StoredCollection } from '../collections/collection.ts'
import type { RequestContext } from '../context.ts'
import type { TypeRegistry } from '../data-types/registry.ts'
import type { VaultError } from '../errors.ts'

type Values = Record<string, unknown>

/** The outcome of a custom validator and normalizer on one value. */
export type ValueCheck =
  | Readonly<{ ok: true; value: unknown }>
  | Readonly<{ ok: false; error: VaultError }>

/** One custom transformer over many values of one property (one sandbox entry for a page). */
export type TransformCall = Readonly<{
  /** `"<bundle>.<function>"`. */
  function: string
  collection: StoredCollection
  property: string
  /** Per value: the object's dependency properties, and the stored value. */
  items: readonly Readonly<{ object: Readonly<Values>; value: unknown }>[]
}>

/** A custom token ID template over many items (tokenize) or one (rotate, retries). */
export type TemplateCall = Readonly<{
  /** `"<bundle>.<function>"`. */
  function: string
  collection: StoredCollection
  /** Where the template was named, for errors (`[0].fptemplate`). */
  field: string
  items: readonly Readonly<{ object: Readonly<Values>; seed: string }>[]
}>

/**
 * Runs the bundle functions of custom data types (implemented by the bundles capability in
 * core/bundles/type-functions.ts). Both batch: one sandbox entry for all the values.
 */
export type CustomTypeFunctions = Readonly<{
  /**
   * Custom validator, then custom normalizer (its result checked again with the base type), on
   * values that already passed the base type (data-model §8). Invalid values are 400 ERR3002.
   */
  check(
    ctx: RequestContext,
    property: Readonly<{ name: string; dataType: string; isEncrypted: boolean }>,
    values: readonly unknown[],
  ): Promise<readonly ValueCheck[]>
  transform(ctx: RequestContext, call: TransformCall): Promise<readonly unknown[]>
  /**
   * Token IDs from a custom `fptemplate` function (tokens.md §5), one per item, called as
   * `handler(context, object, seed)`; an answer that is not a valid token ID is 400 ERR1012.
   */
  templateIds(ctx: RequestContext, call: TemplateCall): Promise<readonly string[]>
  /** The properties of `collection` a transformer reads in its `object` argument. */
  dependencies(reference: string, collection: StoredCollection): readonly string[]
}>

/** `*` any run of characters, `?` one character, the rest literal. */
function globPattern(glob: string): RegExp {
  const body = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.')
  return new RegExp(`^${body}$`)
}

/** The user properties of a collection that dependency globs name. */
export function matchDependencies(
  collection: StoredCollection,
  globs: readonly string[],
): string[] {
  if (globs.length === 0) return []
  const patterns = globs.map(globPattern)
  return collection.properties.map((p) => p.name).filter((n) => patterns.some((r) => r.test(n)))
}

/** Whether a property's type has a custom validator or normalizer. */
export function hasCustomCheck(types: TypeRegistry, dataType: string): boolean {
  const info = types.custom(dataType)
  return info !== undefined && (info.validator !== undefined || info.normalizer !== undefined)
}

/**
 * Runs the custom steps over the (base-checked) values of many items, one batch per property:
 * each item gets its values with the normalized results, or the error of its first bad value.
 * Items that are undefined (failed earlier) stay undefined.
 */
export async function applyCustomChecks(
  ctx: RequestContext,
  deps: Readonly<{ types: TypeRegistry; custom: CustomTypeFunctions }>,
  collection: StoredCollection,
  items: readonly (Readonly<Values> | undefined)[],
): Promise<(Values | VaultError | undefined)[]> {
  const results: (Values | VaultError | undefined)[] = items.map((v) => v && { ...v })
  const checked = collection.properties.filter((p) => hasCustomCheck(deps.types, p.dataType))
  // Every property's functions run at once (their own sandbox entries); results are applied in
  // property order, so an item with several bad values always reports the same one.
  const runs = await Promise.all(
    checked.map(async (property) => {
      const at: number[] = []
      const values: unknown[] = []
      for (const [i, item] of results.entries()) {
        const value = item instanceof Error ? undefined : item?.[property.name]
        if (value === undefined || value === null) continue
        at.push(i)
        values.push(value)
      }
      const outcomes = values.length === 0 ? [] : await deps.custom.check(ctx, property, values)
      return { property, at, outcomes }
    }),
  )
  for (const { property, at, outcomes } of runs) {
    for (const [k, i] of at.entries()) {
      const outcome = outcomes[k]
      const item = results[i]
      if (outcome === undefined || item === undefined || item instanceof Error) continue
      if (outcome.ok) item[property.name] = outcome.value
      else results[i] = outcome.error
    }
  }
  return results
}

/** One item's values through the custom steps; its first bad value is thrown. */
export async function checkCustomValues(
  ctx: RequestContext,
  deps: Readonly<{ types: TypeRegistry; custom: CustomTypeFunctions }>,
  collection: StoredCollection,
  values: Readonly<Values>,
): Promise<Values> {
  const [result] = await applyCustomChecks(ctx, deps, collection, [values])
  if (result instanceof Error) throw result
  return result ?? {}
}
