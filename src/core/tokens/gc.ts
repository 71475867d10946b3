// src/core/tokens/gc.ts: garbage-collection collectors of archived tokens and unused transaction IDs
import type { Store } from '../store.ts'
import type { Collector, DeletionCount } from '../system/gc.ts'

function counted(names: readonly string[], type: 'TOKENS' | 'TRANSACTION_IDS'): DeletionCount[] {
  return [...Map.groupBy(names, (n) => n)].map(([name, items]) => ({
    collectionName: name,
    collectionType: type,
    count: items.length,
  }))
}

export function createTokensCollector(store: Store): Collector {
  return {
    kind: 'tokens',
    async collect(round) {
      const rows = await store.tokens.expired(round.before, round.limit)
      if (!round.isDryRun)
        await store.transaction(async (tx) => {
          for (const [name, items] of Map.groupBy(rows, (r) => r.collection))
            await tx.tokens.delete(
              name,
              items.map((r) => r.rowId),
            )
        })
      return counted(
        rows.map((r) => r.collection),
        'TOKENS',
      )
    },
  }
}

export function createTransactionIdsCollector(store: Store): Collector {
  return {
    kind: 'transaction_ids',
    async collect(round) {
      const entries = await store.tokens.orphanTransactions(round.limit)
      if (!round.isDryRun) await store.tokens.deleteTransactions(entries)
      return counted(
        entries.map((e) => e.collection),
        'TRANSACTION_IDS',
      )
    },
  }
}
