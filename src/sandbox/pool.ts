// src/sandbox/pool.ts: the worker threads that run bundle code, started on first use, with a watchdog
import { Worker } from 'node:worker_threads'
import { SandboxFailure, type SandboxFailureKind } from '../core/bundles/sandbox.ts'
import type { FromWorker, HostOp, ToWorker, WorkerData, WorkerSettings } from './protocol.ts'

export type PoolOptions = Readonly<{
  settings: WorkerSettings
  /** At most this many worker threads (each runs guest code on its own core). */
  maxWorkers: number
  /** How long a stretch of guest code may overrun its limit before its worker is terminated. */
  graceMs: number
  /** A worker beyond the first is stopped after being idle this long. */
  idleWorkerMs: number
  /**
   * The last worker is stopped after being idle this long: with it go its cached runtimes, whose
   * WebAssembly memory never shrinks (up to 2.5 × the memory limit each).
   */
  lastWorkerIdleMs: number
}>

/** What a dispatched job needs from its owner: answers to host requests, log lines, the result. */
export type Job = Readonly<{
  message: DistributiveOmit<ToWorker & { type: 'call' | 'inspect' }, 'id'>
  onHost(op: HostOp, payload: string): Promise<string>
  onLog(bundle: string, text: string): void
}>

type DistributiveOmit<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never

type Pending = {
  readonly job: Job
  readonly resolve: (result: string) => void
  readonly reject: (failure: SandboxFailure) => void
  /** Host requests in flight: the job is waiting, not using its worker's thread. */
  awaitingHost: number
}

type Slot = {
  readonly worker: Worker
  /** The worker's guest code stops when this holds its call's id (read by the interrupt handler). */
  readonly cancelFlag: Int32Array
  readonly jobs: Map<number, Pending>
  /** The job running guest code now, and when it must have stopped. */
  running: { id: number; until: number } | undefined
  watchdog: NodeJS.Timeout | undefined
  idleTimer: NodeJS.Timeout | undefined
}

const WORKER_URL = new URL('./worker.ts', import.meta.url)

