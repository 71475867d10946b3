// src/core/analysis/reveal.ts: reveal (endpoints §9.4): markers replaced by values the caller may detokenize, the others kept
import {
  type AuditDetails,
  type Audited,
  mergeDetails,
  NO_DETAILS,
  replaceDetails,
  withFailureOf,
} from '../audit/details.ts'
import type { StoredCollection } from '../collections/collection.ts'
import type { RequestContext } from '../context.ts'
import { isVaultError } from '../errors.ts'
import type { TokensService } from '../tokens/tokens.ts'
import { type EntityType, toEntityType } from './entity-types.ts'
import { propertyFor } from './property-fit.ts'

export type Revealed = { text: string; revealed: number; withheld: number }

// `[[EMAIL:<token id>]]`: the token ID rules of tokens.md §3 bound the repetition.
const MARKER = /\[\[([A-Z][A-Z_]{1,39}):([A-Za-z0-9_-]{1,128})\]\]/g

/** Errors that mean "this caller may not see these values": the markers stay. */
const WITHHELD_ERRORS = new Set(['policyDenied'])

/**
 * The `props` item that reveals a type: the transformation asked for (`email.mask`, or a bare
 * transformer name of the property holding the type), else undefined (the raw values).
 */
function propsFor(
  collection: StoredCollection,
  type: EntityType,
  transformations: ReadonlyMap<EntityType, string>,
): string[] | undefined {
  const asked = transformations.get(type)
  if (asked === undefined) return undefined
  if (asked.includes('.')) return [asked]
  const property = propertyFor(collection, type, new Map())
  return [property === undefined ? asked : `${property}.${asked}`]
}

/**
 * The values of one entity type's tokens, or undefined when the caller may not see them, with
 * `audit` and what the detokenize touched (also when it failed).
 */
async function valuesOf(
  tokens: Pick<TokensService, 'detokenize'>,
  ctx: RequestContext,
  request: Readonly<{ collection: string; tokenIds: readonly string[]; audit: AuditDetails }>,
  props: string[] | undefined,
): Promise<Audited<Map<string, string> | undefined>> {
  const { collection, tokenIds } = request
  try {
    const { value: found, audit } = await tokens.detokenize(
      ctx,
      collection,
      { tokenIds },
      { props, includeMetadata: false, includeAggregate: false },
    )
    const values = new Map<string, string>()
    for (const token of found) {
      const value = Object.values(token.fields)[0]
      if (value !== null && value !== undefined) values.set(token.token_id, String(value))
    }
    return { value: values, audit: mergeDetails(request.audit, audit) }
  } catch (error) {
    // Touched before it failed: named in the record whether the reveal goes on or fails.
    const audit = withFailureOf(request.audit, error)
    if (isVaultError(error) && WITHHELD_ERRORS.has(error.errorName))
      return { value: undefined, audit }
    throw replaceDetails(error, audit)
  }
}

export async function reveal(
  tokens: Pick<TokensService, 'detokenize'>,
  ctx: RequestContext,
  input: Readonly<{ texts: readonly string[]; collection: StoredCollection }>,
  transformations: ReadonlyMap<EntityType, string>,
): Promise<Audited<Revealed[]>> {
  const byType = new Map<string, Set<string>>()
  for (const text of input.texts)
    for (const m of text.matchAll(MARKER)) {
      const ids = byType.get(m[1] ?? '') ?? new Set()
      byType.set(m[1] ?? '', ids.add(m[2] ?? ''))
    }
  const values = new Map<string, string>()
  let audit = NO_DETAILS
  for (const [name, ids] of byType) {
    // Only markers of known entity types are markers; other `[[…]]` text stays as it is.
    const type = toEntityType(name)
    if (type === undefined) continue
    const props = propsFor(input.collection, type, transformations)
    const request = { collection: input.collection.name, tokenIds: [...ids], audit }
    const found = await valuesOf(tokens, ctx, request, props)
    audit = found.audit
    for (const [id, value] of found.value ?? []) values.set(`${name}:${id}`, value)
  }
  const revealed = input.texts.map((text) => {
    let revealed = 0
    let withheld = 0
    const out = text.replace(MARKER, (whole, type: string, id: string) => {
      if (toEntityType(type) === undefined) return whole
      const value = values.get(`${type}:${id}`)
      if (value === undefined) {
        withheld++
        return whole
      }
      revealed++
      return value
    })
    return { text: out, revealed, withheld }
  })
  return { value: revealed, audit }
}
