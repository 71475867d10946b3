// src/core/tokens/selection.ts: selecting tokens by token_ids, object_ids and tags (tokens.md §7)
import type { RequestContext } from '../context.ts'
import { assertTenantAllowed, filterByTenant } from '../iam/tenants.ts'
import type { TokensDeps } from './deps.ts'
import { isActiveView, type TokenView, viewTokens } from './records.ts'

export type Selection = Readonly<{
  tokenIds?: readonly string[]
  objectIds?: readonly string[]
  tags?: readonly string[]
}>

export type SelectState = 'active' | 'archived' | 'all'

const given = (list: readonly string[] | undefined) =>
  list !== undefined && list.length > 0 ? list : undefined

export const hasCriterion = (s: Selection) =>
  given(s.tokenIds) !== undefined || given(s.objectIds) !== undefined || given(s.tags) !== undefined

/**
 * The matching tokens of the call's tenants in the wanted state; listed objects must exist. Tokens
 * named in `tokenIds` outside the call's tenants fail it with 403 ERR1006.
 */
export async function selectTokens(
  deps: TokensDeps,
  ctx: RequestContext,
  collection: string,
  selection: Selection,
  state: SelectState,
): Promise<TokenView[]> {
  const objectIds = given(selection.objectIds)?.map((id) => id.toLowerCase())
  if (objectIds !== undefined) {
    // Every listed object must exist (active or archived): 404 ERR3005 names the missing ones.
    await deps.reader.requireExisting(collection, objectIds)
  }
  const rows = await deps.store.tokens.select({
    collection,
    tokenIds: given(selection.tokenIds),
    objectIds,
    tags: given(selection.tags),
  })
  const views = await viewTokens(deps.store, ctx, rows)
  const inState = views.filter((v) =>
    state === 'all' ? true : isActiveView(v, ctx.now) === (state === 'active'),
  )
  // Tokens named by ID are touched, not searched: one of another tenant fails the call (iam.md §10).
  if (given(selection.tokenIds) !== undefined)
    for (const view of inState) assertTenantAllowed(ctx, view.tenantId)
  return filterByTenant(ctx, inState, (v) => v.tenantId)
}
