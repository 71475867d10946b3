// src/core/tokens/detokenize.ts: detokenize (endpoints §4.2) and search tokens (§4.3)

import { propertyChecks } from '../access/checks.ts'
import { type Audited, NO_DETAILS, touchedDetails, withFailureDetails } from '../audit/details.ts'
import type { StoredCollection } from '../collections/collection.ts'
import type { RequestContext } from '../context.ts'
import { tokensResource } from '../iam/policy.ts'
import { ownValue } from '../own.ts'
import type { TokensDeps } from './deps.ts'
import { invalidItem } from './errors.ts'
import { groupTokens, type TokenGroup } from './metadata.ts'
import { type PropItem, planProps, propChecks } from './props.ts'
import { openTokens, type TokenView } from './records.ts'
import { hasCriterion, type Selection, type SelectState, selectTokens } from './selection.ts'

export type DetokenizeOptions = Readonly<{
  props: readonly string[] | undefined
  includeMetadata: boolean
  includeAggregate: boolean
}>

export type Detokenized = {
  token_id: string
  fields: Record<string, unknown>
  metadata?: TokenGroup
}

function fieldsOf(
  ctx: RequestContext,
  view: TokenView,
  data: Record<string, unknown>,
  items: readonly PropItem[] | undefined,
) {
  if (items === undefined)
    return Object.fromEntries(view.row.props.map((p) => [p, ownValue(data, p) ?? null]))
  return Object.fromEntries(
    items.map((item) => {
      const value = ownValue(data, item.property) ?? null
      return [item.key, item.apply ? item.apply(value, ctx) : value]
    }),
  )
}

export async function detokenize(
  deps: TokensDeps,
  ctx: RequestContext,
  name: string,
  selection: Selection,
  options: DetokenizeOptions,
): Promise<Audited<Detokenized[]>> {
  const collection = deps.collections.getCachedOrThrow(name)
  if (!hasCriterion(selection))
    throw invalidItem('One of token_ids, object_ids or tags is required.', 'token_ids')
  if (options.includeAggregate && !options.includeMetadata)
    throw invalidItem('The include_aggregated_data option needs include_metadata.', 'options')
  const matched = await selectTokens(deps, ctx, collection.name, selection, 'active')
  const views = matched.filter((v) => v.row.type !== 'pci_oneway')
  if (views.length === 0 && matched.length > 0 && selection.tokenIds?.length)
    throw invalidItem('A pci_oneway token cannot be detokenized.', 'token_ids')
  const props = options.props?.length ? [...new Set(options.props)] : undefined
  const items = props === undefined ? undefined : planProps(collection, deps.types, props)
  for (const view of views)
    if (items?.some((item) => !view.row.props.includes(item.property)))
      throw invalidItem('The props must be among the properties of the tokens.', 'props')
  const names = items?.map((i) => i.property) ?? views.flatMap((v) => v.row.props)
  deps.iam.checkPolicies(
    ctx,
    items === undefined
      ? [
          ...propertyChecks(collection, names, 'detokenize'),
          ...propertyChecks(collection, names, 'read'),
        ]
      : propChecks(collection.name, items),
  )
  const audit = touchedDetails(NO_DETAILS, collection, names)
  return withFailureDetails(audit, async () => {
    const data = openTokens(
      deps.envelope,
      views.map((v) => v.row),
    )
    const current = deps.reader.valuesOf(
      views.flatMap((v) => (v.row.type === 'pointer' && v.owner ? [v.owner] : [])),
    )
    const groups = options.includeMetadata
      ? new Map(groupTokens(views, options.includeAggregate).map((g) => [g.token_id, g]))
      : undefined
    const values = views.map((view, i) =>
      view.row.type === 'pointer' ? (current.get(view.row.objectId ?? '') ?? {}) : (data[i] ?? {}),
    )
    const results = views.map((view, i) => {
      const item: Detokenized = {
        token_id: view.row.tokenId,
        fields: fieldsOf(ctx, view, values[i] ?? {}, items),
      }
      const metadata = groups?.get(view.row.tokenId)
      return metadata ? { ...item, metadata } : item
    })
    for (const item of items ?? []) {
      if (item.custom === undefined) continue
      await transformAll(deps, ctx, { collection, item, function: item.custom }, values, results)
    }
    return { value: results, audit }
  })
}

/** One custom transformer over the item's value of every token, in one sandbox entry. */
async function transformAll(
  deps: TokensDeps,
  ctx: RequestContext,
  call: Readonly<{ collection: StoredCollection; item: PropItem; function: string }>,
  values: readonly Record<string, unknown>[],
  results: Detokenized[],
): Promise<void> {
  const dependencies = deps.custom.dependencies(call.function, call.collection)
  const at = values.flatMap((v, i) => ((v[call.item.property] ?? null) === null ? [] : [i]))
  const transformed = await deps.custom.transform(ctx, {
    function: call.function,
    collection: call.collection,
    property: call.item.property,
    items: at.map((i) => {
      const v = values[i] ?? {}
      return {
        object: Object.fromEntries(dependencies.map((n) => [n, v[n] ?? null])),
        value: v[call.item.property],
      }
    }),
  })
  for (const result of results) result.fields[call.item.key] = null
  for (const [k, i] of at.entries())
    (results[i] as Detokenized).fields[call.item.key] = transformed[k] ?? null
}

export async function searchTokens(
  deps: TokensDeps,
  ctx: RequestContext,
  name: string,
  selection: Selection,
  options: Readonly<{ isArchived: boolean; includeAggregate: boolean }>,
): Promise<Audited<TokenGroup[]>> {
  const collection = deps.collections.getCachedOrThrow(name)
  deps.iam.checkPolicies(ctx, [
    { operation: 'read', resources: tokensResource(collection.name, options.isArchived) },
  ])
  const audit = touchedDetails(NO_DETAILS, collection)
  return withFailureDetails(audit, async () => {
    const state: SelectState = options.isArchived ? 'archived' : 'active'
    const views = await selectTokens(deps, ctx, collection.name, selection, state)
    return { value: groupTokens(views, options.includeAggregate), audit }
  })
}
