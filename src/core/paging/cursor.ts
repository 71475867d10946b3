// src/core/paging/cursor.ts: opaque paging cursors, bound to the query that produced them
import { sha256 } from '../crypto/hash.ts'
import { VaultError } from '../errors.ts'
import type { Micros } from '../time.ts'

/** Keyset position in creation order (ties by id). */
export type PagePosition = Readonly<{ createdAt: Micros; id: string }>

/**
 * A fingerprint of everything that shapes a result list (collection, state, query, props…): a
 * cursor only continues the query it came from.
 */
export function queryFingerprint(parts: unknown): string {
  return Buffer.from(sha256(JSON.stringify(parts)))
    .toString('base64url')
    .slice(0, 16)
}

export function encodeCursor(position: PagePosition, fingerprint: string): string {
  return Buffer.from(
    JSON.stringify({ t: position.createdAt, i: position.id, q: fingerprint }),
  ).toString('base64url')
}

function invalidCursor(message: string): VaultError {
  return new VaultError('invalidRequest', { message, context: { field: 'cursor' } })
}

/** The position a cursor names; 400 ERR1012 when it is malformed or belongs to another query. */
export function decodeCursor(cursor: string, fingerprint: string): PagePosition {
  let parsed: unknown
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
  } catch {
    throw invalidCursor('The cursor is malformed.')
  }
  const { t, i, q } = (parsed ?? {}) as { t?: unknown; i?: unknown; q?: unknown }
  if (
    typeof t !== 'number' ||
    !Number.isSafeInteger(t) ||
    typeof i !== 'string' ||
    !/^[0-9a-f-]{36}$/.test(i) ||
    typeof q !== 'string'
  ) {
    throw invalidCursor('The cursor is malformed.')
  }
  if (q !== fingerprint)
    throw invalidCursor('The cursor belongs to a request with other parameters.')
  return { createdAt: t, id: i }
}
