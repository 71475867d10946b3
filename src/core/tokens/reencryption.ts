// src/core/tokens/reencryption.ts: the tokens re-encryption source: sealed token data moved to the newest key
import { DecryptionError, type Envelope } from '../crypto/envelope.ts'
import type { ReencryptionSource } from '../keys/rotation.ts'
import type { StepResult } from '../keys/rotation-state.ts'
import type { Store } from '../store.ts'
import { openTokens, sealTokens } from './records.ts'
import type { TokenRecord } from './store.ts'

type Values = Record<string, unknown>

const isStale = (envelope: Envelope, row: TokenRecord, target: number) =>
  row.sealed !== undefined && (envelope.keyVersionOf(row.sealed) ?? 0) < target

/** Opens rows in one batch; if stored data fails authentication, row by row to skip only it. */
function openRows(envelope: Envelope, rows: readonly TokenRecord[]): (Values | undefined)[] {
  try {
    return openTokens(envelope, rows)
  } catch (error) {
    if (!(error instanceof DecryptionError)) throw error
    return rows.map((row) => {
      try {
        return openTokens(envelope, [row])[0]
      } catch {
        return undefined
      }
    })
  }
}

/**
 * Re-seals stale rows and swaps each only if its data is unchanged, so a concurrent update of
 * token data wins and the row is retried in the next pass. Modification times stay: the values
 * did not change.
 */
async function reencrypt(store: Store, envelope: Envelope, rows: readonly TokenRecord[]) {
  const opened = openRows(envelope, rows)
  const good = rows.flatMap((row, i) => {
    const values = opened[i]
    return values === undefined ? [] : [{ row, values }]
  })
  const sealed = sealTokens(
    envelope,
    good.map(({ row, values }) => ({ collection: row.collection, rowId: row.rowId, values })),
  )
  const replaced = await store.transaction(async (tx) => {
    let count = 0
    for (const [i, { row }] of good.entries())
      if (await tx.tokens.replaceSealed(row.rowId, row.sealed as Uint8Array, sealed[i] as Buffer))
        count++
    return count
  })
  return {
    reencrypted: replaced,
    conflicts: good.length - replaced,
    failures: rows.length - good.length,
  }
}

export function createTokensReencryption(deps: {
  readonly store: Store
  readonly envelope: Envelope
}): ReencryptionSource {
  const { store, envelope } = deps

  async function step(input: {
    position: string | undefined
    limit: number
    target: number
  }): Promise<StepResult> {
    // The position is the last row id done; rows of every collection, in row-id order.
    const rows = await store.tokens.page(undefined, input.position, input.limit)
    const last = rows.at(-1)
    const empty = { scanned: 0, reencrypted: 0, conflicts: 0, failures: 0 }
    if (last === undefined) return { next: undefined, ...empty }
    const stale = rows.filter((row) => isStale(envelope, row, input.target))
    const done = stale.length > 0 ? await reencrypt(store, envelope, stale) : empty
    return { ...done, next: last.rowId, scanned: rows.length }
  }

  return { name: 'tokens', purpose: 'token', step }
}
