// src/core/objects/like.ts: what a `like` search adds: the collection's n-grams caught up, globs checked on values

import type { StoredCollection } from '../collections/collection.ts'
import { VaultError } from '../errors.ts'
import { ownValue } from '../own.ts'
import type { ObjectsDeps } from './deps.ts'
import type { Verify } from './paging.ts'
import { openRecords } from './records.ts'
import type { LikeCheck } from './search.ts'

/**
 * Keeps rows whose decrypted values match every `like` glob (n-grams only narrow). Each batch
 * first checks the call's signal: a search past its deadline stops decrypting and matching.
 */
export function likeVerifier(
  deps: Pick<ObjectsDeps, 'envelope'>,
  likes: readonly LikeCheck[],
  signal?: AbortSignal,
): Verify {
  const properties = likes.map((l) => l.property)
  return (rows) => {
    signal?.throwIfAborted()
    const opened = openRecords(deps.envelope, rows, properties)
    return rows.filter((_, i) =>
      likes.every((l) => {
        const row = opened[i]
        const value = row === undefined ? undefined : ownValue(row, l.property)
        return typeof value === 'string' && l.pattern.matches(value)
      }),
    )
  }
}

/** A `like` search sees every earlier write: the collection's queue is indexed first, or 503. */
export async function drainSubstring(
  deps: Pick<ObjectsDeps, 'substring' | 'settings'>,
  collection: StoredCollection,
): Promise<void> {
  if (await deps.substring.drain(collection.name, deps.settings.substringDrainLimit)) return
  throw new VaultError('substringIndexNotReady', {
    message: 'The substring index is still being built for recent writes; retry shortly.',
    context: { collection: collection.name },
  })
}
