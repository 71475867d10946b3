// src/core/tokens/update.ts: update tokens (endpoints §4.4): metadata of any token, data of pci/randomized groups

import type { UpdateTokenRequest } from '../../contract/tokens.ts'
import { propertyChecks } from '../access/checks.ts'
import { NO_DETAILS, touchedDetails, withFailureDetails } from '../audit/details.ts'
import type { StoredCollection } from '../collections/collection.ts'
import type { RequestContext } from '../context.ts'
import { tokensResource } from '../iam/policy.ts'
import { ownValue } from '../own.ts'
import { applyExpiry, parseExpiration } from '../writes/expiration.ts'
import type { TokensDeps } from './deps.ts'
import { invalidItem, noTokenMatched } from './errors.ts'
import { fingerprintOf, reuseNamespace } from './ids.ts'
import { sealTokens, type TokenView } from './records.ts'
import { checkTags } from './request.ts'
import { hasCriterion, type Selection, selectTokens } from './selection.ts'
import { resolveSources } from './sources.ts'
import { checkUniqueTags } from './unique-tags.ts'

export type UpdateOptions = Readonly<{ expirationSecs?: string; isArchived: boolean }>

const DATA_TYPES = new Set(['pci', 'pci_oneway', 'randomized'])

async function newData(
  deps: TokensDeps,
  ctx: RequestContext,
  collection: StoredCollection,
  body: UpdateTokenRequest,
  views: readonly TokenView[],
) {
  const ids = new Set(views.map((v) => v.row.tokenId))
  if (ids.size !== 1 || views.some((v) => !DATA_TYPES.has(v.row.type)))
    throw invalidItem(
      'A data update needs tokens of one ID of type pci, pci_oneway or randomized.',
      'object',
    )
  const [source] = await resolveSources(deps, ctx, collection, [
    body.object as NonNullable<typeof body.object>,
  ])
  const values = source?.values ?? {}
  const props =
    body.props ?? Object.keys(values).filter((p) => collection.properties.some((q) => q.name === p))
  if (props.length === 0) throw invalidItem('There are no properties to tokenize.', 'props')
  const picked = Object.fromEntries(props.map((p) => [p, ownValue(values, p) ?? null]))
  deps.iam.checkPolicies(ctx, propertyChecks(collection, props, 'tokenize'))
  return { props, values: picked }
}

export async function updateTokens(
  deps: TokensDeps,
  ctx: RequestContext,
  name: string,
  selection: Selection,
  body: UpdateTokenRequest,
  options: UpdateOptions,
) {
  const collection = deps.collections.getCachedOrThrow(name)
  if (!hasCriterion(selection)) throw noTokenMatched()
  const change = parseExpiration(
    options.expirationSecs,
    { defaultSecs: undefined, isUpdate: true },
    ctx.now,
  )
  const tags =
    body.tags === undefined
      ? undefined
      : checkTags(body.tags, body.ensure_unique_tenant_tags ?? [], deps.settings.maxTags, 'tags')
  const views = await selectTokens(
    deps,
    ctx,
    collection.name,
    selection,
    options.isArchived ? 'archived' : 'active',
  )
  if (views.length === 0) throw noTokenMatched()
  const data =
    body.object === undefined ? undefined : await newData(deps, ctx, collection, body, views)
  if (data === undefined)
    deps.iam.checkPolicies(ctx, [
      { operation: 'write', resources: tokensResource(collection.name, options.isArchived) },
    ])
  const details = touchedDetails(NO_DETAILS, collection, data?.props ?? [])
  await withFailureDetails(details, async () => {
    if (body.ensure_unique_tenant_tags?.length)
      await checkUniqueTags(
        deps,
        ctx,
        collection.name,
        views.map((v) => ({
          tags: body.ensure_unique_tenant_tags ?? [],
          tenantId: v.tenantId,
          exceptTokenId: v.row.tokenId,
        })),
      )
    const sealed =
      data === undefined
        ? []
        : sealTokens(
            deps.envelope,
            views.map((v) => ({
              collection: collection.name,
              rowId: v.row.rowId,
              values: data.values,
            })),
          )
    await deps.audit.transaction(ctx, details, async (tx) => {
      await tx.tokens.updateMeta(
        views.map((v) => ({
          rowId: v.row.rowId,
          tags: tags ?? v.row.tags,
          expiresAt: applyExpiry(v.row.expiresAt, change),
          modifiedAt: ctx.now,
        })),
      )
      if (data === undefined) return
      const first = views[0] as TokenView
      const input = {
        collection: collection.name,
        scope: first.row.scope,
        values: data.values,
        template: first.row.fptemplate,
        card: undefined,
      }
      const fingerprint =
        first.row.type === 'randomized' ? undefined : fingerprintOf(deps.envelope, input)
      await tx.tokens.updateData(
        views.map((v, i) => ({
          rowId: v.row.rowId,
          sealed: sealed[i] as Buffer,
          fingerprint,
          props: data.props,
          modifiedAt: ctx.now,
        })),
      )
      if (fingerprint === undefined) return
      await tx.tokens.releaseReuse(first.row.tokenId)
      await tx.tokens.setReuse(
        reuseNamespace(collection.name, first.row.scope),
        fingerprint,
        first.row.tokenId,
      )
    })
  })
}
