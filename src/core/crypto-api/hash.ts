// src/core/crypto-api/hash.ts: hash objects (crypto.md §5): the deterministic token ID of each item, nothing stored

import type { HashObjectRequest } from '../../contract/crypto-api.ts'
import {
  type Audited,
  appendObjectIds,
  withFailureDetails,
  withProperties,
} from '../audit/details.ts'
import type { StoredCollection } from '../collections/collection.ts'
import type { RequestContext } from '../context.ts'
import { VaultError } from '../errors.ts'
import { assertItemCount, type CryptoDeps, collectionFor, propertyChecks } from './deps.ts'
import { propertyOrThrow, selectProps, type Values } from './fields.ts'
import { type ResolvedSource, resolveSources } from './sources.ts'

const PAN_TEMPLATE = 'primary_account_number'

function invalid(message: string, field: string): VaultError {
  return new VaultError('invalidRequest', { message, context: { field } })
}

/**
 * The values an item hashes: `props`, else what tokenize would take (tokens.md §3): every
 * non-null user property of a stored object, or every given property.
 */
function hashedValues(
  collection: StoredCollection,
  item: HashObjectRequest,
  source: ResolvedSource,
  index: number,
): Values {
  const values = item.props
    ? selectProps(collection, source.values, item.props)
    : source.kind === 'stored'
      ? selectProps(
          collection,
          source.values,
          collection.properties.map((p) => p.name),
        )
      : { ...source.values }
  if (Object.keys(values).length > 0) return values
  throw invalid(`Item ${index} has no property values to hash.`, `${index}.props`)
}

/** The card number for `primary_account_number` (tokens.md §5), or undefined for a UUID. */
function cardNumberOf(
  deps: CryptoDeps,
  collection: StoredCollection,
  item: HashObjectRequest,
  source: ResolvedSource,
  index: number,
): string | undefined {
  const fpprops = [...new Set(item.fpprops ?? [])]
  if (!item.fptemplate) {
    if (fpprops.length === 0) return undefined
    throw invalid(`Item ${index} has fpprops without an fptemplate.`, `${index}.fpprops`)
  }
  if (item.fptemplate !== PAN_TEMPLATE)
    throw invalid(`The fptemplate of item ${index} is not supported.`, `${index}.fptemplate`)
  const properties = fpprops.map((name) => propertyOrThrow(collection, name))
  const isCard =
    properties.length === 1 &&
    deps.types.get(properties[0]?.dataType ?? '')?.base.name === 'CC_NUMBER'
  if (!isCard)
    throw invalid(
      `The primary_account_number template needs exactly one CC_NUMBER property in fpprops.`,
      `${index}.fpprops`,
    )
  const card = source.values[fpprops[0] as string]
  if (typeof card === 'string') return card
  throw invalid(`Item ${index} has no value for its fpprops property.`, `${index}.fpprops`)
}

/** Hash objects: `{ token_id }` per item, equal to the deterministic token ID of the same input. */
export async function hash(
  deps: CryptoDeps,
  ctx: RequestContext,
  name: string,
  items: readonly HashObjectRequest[],
): Promise<Audited<{ token_id: string }[]>> {
  const { collection, audit: named } = collectionFor(deps, name)
  return withFailureDetails(named, async () => {
    assertItemCount(deps, items.length)
    const sources = await resolveSources(
      deps,
      ctx,
      collection,
      items.map((item) => item.object),
    )
    const planned = items.map((item, i) => {
      const source = sources[i] as ResolvedSource
      const values = hashedValues(collection, item, source, i)
      return {
        values,
        scope: item.scope ?? '',
        card: cardNumberOf(deps, collection, item, source, i),
      }
    })
    const names = items.flatMap((item, i) => [
      ...Object.keys(planned[i]?.values ?? {}),
      ...(item.fpprops ?? []),
    ])
    deps.iam.checkPolicies(ctx, propertyChecks('hash', collection, names))
    const audit = appendObjectIds(
      withProperties(named, names),
      sources.flatMap((source) => (source.objectId ? [source.objectId] : [])),
    )
    return withFailureDetails(audit, async () => ({
      value: planned.map(({ values, scope, card }) => {
        const input = { collection: collection.name, scope, values }
        return { token_id: card === undefined ? deps.ids.uuid(input) : deps.ids.pan(input, card) }
      }),
      audit,
    }))
  })
}
