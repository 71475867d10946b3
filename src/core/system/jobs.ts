// src/core/system/jobs.ts: periodic background jobs that one node at a time runs, through a lease row
import type { LeasesRepo } from '../store.ts'
import type { Clock } from '../time.ts'

export type Job = Readonly<{
  /** The lease name: one node runs the job at a time. */
  name: string
  /** 0 switches the job off. */
  intervalMs: number
  /** How long a round may take before another node may take the lease over. */
  leaseMs: number
  /** One round; it should return soon after `signal` aborts (the node is stopping). */
  run(signal: AbortSignal): Promise<void>
}>

export type JobsDeps = Readonly<{
  leases: LeasesRepo
  clock: Clock
  workerId: string
  /** Jobs never throw out of their timer; failures go here (the composition root logs them). */
  onError: (job: string, error: unknown) => void
}>

export function createJobs(deps: JobsDeps, jobs: readonly Job[]) {
  const timers: NodeJS.Timeout[] = []
  const running = new Set<Promise<void>>()
  const stopping = new AbortController()
  let isStopped = false

  async function round(job: Job): Promise<void> {
    const now = deps.clock()
    const micros = job.leaseMs * 1000
    if (!(await deps.leases.acquire(job.name, deps.workerId, now + micros, now))) return
    try {
      await job.run(stopping.signal)
    } finally {
      await deps.leases.release(job.name, deps.workerId)
    }
  }

  function tick(job: Job, isBusy: { value: boolean }): void {
    if (isStopped || isBusy.value) return
    isBusy.value = true
    const work = round(job)
      .catch((error) => deps.onError(job.name, error))
      .finally(() => {
        isBusy.value = false
        running.delete(work)
      })
    running.add(work)
  }

  return {
    start(): void {
      for (const job of jobs) {
        if (job.intervalMs <= 0) continue
        const isBusy = { value: false }
        const timer = setInterval(() => tick(job, isBusy), job.intervalMs)
        timer.unref()
        timers.push(timer)
      }
    },
    /** Stops the timers, asks rounds in progress to end, and waits for them. */
    async stop(): Promise<void> {
      isStopped = true
      stopping.abort()
      for (const timer of timers) clearInterval(timer)
      await Promise.all(running)
    },
  }
}

export type Jobs = ReturnType<typeof createJobs>
