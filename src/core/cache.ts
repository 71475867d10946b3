// src/core/cache.ts: the per-node control-data cache, kept fresh through the database generation counter
import type { Store } from './store.ts'
import type { Clock, Micros } from './time.ts'

export type CacheDeps = {
  readonly store: Store
  readonly clock: Clock
  /** 0 disables caching: every data call checks the generation first. */
  readonly refreshIntervalMs: number
  readonly worker: Readonly<{ id: string; priority: number; components: readonly string[] }>
}

type Loader = () => Promise<void>

/**
 * Control data (collections, types, IAM, confvars) is loaded once and reloaded when the
 * generation stored in the database moves: a node that changes control data bumps it, and every
 * node compares it on its refresh tick, on `reload_cache=true`, or on every call when caching is off.
 */
export function createControlCache(deps: CacheDeps) {
  const loaders = new Map<string, Loader>()
  let generation = -1
  let checkedAt: Micros = 0
  let timer: NodeJS.Timeout | undefined
  let inflight: Promise<void> | undefined

  async function reloadAll(): Promise<void> {
    for (const load of loaders.values()) await load()
  }

  async function heartbeat(now: Micros): Promise<void> {
    await deps.store.workers.upsert({
      workerId: deps.worker.id,
      generationNumber: generation,
      generationCheckedAt: now,
      refreshIntervalSeconds: Math.round(deps.refreshIntervalMs / 1000),
      priority: deps.worker.priority,
      component: deps.worker.components.join(','),
      heartbeatAt: now,
    })
  }

  async function check(force: boolean): Promise<void> {
    const current = await deps.store.meta.getGeneration()
    const now = deps.clock()
    if (force || current.generation !== generation) {
      generation = current.generation
      await reloadAll()
    }
    checkedAt = now
  }

  /** Brings the cache up to date; concurrent callers share one refresh. */
  async function refresh(options: { force?: boolean } = {}): Promise<void> {
    if (inflight !== undefined) {
      await inflight
      // A forced reload must see writes made after the refresh that was already running.
      if (options.force) await refresh(options)
      return
    }
    inflight = check(options.force === true).finally(() => {
      inflight = undefined
    })
    await inflight
  }

  return {
    /** Registers a reload function, run whenever the control data may have changed. */
    register(name: string, load: Loader) {
      loaders.set(name, load)
    },
    refresh,
    /** Called by data operations: refreshes when the interval passed or caching is off. */
    async ensureFresh(): Promise<void> {
      const age = (deps.clock() - checkedAt) / 1000
      if (deps.refreshIntervalMs === 0 || age >= deps.refreshIntervalMs) await refresh()
    },
    /** After a control-data write: tell every node (generation) and reload this one now. */
    async changed(): Promise<void> {
      generation = await deps.store.meta.bumpGeneration(deps.clock())
      await reloadAll()
    },
    async start(): Promise<void> {
      await refresh({ force: true })
      await heartbeat(deps.clock())
      const period = deps.refreshIntervalMs > 0 ? deps.refreshIntervalMs : 30_000
      timer = setInterval(() => {
        refresh()
          .then(() => heartbeat(deps.clock()))
          .catch(() => {})
      }, period)
      timer.unref()
    },
    async stop(): Promise<void> {
      if (timer) clearInterval(timer)
      await deps.store.workers.remove(deps.worker.id).catch(() => {})
    },
    generation: () => generation,
  }
}

export type ControlCache = ReturnType<typeof createControlCache>
