// src/core/paging/pages.ts: page sizes and the position a cursor names, shared by every paged list
import { invalidRequest } from '../errors.ts'
import { decodeCursor, type PagePosition } from './cursor.ts'

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
