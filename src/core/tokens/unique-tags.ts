// src/core/tokens/unique-tags.ts: `ensure_unique_tenant_tags`: a tag used once per tenant in a collection
import type { RequestContext } from '../context.ts'
import type { TokensDeps } from './deps.ts'
import { tenantTagUsed } from './errors.ts'
import { isActiveView, viewTokens } from './records.ts'

export type UniqueTagsCheck = Readonly<{
  tags: readonly string[]
  tenantId: string | undefined
  /** Tokens of this ID do not count (update of that very token). */
  exceptTokenId: string | undefined
}>

/** 409 ERR9004 when another active token of the same tenant already carries a unique tag. */
export async function checkUniqueTags(
  deps: TokensDeps,
  ctx: RequestContext,
  collection: string,
  checks: readonly UniqueTagsCheck[],
): Promise<void> {
  for (const check of checks) {
    for (const tag of check.tags) {
      const rows = await deps.store.tokens.withTag(collection, tag)
      const views = (await viewTokens(deps.store, ctx, rows)).filter((v) =>
        isActiveView(v, ctx.now),
      )
      if (views.some((v) => v.tenantId === check.tenantId && v.row.tokenId !== check.exceptTokenId))
        throw tenantTagUsed(tag)
    }
  }
}
