// src/core/tokens/metadata.ts: token groups (one per token ID) as search and detokenize show them (tokens.md §10)
import { formatSeconds, type Micros } from '../time.ts'
import type { TokenView } from './records.ts'
import type { TokenType } from './store.ts'

const time = (micros: Micros | undefined) => (micros === undefined ? null : formatSeconds(micros))

export type TokenGroup = {
  type: TokenType
  scope: string
  token_id: string
  agg?: { max_effective_expiration_time: string | null }
  tokens: {
    creation_time: string
    expiration_time: string | null
    effective_expiration_time: string | null
    object_id?: string
    effective_tenant_id?: string
    tags: string[]
  }[]
}

function maxExpiry(views: readonly TokenView[]): Micros | undefined {
  if (views.some((v) => v.effectiveExpiresAt === undefined)) return undefined
  return Math.max(...views.map((v) => v.effectiveExpiresAt as Micros))
}

/** Groups views by token ID in first-seen order; each entry shows the union of the group's tags. */
export function groupTokens(views: readonly TokenView[], withAggregate: boolean): TokenGroup[] {
  const groups = Map.groupBy(views, (v) => v.row.tokenId)
  return [...groups].map(([tokenId, members]) => {
    const first = members[0] as TokenView
    const tags = [...new Set(members.flatMap((m) => m.row.tags))]
    const group: TokenGroup = {
      type: first.row.type,
      scope: first.row.scope,
      token_id: tokenId,
      tokens: members.map((m) => ({
        creation_time: formatSeconds(m.row.createdAt),
        expiration_time: time(m.row.expiresAt),
        effective_expiration_time: time(m.effectiveExpiresAt),
        ...(m.row.objectId ? { object_id: m.row.objectId } : {}),
        ...(m.tenantId ? { effective_tenant_id: m.tenantId } : {}),
        tags,
      })),
    }
    if (withAggregate) group.agg = { max_effective_expiration_time: time(maxExpiry(members)) }
    return group
  })
}
