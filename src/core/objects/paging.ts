// src/core/objects/paging.ts: keyset pages in creation order, remaining counts and query-bound cursors
import type {
  ObjectFilter,
  ObjectRecord,
  ObjectsRepo,
  PagePosition,
  SearchCondition,
} from '../objects-store.ts'
import { decodeCursor, encodeCursor } from './cursor.ts'
import { invalidRequest } from './errors.ts'

export type PageSettings = Readonly<{
  defaultPageSize: number
  maxPageSize: number
  /** SVC_SERVICE_MAX_PAGINATION_REMAINING_COUNT. */
  maxRemainingCount: number
}>

export type PageRequest = Readonly<{
  pageSize: number
  position: PagePosition | undefined
  fingerprint: string
}>

export type Page = Readonly<{ records: ObjectRecord[]; remaining: number; cursor: string }>

/** Keeps the rows a glob check accepts (substring search verifies n-gram candidates). */
export type Verify = (records: readonly ObjectRecord[]) => ObjectRecord[]

/** Candidates up to this many are all verified, so paging and counts are exact. */
const VERIFY_ALL_LIMIT = 10_000
const SCAN_BATCH = 1000

/** `page_size`: default when absent; 1 … SVC_SERVICE_MAX_PAGE_SIZE, else 400 ERR1012. */
export function pageSizeOf(raw: string | undefined, settings: PageSettings): number {
  if (raw === undefined) return settings.defaultPageSize
  const size = Number(raw.trim())
  if (!Number.isInteger(size) || size < 1 || size > settings.maxPageSize)
    throw invalidRequest(
      `The page_size must be between 1 and ${settings.maxPageSize}.`,
      'page_size',
    )
  return size
}

/** The position a cursor names (an empty cursor is the first page). */
export function pageRequest(
  raw: { pageSize?: string; cursor?: string },
  settings: PageSettings,
  fingerprint: string,
): PageRequest {
  const pageSize = pageSizeOf(raw.pageSize, settings)
  const cursor = raw.cursor?.trim() ?? ''
  const position = cursor === '' ? undefined : decodeCursor(cursor, fingerprint)
  return { pageSize, position, fingerprint }
}

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

async function scan(query: PageQuery, after: PagePosition | undefined, limit: number) {
  return query.repo.search(query.filter, query.conditions, after, limit)
}

const isAfter = (r: ObjectRecord, p: PagePosition | undefined) =>
  p === undefined || r.createdAt > p.createdAt || (r.createdAt === p.createdAt && r.id > p.id)

/**
 * A page of rows that pass `verify`. Up to 10,000 candidates are all verified, so counts are
 * exact; past that, rows are verified page by page and `remaining_count` counts candidates (an
 * upper bound).
 */
export async function readVerifiedPage(
  query: PageQuery,
  request: PageRequest,
  verify: Verify,
): Promise<Page> {
  // One read of every candidate (the index conditions are resolved once) when there are few.
  const candidates = await scan(query, undefined, VERIFY_ALL_LIMIT + 1)
  if (candidates.length <= VERIFY_ALL_LIMIT) {
    const rest = verify(candidates).filter((r) => isAfter(r, request.position))
    const records = rest.slice(0, request.pageSize)
    const remaining = Math.min(rest.length - records.length, query.maxRemainingCount)
    return finish(records, remaining, request)
  }
  return scanVerified(query, request, verify)
}

async function scanVerified(query: PageQuery, request: PageRequest, verify: Verify) {
  const records: ObjectRecord[] = []
  let after = request.position
  for (;;) {
    const batch = await scan(query, after, SCAN_BATCH)
    records.push(...verify(batch).slice(0, request.pageSize - records.length))
    const lastKept = records.at(-1)
    if (records.length === request.pageSize && lastKept !== undefined) {
      const { filter, conditions, maxRemainingCount } = query
      const position = positionOf(lastKept)
      const remaining = await query.repo.countAfter(filter, conditions, position, maxRemainingCount)
      return finish(records, remaining, request)
    }
    const last = batch.at(-1)
    if (batch.length < SCAN_BATCH || last === undefined) return finish(records, 0, request)
    after = positionOf(last)
  }
}
