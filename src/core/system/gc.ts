// src/core/system/gc.ts: garbage collection of archived data past the retention period, as a list of collectors
import type { RequestContext } from '../context.ts'
import { notInMemoryMode } from '../errors.ts'
import type { Store } from '../store.ts'
import type { Clock, Micros } from '../time.ts'

export type CollectedKind = 'objects' | 'tokens' | 'transaction_ids'
export type CollectionType = 'DATA' | 'PERSONS' | 'TOKENS' | 'TRANSACTION_IDS'

export type DeletionCount = Readonly<{
  collectionName: string
  collectionType: CollectionType
  count: number
}>

export type CollectRound = Readonly<{ before: Micros; limit: number; isDryRun: boolean }>

/** One kind of archived data; the objects and tokens capabilities provide their collectors. */
export type Collector = Readonly<{
  kind: CollectedKind
  collect(round: CollectRound): Promise<DeletionCount[]>
}>

export type GcFilter = 'objects_only' | 'tokens_only' | 'transaction_ids_only'

const FILTERED: Readonly<Record<GcFilter, CollectedKind>> = {
  objects_only: 'objects',
  tokens_only: 'tokens',
  transaction_ids_only: 'transaction_ids',
}

export type GarbageCollectorDeps = Readonly<{
  store: Store
  clock: Clock
  collectors: readonly Collector[]
  /** SVC_DB_GC_RETENTION_PERIOD and SVC_DB_GC_BATCH_SIZE. */
  retentionMs: number
  batchSize: number
}>

export function createGarbageCollector(deps: GarbageCollectorDeps) {
  async function collect(kinds: readonly CollectedKind[], isDryRun: boolean, now: Micros) {
    const before = now - deps.retentionMs * 1000
    let limit = deps.batchSize
    const counts: DeletionCount[] = []
    for (const collector of deps.collectors.filter((c) => kinds.includes(c.kind))) {
      if (limit <= 0) break
      const found = await collector.collect({ before, limit, isDryRun })
      counts.push(...found)
      limit -= found.reduce((sum, c) => sum + c.count, 0)
    }
    return counts
  }

  return {
    /** POST /system/admin/lifecycle/gc: at most SVC_DB_GC_BATCH_SIZE items per call. */
    async run(
      ctx: RequestContext,
      options: { filter: GcFilter | undefined; isDryRun: boolean },
    ): Promise<DeletionCount[]> {
      if (deps.store.isMemory) throw notInMemoryMode('Garbage collection')
      const kinds = options.filter
        ? [FILTERED[options.filter]]
        : (['objects', 'tokens', 'transaction_ids'] as const)
      return collect(kinds, options.isDryRun, ctx.now)
    },
    /** The background prune job: batch after batch until a batch is not full, or stopped. */
    async prune(signal?: AbortSignal): Promise<void> {
      while (!signal?.aborted) {
        const counts = await collect(['objects', 'tokens', 'transaction_ids'], false, deps.clock())
        if (counts.reduce((sum, c) => sum + c.count, 0) < deps.batchSize) return
      }
    },
  }
}

export type GarbageCollector = ReturnType<typeof createGarbageCollector>
