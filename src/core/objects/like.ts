// src/core/objects/like.ts: what a `like` search adds: the collection's n-grams caught up first
import type { StoredCollection } from '../collections/collection.ts'
import { VaultError } from '../errors.ts'
import type { ObjectsDeps } from './deps.ts'

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
