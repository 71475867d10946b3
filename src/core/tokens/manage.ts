// src/core/tokens/manage.ts: delete and rotate tokens, transaction IDs and counts (endpoints §4.5–4.8)

import { NO_DETAILS, touchedDetails, withFailureDetails } from '../audit/details.ts'
import type { RequestContext } from '../context.ts'
import { VaultError } from '../errors.ts'
import { collectionResource, tokensResource } from '../iam/policy.ts'
import { ownValue } from '../own.ts'
import { isCustomTemplate, templateIdSource } from './custom-template.ts'
import type { TokensDeps } from './deps.ts'
import { invalidItem, noTokenMatched, tokenIdsNotFound } from './errors.ts'
import { randomId } from './ids.ts'
import { isActiveView, openTokens, viewTokens } from './records.ts'
import { hasCriterion, type Selection, selectTokens } from './selection.ts'

export async function deleteTokens(
  deps: TokensDeps,
  ctx: RequestContext,
  name: string,
  selection: Selection,
  options: Readonly<{ isArchived: boolean; tenantId?: string }>,
) {
  const collection = deps.collections.getCachedOrThrow(name)
  if (!hasCriterion(selection)) {
    if (options.tenantId !== undefined)
      throw invalidItem('The tenant_id needs another criterion.', 'tenant_id')
    throw noTokenMatched()
  }
  deps.iam.checkPolicies(ctx, [
    { operation: 'delete', resources: tokensResource(collection.name, options.isArchived) },
  ])
  const details = touchedDetails(NO_DETAILS, collection)
  await withFailureDetails(details, async () => {
    const views = (
      await selectTokens(
        deps,
        ctx,
        collection.name,
        selection,
        options.isArchived ? 'archived' : 'active',
      )
    ).filter((v) => options.tenantId === undefined || v.owner?.tenantId === options.tenantId)
    if (views.length === 0) throw noTokenMatched()
    await deps.audit.transaction(ctx, details, async (tx) => {
      if (options.isArchived)
        return tx.tokens.delete(
          collection.name,
          views.map((v) => v.row.rowId),
        )
      await tx.tokens.updateMeta(
        views.map((v) => ({
          rowId: v.row.rowId,
          tags: v.row.tags,
          expiresAt: ctx.now,
          modifiedAt: ctx.now,
        })),
      )
    })
  })
}

export async function rotateTokens(
  deps: TokensDeps,
  ctx: RequestContext,
  name: string,
  tokenIds: readonly string[],
) {
  const collection = deps.collections.getCachedOrThrow(name)
  if (tokenIds.length === 0) throw invalidItem('The token_ids parameter is required.', 'token_ids')
  deps.iam.checkPolicies(ctx, [{ operation: 'write', resources: tokensResource(collection.name) }])
  const details = touchedDetails(NO_DETAILS, collection)
  return withFailureDetails(details, async () => {
    const wanted = [...new Set(tokenIds)]
    const views = await selectTokens(deps, ctx, collection.name, { tokenIds: wanted }, 'all')
    const found = new Set(views.map((v) => v.row.tokenId))
    const missing = wanted.filter((id) => !found.has(id))
    if (missing.length > 0) throw tokenIdsNotFound(missing)
    if (views.some((v) => v.row.type === 'deterministic'))
      throw invalidItem('Deterministic tokens cannot be rotated.', 'token_ids')
    const data = openTokens(
      deps.envelope,
      views.map((v) => v.row),
    )
    const rotated: Record<string, string> = {}
    await deps.audit.transaction(ctx, details, async (tx) => {
      for (const id of wanted) {
        const i = views.findIndex((v) => v.row.tokenId === id)
        const row = views[i]?.row
        const card =
          row?.fptemplate && row.fpprops?.[0]
            ? String(ownValue(data[i] ?? {}, row.fpprops[0]) ?? '')
            : undefined
        const template = row?.fptemplate
        // A custom template makes the new ID too, from the token's values (tokens.md §5).
        const fromTemplate = isCustomTemplate(template)
          ? templateIdSource(
              deps,
              ctx,
              { template, collection, field: 'token_ids' },
              data[i] ?? {},
              undefined,
            )
          : undefined
        for (;;) {
          const next = fromTemplate
            ? await fromTemplate()
            : randomId({ template, card: card || undefined })
          if (
            (
              await tx.tokens.claimIds(collection.name, [
                { tokenId: next, type: row?.type ?? 'randomized' },
              ])
            ).size > 0
          )
            continue
          await tx.tokens.rename(collection.name, id, next)
          rotated[id] = next
          break
        }
      }
    })
    return rotated
  })
}

export async function transactionTokens(
  deps: TokensDeps,
  ctx: RequestContext,
  name: string,
  transactionId: string,
) {
  const collection = deps.collections.getCachedOrThrow(name)
  const audit = touchedDetails(NO_DETAILS, collection)
  return withFailureDetails(audit, async () => {
    if (!(await deps.store.tokens.hasTransaction(collection.name, transactionId)))
      throw new VaultError('transactionIdNotFound', {
        context: { transaction_id: transactionId.slice(0, 128) },
      })
    const views = await viewTokens(
      deps.store,
      ctx,
      await deps.store.tokens.byTransaction(collection.name, transactionId),
    )
    const active = views.filter((v) => isActiveView(v, ctx.now)).map((v) => v.row.tokenId)
    return { value: { ref_ids: [...new Set(active)] }, audit }
  })
}

export async function countTokens(deps: TokensDeps, ctx: RequestContext, name: string) {
  const collection = deps.collections.getCachedOrThrow(name)
  deps.iam.checkPolicies(ctx, [
    { operation: 'stats', resources: collectionResource(collection.name) },
  ])
  const audit = touchedDetails(NO_DETAILS, collection)
  return withFailureDetails(audit, async () => {
    const views = await viewTokens(
      deps.store,
      ctx,
      await deps.store.tokens.select({ collection: collection.name }),
    )
    const active = views.filter((v) => isActiveView(v, ctx.now)).length
    const value = { active, archived: views.length - active, total: views.length }
    return { value, audit }
  })
}
