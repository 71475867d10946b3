// src/core/objects/reencryption.ts: the objects re-encryption source: sealed property values moved to the newest key
import { DecryptionError, type Envelope } from '../crypto/envelope.ts'
import type { ReencryptionSource } from '../keys/rotation.ts'
import type { StepResult } from '../keys/rotation-state.ts'
import type { Store } from '../store.ts'
import type { Micros } from '../time.ts'
import { openObjects, type SealedMap, sealObjects } from '../values/sealing.ts'
import type { ObjectRecord } from './store.ts'

/** A position: a collection, and the last row done in it (keyset order: creation time, id). */
type Cursor = Readonly<{ c: string; t?: number; i?: string }>

function parseCursor(position: string | undefined): Cursor | undefined {
  if (position === undefined) return undefined
  const cursor = JSON.parse(position) as Cursor
  return typeof cursor.c === 'string' ? cursor : undefined
}

const sealedOf = (row: ObjectRecord): SealedMap => JSON.parse(row.sealed) as SealedMap

function isStale(envelope: Envelope, row: ObjectRecord, target: number): boolean {
  return Object.values(sealedOf(row)).some(
    (value) => (envelope.keyVersionOf(Buffer.from(value, 'base64')) ?? 0) < target,
  )
}

/** Opens rows in one batch; if stored data fails authentication, row by row to skip only it. */
function openRows(envelope: Envelope, rows: readonly ObjectRecord[]) {
  const sealed = (row: ObjectRecord) => ({
    collection: row.collection,
    objectId: row.id,
    sealed: sealedOf(row),
  })
  try {
    return openObjects(envelope, rows.map(sealed))
  } catch (error) {
    if (!(error instanceof DecryptionError)) throw error
    return rows.map((row) => {
      try {
        return openObjects(envelope, [sealed(row)])[0]
      } catch {
        return undefined
      }
    })
  }
}

/**
 * Re-seals the values of stale rows and writes them back in one short transaction. A row keeps
 * its version and modification time (its values did not change), so a concurrent write that read
 * it before still succeeds; if that write landed first, `replace` reports a conflict instead.
 */
async function reencrypt(store: Store, envelope: Envelope, rows: readonly ObjectRecord[]) {
  const opened = openRows(envelope, rows)
  const good = rows.flatMap((row, i) =>
    opened[i] === undefined ? [] : [{ row, values: opened[i] }],
  )
  const sealed = sealObjects(
    envelope,
    good.map(({ row, values }) => ({ collection: row.collection, objectId: row.id, values })),
  )
  // In the order of the objects' IDs, as bulk updates write them: the two wait for each other
  // instead of deadlocking (the walk reads rows by creation time).
  const byId = good
    .map(({ row }, i) => ({ row, sealed: sealed[i] }))
    .sort((a, b) => (a.row.id < b.row.id ? -1 : 1))
  const replaced = await store.transaction(async (tx) => {
    let count = 0
    for (const { row, sealed: values } of byId) {
      if (await tx.objects.replace({ ...row, sealed: JSON.stringify(values) }, row.version)) count++
    }
    return count
  })
  return {
    reencrypted: replaced,
    conflicts: good.length - replaced,
    failures: rows.length - good.length,
  }
}

export function createObjectsReencryption(deps: {
  readonly store: Store
  readonly envelope: Envelope
}): ReencryptionSource {
  const { store, envelope } = deps

  async function collectionAt(cursor: Cursor | undefined): Promise<string | undefined> {
    const names = (await store.collections.list()).map((c) => c.name).sort()
    if (cursor === undefined) return names[0]
    return (
      names.find((name) => (cursor.t === undefined ? name >= cursor.c : name === cursor.c)) ??
      names.find((name) => name > cursor.c)
    )
  }

  async function step(input: {
    position: string | undefined
    limit: number
    target: number
    now: Micros
  }): Promise<StepResult> {
    const cursor = parseCursor(input.position)
    const collection = await collectionAt(cursor)
    const empty = { scanned: 0, reencrypted: 0, conflicts: 0, failures: 0 }
    if (collection === undefined) return { next: undefined, ...empty }
    const after =
      cursor?.c === collection && cursor.t !== undefined
        ? { createdAt: cursor.t, id: cursor.i ?? '' }
        : undefined
    const filter = { collection, state: 'all' as const, now: input.now }
    const rows = await store.objects.search(filter, [], after, input.limit)
    const last = rows.at(-1)
    if (last === undefined) return { next: JSON.stringify({ c: `${collection}\u0000` }), ...empty }
    const stale = rows.filter((row) => isStale(envelope, row, input.target))
    const done = stale.length > 0 ? await reencrypt(store, envelope, stale) : empty
    return {
      ...done,
      next: JSON.stringify({ c: collection, t: last.createdAt, i: last.id }),
      scanned: rows.length,
    }
  }

  return { name: 'objects', purpose: 'property', step }
}
