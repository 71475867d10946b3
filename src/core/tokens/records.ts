// src/core/tokens/records.ts: sealing token data, owners, effective expiry and tenant of stored tokens
import type { RequestContext } from '../context.ts'
import type { Envelope } from '../crypto/envelope.ts'
import type { ObjectRecord } from '../objects/store.ts'
import type { Store } from '../store.ts'
import type { Micros } from '../time.ts'
import type { TokenRecord } from './store.ts'

type Values = Record<string, unknown>

/** Token data is sealed under the `token` purpose, bound to its collection and row (ADR 0009). */
export const tokenBinding = (collection: string, rowId: string) => ['token', collection, rowId]

export function sealTokens(
  envelope: Envelope,
  items: readonly Readonly<{ collection: string; rowId: string; values: Values }>[],
): Buffer[] {
  return envelope.sealAll(
    'token',
    items.map((i) => ({
      plaintext: Buffer.from(JSON.stringify(i.values), 'utf8'),
      binding: tokenBinding(i.collection, i.rowId),
    })),
  )
}

/** Opens the data of the rows that have some, in one batch; others get `{}`. */
export function openTokens(envelope: Envelope, rows: readonly TokenRecord[]): Values[] {
  const sealed = rows.filter((r) => r.sealed !== undefined)
  const plain = envelope.openAll(
    'token',
    sealed.map((r) => ({
      sealed: r.sealed as Uint8Array,
      binding: tokenBinding(r.collection, r.rowId),
    })),
  )
  const byRow = new Map(
    sealed.map((r, i) => [r.rowId, JSON.parse(plain[i]?.toString('utf8') ?? '{}')]),
  )
  return rows.map((r) => byRow.get(r.rowId) ?? {})
}

/** A token with its owner: effective expiry and tenant come from both. */
export type TokenView = Readonly<{
  row: TokenRecord
  owner: ObjectRecord | undefined
  effectiveExpiresAt: Micros | undefined
  tenantId: string | undefined
}>

export function earlier(a: Micros | undefined, b: Micros | undefined): Micros | undefined {
  if (a === undefined) return b
  if (b === undefined) return a
  return Math.min(a, b)
}

/** Joins rows with their owning objects (one read); a pointer token without owner expires now. */
export async function viewTokens(
  store: Store,
  ctx: RequestContext,
  rows: readonly TokenRecord[],
): Promise<TokenView[]> {
  const collection = rows[0]?.collection
  const ids = [...new Set(rows.flatMap((r) => (r.objectId ? [r.objectId] : [])))]
  const owners =
    collection === undefined || ids.length === 0 ? [] : await store.objects.get(collection, ids)
  const byId = new Map(owners.map((o) => [o.id, o]))
  return rows.map((row) => {
    const owner = row.objectId === undefined ? undefined : byId.get(row.objectId)
    const lost = row.objectId !== undefined && owner === undefined ? ctx.now : undefined
    const effectiveExpiresAt = earlier(earlier(row.expiresAt, owner?.expiresAt), lost)
    return { row, owner, effectiveExpiresAt, tenantId: owner?.tenantId ?? row.tenantId }
  })
}

export const isActiveView = (view: TokenView, now: Micros) =>
  view.effectiveExpiresAt === undefined || view.effectiveExpiresAt > now
