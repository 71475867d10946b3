// src/core/analysis/protect.ts: protect (endpoints §9.3): found PII replaced by vault tokens made through the tokens service
import type { TokenizeRequest } from '../../contract/tokens.ts'
import type { StoredCollection } from '../collections/collection.ts'
import type { RequestContext } from '../context.ts'
import type { TypeRegistry } from '../data-types/registry.ts'
import { isVaultError } from '../errors.ts'
import type { TokensService } from '../tokens/tokens.ts'
import type { Detection } from './detector.ts'
import type { EntityType } from './entity-types.ts'
import { propertyFor } from './property-fit.ts'

export type TokenType = 'deterministic' | 'pci'

export type ProtectOptions = Readonly<{
  tokenType: TokenType
  /** Entity types to replace; undefined: all. */
  types: ReadonlySet<EntityType> | undefined
  props: ReadonlyMap<EntityType, string>
}>

export type Replacement = {
  type: EntityType
  property: string
  token_id: string
  begin_offset: number
  end_offset: number
}
export type Skipped = { type: EntityType; begin_offset: number; end_offset: number; reason: string }
export type Protected = { text: string; replacements: Replacement[]; skipped: Skipped[] }

/** The marker that stands for a token in a protected text (spec §9.3). */
export const marker = (type: string, tokenId: string) => `[[${type}:${tokenId}]]`

type Planned = Readonly<{ detection: Detection; property: string; key: string }>
type Plan = {
  planned: Planned[][]
  skipped: Skipped[][]
  values: Map<string, { property: string; value: unknown }>
}

const skip = (d: Detection, reason: string): Skipped => ({
  type: d.type,
  begin_offset: d.begin,
  end_offset: d.end,
  reason,
})

/**
 * Decides what each detection becomes: a value of a property to tokenize (validated by the
 * property's type, so a value the type refuses is skipped, not an error) or a skipped span.
 */
function planAll(
  texts: readonly string[],
  found: readonly (readonly Detection[])[],
  collection: StoredCollection,
  types: Pick<TypeRegistry, 'validate'>,
  options: ProtectOptions,
): Plan {
  const plan: Plan = { planned: [], skipped: [], values: new Map() }
  const properties = new Map<EntityType, string | undefined>()
  texts.forEach((text, i) => {
    const planned: Planned[] = []
    const skipped: Skipped[] = []
    for (const d of found[i] ?? []) {
      if (options.types !== undefined && !options.types.has(d.type)) continue
      if (!properties.has(d.type))
        properties.set(d.type, propertyFor(collection, d.type, options.props))
      const property = properties.get(d.type)
      if (property === undefined) {
        skipped.push(skip(d, 'no_property'))
        continue
      }
      const dataType = collection.properties.find((p) => p.name === property)?.dataType ?? 'STRING'
      try {
        const value = types.validate(
          { name: property, dataType },
          d.normalized ?? text.slice(d.begin, d.end),
        )
        const key = `${property}\u0000${JSON.stringify(value)}`
        plan.values.set(key, { property, value })
        planned.push({ detection: d, property, key })
      } catch (error) {
        if (!isVaultError(error) || error.errorName !== 'invalidPropertyValue') throw error
        skipped.push(skip(d, 'invalid_value'))
      }
    }
    plan.planned.push(planned)
    plan.skipped.push(skipped)
  })
  return plan
}

/**
 * One tokenize call for every distinct value (atomic: a policy refusal creates nothing). When a
 * custom validator refuses a value of a property, that property's values are skipped and the call
 * is made again without them.
 */
async function tokenizeAll(
  tokens: Pick<TokensService, 'tokenize'>,
  ctx: RequestContext,
  collection: string,
  plan: Plan,
  tokenType: TokenType,
): Promise<{ ids: Map<string, string>; refused: Set<string> }> {
  const refused = new Set<string>()
  for (;;) {
    const entries = [...plan.values].filter(([, v]) => !refused.has(v.property))
    if (entries.length === 0) return { ids: new Map(), refused }
    const items: TokenizeRequest[] = entries.map(([, v]) => ({
      type: tokenType,
      object: { fields: { [v.property]: v.value } },
      props: [v.property],
    }))
    try {
      const result = await tokens.tokenize(ctx, collection, items, {})
      return { ids: new Map(entries.map(([key], i) => [key, result[i]?.token_id ?? ''])), refused }
    } catch (error) {
      const property = isVaultError(error) ? error.context.property : undefined
      const isInvalid =
        isVaultError(error) &&
        (error.errorName === 'invalidTokenizeValues' || error.errorName === 'invalidPropertyValue')
      if (!isInvalid || property === undefined || refused.has(property)) throw error
      refused.add(property)
    }
  }
}

/** Builds each protected text: markers in place of the tokenized spans, the rest unchanged. */
export async function protect(
  deps: Readonly<{
    tokens: Pick<TokensService, 'tokenize'>
    types: Pick<TypeRegistry, 'validate'>
  }>,
  ctx: RequestContext,
  input: Readonly<{
    texts: readonly string[]
    found: readonly (readonly Detection[])[]
    collection: StoredCollection
  }>,
  options: ProtectOptions,
): Promise<Protected[]> {
  const plan = planAll(input.texts, input.found, input.collection, deps.types, options)
  const { ids, refused } = await tokenizeAll(
    deps.tokens,
    ctx,
    input.collection.name,
    plan,
    options.tokenType,
  )
  return input.texts.map((text, i) => {
    const replacements: Replacement[] = []
    const skipped = [...(plan.skipped[i] ?? [])]
    let out = ''
    let at = 0
    for (const { detection: d, property, key } of plan.planned[i] ?? []) {
      const tokenId = ids.get(key)
      if (refused.has(property) || tokenId === undefined) {
        skipped.push(skip(d, 'invalid_value'))
        continue
      }
      out += text.slice(at, d.begin) + marker(d.type, tokenId)
      at = d.end
      replacements.push({
        type: d.type,
        property,
        token_id: tokenId,
        begin_offset: d.begin,
        end_offset: d.end,
      })
    }
    skipped.sort((a, b) => a.begin_offset - b.begin_offset)
    return { text: out + text.slice(at), replacements, skipped }
  })
}
