// src/core/objects/uniqueness.ts: claiming unique values among active objects, race-free through a unique key
import type { Repos } from '../store.ts'
import type { Micros } from '../time.ts'
import { isActive } from './records.ts'
import type { IndexEntry } from './store.ts'

const slot = (entry: IndexEntry) =>
  `${entry.property}\u0000${Buffer.from(entry.digest).toString('base64')}`

/** Claims an object already holds are not conflicts (a restored object re-claims its own values). */
function foreignHolders(entries: readonly IndexEntry[], holders: readonly IndexEntry[]) {
  if (holders.length === 0) return []
  const claimant = new Map(entries.map((e) => [slot(e), e.objectId]))
  return holders.filter((h) => claimant.get(slot(h)) !== h.objectId)
}

/**
 * Claims `entries` inside the write transaction. The claim table's unique key decides races
 * (never check-then-insert). A value held by an archived object (expired or deleted) is a stale
 * claim: it is released and claimed again. Returns the entries still held by active objects.
 */
export async function claimUnique(
  tx: Repos,
  entries: readonly IndexEntry[],
  now: Micros,
): Promise<IndexEntry[]> {
  if (entries.length === 0) return []
  const holders = foreignHolders(entries, await tx.searchIndex.claimUnique(entries))
  if (holders.length === 0) return []
  const collection = holders[0]?.collection as string
  const rows = await tx.objects.get(collection, [...new Set(holders.map((h) => h.objectId))])
  const live = new Set(rows.filter((row) => isActive(row, now)).map((row) => row.id))
  const stale = holders.filter((h) => !live.has(h.objectId))
  const taken = new Set(holders.filter((h) => live.has(h.objectId)).map(slot))
  if (stale.length > 0) {
    await tx.searchIndex.releaseUnique(stale)
    const staleSlots = new Set(stale.map(slot))
    const retry = entries.filter((e) => staleSlots.has(slot(e)))
    const again = foreignHolders(retry, await tx.searchIndex.claimUnique(retry))
    for (const holder of again) taken.add(slot(holder))
  }
  return entries.filter((e) => taken.has(slot(e)))
}