export function createPool(options: PoolOptions) {
  const slots: Slot[] = []
  let nextId = 0
  let isClosed = false

  const busy = (slot: Slot) =>
    [...slot.jobs.values()].filter((pending) => pending.awaitingHost === 0).length

  function stop(slot: Slot, culprit: number | undefined, kind: SandboxFailureKind) {
    const index = slots.indexOf(slot)
    if (index >= 0) slots.splice(index, 1)
    clearTimeout(slot.watchdog)
    clearTimeout(slot.idleTimer)
    for (const [id, pending] of slot.jobs) {
      // Jobs that shared the worker did nothing wrong: they may be retried.
      pending.reject(new SandboxFailure(id === culprit ? kind : 'interrupted'))
    }
    slot.jobs.clear()
    void slot.worker.terminate()
  }

  function armWatchdog(slot: Slot) {
    clearTimeout(slot.watchdog)
    const running = slot.running
    if (running === undefined) return
    slot.watchdog = setTimeout(
      () => {
        if (slot.running?.id === running.id) stop(slot, running.id, 'timeout')
      },
      Math.max(0, running.until - Date.now()),
    )
    slot.watchdog.unref()
  }

  function settleIdle(slot: Slot) {
    clearTimeout(slot.idleTimer)
    slot.idleTimer = undefined
    if (slot.jobs.size > 0 || !slots.includes(slot)) return
    const isLast = slots.length <= 1
    slot.idleTimer = setTimeout(
      () => {
        if (slot.jobs.size > 0) return
        stop(slot, undefined, 'interrupted')
        // The workers left may now be the last one: its own, longer idle time applies.
        for (const other of slots) settleIdle(other)
      },
      isLast ? options.lastWorkerIdleMs : options.idleWorkerMs,
    )
    slot.idleTimer.unref()
  }

  function finish(slot: Slot, id: number, outcome: () => void) {
    if (!slot.jobs.delete(id)) return
    outcome()
    // An idle worker does not keep the process alive; one with work does.
    if (slot.jobs.size === 0) slot.worker.unref()
    settleIdle(slot)
  }

  function answerHost(slot: Slot, message: Extract<FromWorker, { type: 'host' }>) {
    const pending = slot.jobs.get(message.id)
    if (pending === undefined) return
    pending.awaitingHost += 1
    const reply = (ok: boolean, value: string) => {
      pending.awaitingHost -= 1
      if (!slot.jobs.has(message.id)) return
      const answer: ToWorker = {
        type: 'host_result',
        id: message.id,
        hostId: message.hostId,
        ok,
        value,
      }
      slot.worker.postMessage(answer)
    }
    pending.job.onHost(message.op, message.payload).then(
      (value) => reply(true, value),
      (error: unknown) =>
        reply(false, error instanceof Error ? error.message : 'The request failed.'),
    )
  }

  function onMessage(slot: Slot, message: FromWorker) {
    switch (message.type) {
      case 'ready':
        return
      case 'running':
        slot.running = { id: message.id, until: Date.now() + message.timeLimitMs + options.graceMs }
        armWatchdog(slot)
        return
      case 'idle':
        if (slot.running?.id === message.id) slot.running = undefined
        armWatchdog(slot)
        return
      case 'done':
      case 'failed': {
        const pending = slot.jobs.get(message.id)
        finish(slot, message.id, () => {
          if (message.type === 'done') pending?.resolve(message.result)
          else pending?.reject(new SandboxFailure(message.failure.kind, message.failure.detail))
        })
        return
      }
      case 'host':
        answerHost(slot, message)
        return
      case 'log':
        slot.jobs.get(message.id)?.job.onLog(message.bundle, message.text)
    }
  }

  function spawn(): Slot {
    const cancelFlag = new Int32Array(new SharedArrayBuffer(4))
    const workerData: WorkerData = { ...options.settings, cancelFlag }
    const worker = new Worker(WORKER_URL, {
      workerData,
      // The guest's memory is WebAssembly memory, bounded per runtime; this bounds the rest.
      resourceLimits: { maxOldGenerationSizeMb: 256, stackSizeMb: 4 },
    })
    worker.unref()
    const slot: Slot = {
      worker,
      cancelFlag,
      jobs: new Map(),
      running: undefined,
      watchdog: undefined,
      idleTimer: undefined,
    }
    worker.on('message', (message: FromWorker) => onMessage(slot, message))
    // A worker that died (its own heap limit, a crash) takes the job it was running with it.
    worker.on('error', () => stop(slot, slot.running?.id, 'misbehaved'))
    worker.on('exit', () => stop(slot, slot.running?.id, 'misbehaved'))
    slots.push(slot)
    return slot
  }

  /** The least busy worker; a new one while the least busy is running guest code. */
  function pick(): Slot {
    let best: Slot | undefined
    for (const slot of slots) if (best === undefined || busy(slot) < busy(best)) best = slot
    if (best === undefined || (busy(best) > 0 && slots.length < options.maxWorkers)) return spawn()
    return best
  }

  return {
    run(job: Job, signal?: AbortSignal): Promise<string> {
      if (isClosed) return Promise.reject(new SandboxFailure('interrupted'))
      const slot = pick()
      clearTimeout(slot.idleTimer)
      nextId += 1
      const id = nextId
      return new Promise<string>((resolve, reject) => {
        slot.jobs.set(id, { job, resolve, reject, awaitingHost: 0 })
        slot.worker.ref()
        slot.worker.postMessage({ ...job.message, id } as ToWorker)
        signal?.addEventListener(
          'abort',
          () => {
            if (!slot.jobs.has(id)) return
            Atomics.store(slot.cancelFlag, 0, id)
            slot.worker.postMessage({ type: 'cancel', id } as ToWorker)
          },
          { once: true },
        )
      })
    },
    /** Worker threads running now (tests). */
    workerCount: (): number => slots.length,
    /** Starts one worker ahead of the first call. */
    warm(): void {
      if (!isClosed && slots.length === 0) settleIdle(spawn())
    },
    async close(): Promise<void> {
      isClosed = true
      for (const slot of [...slots]) stop(slot, undefined, 'interrupted')
    },
  }
}

export type Pool = ReturnType<typeof createPool>
