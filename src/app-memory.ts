// src/app-memory.ts: gives memory back once the node goes idle after a busy stretch (docs/adr/0021)
import { performance } from 'node:perf_hooks'
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

/**
 * V8 grows its young generation under a high allocation rate (key re-encryption, bursts of
 * requests: 1 → 128 MB reserved here) and keeps it when the allocation stops; only a
 * memory-reducing collection shrinks it again, and an idle node runs none on its own. SQLite's
 * page cache (8 MiB by default) likewise stays filled. So: after a busy stretch, once a few periods
 * in a row pass idle, the node runs one memory-reducing collection and asks the database to free
 * its caches. A node that stays idle, or stays busy, does nothing.
 */
export type IdleReleaseOptions = Readonly<{
  /** How often the event loop's utilization is sampled. */
  periodMs?: number
  /** How many idle periods in a row start the release (once per idle stretch). */
  idlePeriods?: number
  /** Event-loop utilization (0–1) over a period below which the period counts as idle. */
  idleBelow?: number
  /**
   * At or above which it counts as work worth a release afterwards; between the two, a period
   * neither is idle nor counts as work (light traffic).
   */
  busyAbove?: number
  /** Frees the database's caches (SQLite: `PRAGMA shrink_memory`). */
  releaseDatabase?: () => Promise<void>
  /** Tests: the utilization of the period just ended, and the collection to run. */
  utilization?: () => number
  collect?: () => void
  /** Tests: a reserved young generation above this counts as reason to release. */
  youngSlackBytes?: number
}>

/**
 * Idle means 3 s in a row under 5 % busy, sampled every second: the release runs 3–4 s after the
 * work stops (with one 5 s sample it ran 5–10 s after, depending on where the work ended in it).
 */
const DEFAULT_PERIOD_MS = 1000
const DEFAULT_IDLE_PERIODS = 3
const DEFAULT_IDLE_BELOW = 0.05
/** A node serving light, irregular traffic (5–25 % of a second) does not run a collection after each lull. */
const DEFAULT_BUSY_ABOVE = 0.25
/** The young generation a fresh node reserves is 1–2 MB; above this there is something to free. */
const DEFAULT_YOUNG_SLACK_BYTES = 16 * 1024 * 1024

/**
 * A memory-reducing full collection ("last resort": it also shrinks the young generation), without
 * `--expose-gc` on the command line: the flag is set only while the `gc` function is fetched, so
 * no global `gc` appears.
 */
function memoryReducingCollection(): () => void {
  setFlagsFromString('--expose-gc')
  const gc = runInNewContext('gc') as (options: object) => void
  setFlagsFromString('--no-expose-gc')
  return () => gc({ type: 'major', execution: 'sync', flavor: 'last-resort' })
}

function youngGenerationBytes(): number {
  return getHeapSpaceStatistics()
    .filter((space) => space.space_name === 'new_space')
    .reduce((sum, space) => sum + space.space_size, 0)
}

function utilizationSampler(): () => number {
  let last = performance.eventLoopUtilization()
  return () => {
    const now = performance.eventLoopUtilization()
    const { utilization } = performance.eventLoopUtilization(now, last)
    last = now
    return utilization
  }
}

export type IdleRelease = {
  /** One sampling period (the timer calls it; tests call it directly). */
  tick(): Promise<void>
  /** How many releases ran (tests). */
  readonly releases: number
  stop(): void
}

/** Samples the event loop every period; releases memory once per idle stretch that follows work. */
export function createIdleRelease(options: IdleReleaseOptions = {}): IdleRelease {
  const idleBelow = options.idleBelow ?? DEFAULT_IDLE_BELOW
  const busyAbove = options.busyAbove ?? DEFAULT_BUSY_ABOVE
  const idlePeriods = options.idlePeriods ?? DEFAULT_IDLE_PERIODS
  const slack = options.youngSlackBytes ?? DEFAULT_YOUNG_SLACK_BYTES
  const utilization = options.utilization ?? utilizationSampler()
  let collect = options.collect
  /** Busy since the last release. */
  let hasWorked = false
  /** Idle periods since the last busy one; the release looks once per idle stretch. */
  let idleInRow = 0
  let releases = 0
  let isRunning = false

  async function tick(): Promise<void> {
    if (isRunning) return
    const used = utilization()
    if (used >= idleBelow) {
      if (used >= busyAbove) hasWorked = true
      idleInRow = 0
      return
    }
    idleInRow += 1
    if (idleInRow !== idlePeriods) return
    if (!hasWorked && youngGenerationBytes() <= slack) return
    isRunning = true
    try {
      hasWorked = false
      await options.releaseDatabase?.().catch(() => {})
      collect ??= memoryReducingCollection()
      collect()
      releases += 1
    } finally {
      isRunning = false
      // The release's own work is not a busy period.
      utilization()
    }
  }

  const timer = setInterval(() => void tick(), options.periodMs ?? DEFAULT_PERIOD_MS)
  timer.unref()
  return {
    tick,
    get releases() {
      return releases
    },
    stop: () => clearInterval(timer),
  }
}
