// src/core/objects/paging.ts: keyset pages of objects in creation order, remaining counts and query-bound cursors
import { encodeCursor, type PagePosition } from '../paging/cursor.ts'
import type { PageRequest } from '../paging/pages.ts'
import { splitScan, type ValueChecks } from './scan.ts'
import type { ObjectFilter, ObjectRecord, ObjectsRepo, SearchCondition } from './store.ts'

export type Page = Readonly<{ records: ObjectRecord[]; remaining: number; cursor: string }>

/** Keeps the rows a glob check accepts (substring search verifies n-gram candidates). */
export type Verify = (records: readonly ObjectRecord[]) => ObjectRecord[]

/** Up to this many candidates are all verified, so paging and counts are exact. */
const VERIFY_ALL_LIMIT = 500
/** Candidates whose positions one search reads; past it, `remaining_count` is counted in SQL. */
const KEYS_LIMIT = 10_000

const positionOf = (r: ObjectRecord): PagePosition => ({ createdAt: r.createdAt, id: r.id })

function finish(records: ObjectRecord[], remaining: number, request: PageRequest): Page {
  const last = records.at(-1)
  const cursor =
    remaining > 0 && last !== undefined ? encodeCursor(positionOf(last), request.fingerprint) : ''
  return { records, remaining, cursor }
}

export type PageQuery = Readonly<{
  repo: ObjectsRepo
  filter: ObjectFilter
  conditions: readonly SearchCondition[]
  maxRemainingCount: number
}>

/** One page, and how many rows follow it (capped). */
export async function readPage(query: PageQuery, request: PageRequest): Promise<Page> {
  const { repo, filter, conditions } = query
  const records = await repo.search(filter, conditions, request.position, request.pageSize)
  const last = records.at(-1)
  const remaining =
    records.length < request.pageSize || last === undefined
      ? 0
      : await repo.countAfter(filter, conditions, positionOf(last), query.maxRemainingCount)
  return finish(records, remaining, request)
}

/** The rows at these positions, in that order (read by key, one query per slice). */
async function rowsAt(query: PageQuery, keys: readonly PagePosition[]): Promise<ObjectRecord[]> {
  const rows = await query.repo.get(
    query.filter.collection,
    keys.map((key) => key.id),
  )
  const byId = new Map(rows.map((row) => [row.id, row]))
  return keys.flatMap((key) => {
    const row = byId.get(key.id)
    return row === undefined ? [] : [row]
  })
}

/**
 * A page of rows that pass `verify` (substring search: n-grams only narrow the candidates). The
 * candidates' positions are read once; up to VERIFY_ALL_LIMIT candidates are all verified, so
 * counts are exact. Past that, rows are verified a slice at a time until the page is full (a few
 * hundred decryptions instead of thousands), and `remaining_count` counts the candidates after
 * the page: an upper bound, exact unless an n-gram false positive hides among them.
 */
export async function readVerifiedPage(
  query: PageQuery,
  request: PageRequest,
  verify: Verify,
): Promise<Page> {
  const { repo, filter, conditions, maxRemainingCount } = query
  const keys = await repo.searchKeys(filter, conditions, request.position, KEYS_LIMIT + 1)
  if (keys.length <= VERIFY_ALL_LIMIT) {
    const kept = verify(await rowsAt(query, keys))
    const records = kept.slice(0, request.pageSize)
    return finish(records, Math.min(kept.length - records.length, maxRemainingCount), request)
  }
  const records: ObjectRecord[] = []
  let next = 0
  const step = request.pageSize + 50
  while (records.length < request.pageSize && next < keys.length) {
    const slice = keys.slice(next, next + step)
    next += slice.length
    records.push(...verify(await rowsAt(query, slice)).slice(0, request.pageSize - records.length))
  }
  const last = records.at(-1)
  if (last === undefined || records.length < request.pageSize) return finish(records, 0, request)
  const after = keys.findIndex((key) => key.id === last.id) + 1
  const remaining =
    keys.length <= KEYS_LIMIT
      ? keys.length - after
      : await repo.countAfter(filter, conditions, positionOf(last), maxRemainingCount)
  return finish(records, Math.min(remaining, maxRemainingCount), request)
}

/**
 * Rows a scanned search reads and checks at a time (data-model §5.2): the most it holds in
 * memory besides the page it fills. Between batches it yields to the event loop.
 */
export const SCAN_BATCH = 500

const nextTurn = () => new Promise((resolve) => setImmediate(resolve))

/**
 * A page of a scanned search: the rows matching the store conditions (indexed ones narrow them
 * first) are read in creation order a batch at a time, with only the checked properties' sealed
 * values, and kept when their decrypted values pass. Past a full page the scan goes on only to
 * count what follows, up to the remaining-count cap, so `remaining_count` is exact. The page's
 * rows are then read whole. The scan stops with the call's time (`signal`: 503 ERR1009).
 */
export async function readScannedPage(
  query: PageQuery,
  request: PageRequest,
  checks: ValueChecks,
  signal: AbortSignal,
): Promise<Page> {
  const { repo, filter, maxRemainingCount } = query
  const { inSql, passes } = splitScan(query.conditions)
  const kept: PagePosition[] = []
  let remaining = 0
  let position = request.position
  for (;;) {
    signal.throwIfAborted()
    const batch = await repo.scan(filter, inSql, position, SCAN_BATCH, checks.properties)
    signal.throwIfAborted()
    const candidates = batch.filter(passes)
    const passed = checks.check(
      candidates.map((row) => ({ ...row, collection: filter.collection })),
    )
    for (const [i, row] of candidates.entries()) {
      if (!passed[i]) continue
      if (kept.length < request.pageSize) kept.push({ createdAt: row.createdAt, id: row.id })
      else remaining++
    }
    const last = batch.at(-1)
    if (last === undefined || batch.length < SCAN_BATCH || remaining >= maxRemainingCount) break
    position = { createdAt: last.createdAt, id: last.id }
    await nextTurn()
  }
  return finish(await rowsAt(query, kept), Math.min(remaining, maxRemainingCount), request)
}
