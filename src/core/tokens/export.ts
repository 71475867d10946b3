// src/core/tokens/export.ts: export tokens (endpoints §4.9): pages of token data sealed with the export key
import type { TokenData } from '../../contract/tokens.ts'
import { propertyChecks } from '../access/checks.ts'
import { type Audited, NO_DETAILS, touchedDetails, withFailureDetails } from '../audit/details.ts'
import type { RequestContext } from '../context.ts'
import { notInMemoryMode } from '../errors.ts'
import { decodeCursor, encodeCursor, queryFingerprint } from '../paging/cursor.ts'
import { pageSizeOf } from '../paging/pages.ts'
import { formatNano, formatSeconds } from '../time.ts'
import { exportValues } from '../values/export.ts'
import type { TokensDeps } from './deps.ts'
import { invalidItem } from './errors.ts'
import { isActiveView, openTokens, type TokenView, viewTokens } from './records.ts'
import type { TokenType } from './store.ts'

export type ExportOptions = Readonly<{
  pageSize: string | undefined
  cursor: string | undefined
  tokenTypes: readonly TokenType[] | undefined
}>

export type TokenDataPage = {
  results: TokenData[]
  paging: { size: number; remaining_count: number; cursor: string }
}

const EXPORTABLE: readonly TokenType[] = ['randomized', 'pointer', 'pci', 'deterministic']

function typesOf(requested: readonly TokenType[] | undefined): readonly TokenType[] {
  if (requested === undefined || requested.length === 0) return EXPORTABLE
  if (requested.includes('pci_oneway'))
    throw invalidItem('Tokens of type pci_oneway cannot be exported.', 'token_types')
  return [...new Set(requested)]
}

/** The position after which the page starts: a row id, bound to the request's types. */
function afterOf(cursor: string | undefined, fingerprint: string): string | undefined {
  const raw = cursor?.trim() ?? ''
  return raw === '' ? undefined : decodeCursor(raw, fingerprint).id
}

function dataOf(view: TokenView, fields: Record<string, unknown> | undefined): TokenData {
  const { row } = view
  return {
    token_id: row.tokenId,
    token_type: row.type,
    props: [...row.props],
    ...(fields === undefined ? {} : { fields }),
    ...(row.objectId === undefined ? {} : { object_id: row.objectId }),
    scope: row.scope,
    tags: [...row.tags],
    ...(row.expiresAt === undefined
      ? {}
      : { expiration: { expiration_time: formatSeconds(row.expiresAt) } }),
    created_at: formatNano(row.createdAt),
    modified_at: formatNano(row.modifiedAt),
    ...(row.fptemplate === undefined ? {} : { fptemplate: row.fptemplate }),
  }
}

/** Active tokens of the wanted types in row order, a page at a time (refused in in-memory mode). */
export async function exportTokens(
  deps: TokensDeps,
  ctx: RequestContext,
  name: string,
  options: ExportOptions,
): Promise<Audited<TokenDataPage>> {
  if (deps.store.isMemory) throw notInMemoryMode('Exporting tokens')
  const collection = deps.collections.getCachedOrThrow(name)
  const types = typesOf(options.tokenTypes)
  const size = pageSizeOf(options.pageSize, deps.settings.page)
  const fingerprint = queryFingerprint(['export-tokens', collection.name, [...types].sort()])
  const views: TokenView[] = []
  // Rows of other types and expired ones are skipped, so read until the page is full.
  const after = afterOf(options.cursor, fingerprint)
  for await (const view of exportable(deps, ctx, collection.name, types, after, size)) {
    views.push(view)
    if (views.length >= size) break
  }
  const last = views.at(-1)
  const names = views.flatMap((v) => v.row.props)
  deps.iam.checkPolicies(ctx, propertyChecks(collection, names, 'detokenize'))
  const audit = touchedDetails(NO_DETAILS, collection, names)
  return withFailureDetails(audit, async () => {
    const withData = views.filter((v) => v.row.type !== 'pointer')
    const sealed = await exportValues(
      deps.exportKeys,
      openTokens(
        deps.envelope,
        withData.map((v) => v.row),
      ),
    )
    const byRow = new Map(withData.map((v, i) => [v.row.rowId, sealed[i]]))
    const results = views.map((v) => dataOf(v, byRow.get(v.row.rowId)))
    // Counted at least to 1, so a cap of 0 still leaves a cursor when there is more.
    const cap = deps.settings.page.maxRemainingCount
    const left =
      views.length === size && last !== undefined
        ? await countActive(deps, ctx, collection.name, types, last.row.rowId, Math.max(cap, 1))
        : 0
    const cursor =
      left > 0 && last !== undefined
        ? encodeCursor({ createdAt: 0, id: last.row.rowId }, fingerprint)
        : ''
    const paging = { size: results.length, remaining_count: Math.min(left, cap), cursor }
    return { value: { results, paging }, audit }
  })
}

/** Rows read per step when counting what is left after a page. */
const COUNT_STEP = 1000

/**
 * The exportable tokens after `after` (wanted types, not expired), reading `step` rows at a time:
 * a token's expiry may come from its owner object, so they are chosen on their views.
 */
async function* exportable(
  deps: TokensDeps,
  ctx: RequestContext,
  collection: string,
  types: readonly string[],
  after: string | undefined,
  step: number,
): AsyncGenerator<TokenView> {
  let from = after
  for (;;) {
    const rows = await deps.store.tokens.page(collection, from, step)
    from = rows.at(-1)?.rowId ?? from
    const wanted = rows.filter((r) => types.includes(r.type))
    for (const view of await viewTokens(deps.store, ctx, wanted))
      if (isActiveView(view, ctx.now)) yield view
    if (rows.length < step) return
  }
}

/** The exportable tokens after `after`, counted up to `limit`. */
async function countActive(
  deps: TokensDeps,
  ctx: RequestContext,
  collection: string,
  types: readonly string[],
  after: string,
  limit: number,
): Promise<number> {
  let count = 0
  for await (const _view of exportable(deps, ctx, collection, types, after, COUNT_STEP))
    if (++count >= limit) break
  return count
}
