// src/core/keys/rotation.ts: the background job that re-encrypts stored data to the newest key versions
import type { Keyring, RotatablePurpose } from '../crypto/keyring.ts'
import type { Store } from '../store.ts'
import type { Clock, Micros } from '../time.ts'
import {
  advance,
  endPass,
  needsWork,
  parseState,
  type RotationState,
  type StepResult,
  sameTargets,
  serializeState,
  startState,
  type Targets,
} from './rotation-state.ts'

/**
 * Something that holds data sealed under a rotatable purpose. `step` re-encrypts, after
 * `position`, up to `limit` items whose key version is below `target`, and never blocks other
 * writes for long: a lost race is a conflict to retry in the next pass. Objects are the first
 * source; the tokens capability adds one for token data (purpose `token`).
 */
export type ReencryptionSource = Readonly<{
  name: string
  purpose: RotatablePurpose
  step(input: {
    position: string | undefined
    limit: number
    target: number
    now: Micros
  }): Promise<StepResult>
}>

export type ReencryptionDeps = Readonly<{
  store: Store
  keyring: Keyring
  clock: Clock
  sources: readonly ReencryptionSource[]
  workerId: string
  batchSize: number
  /** Pause between batches, leaving room for requests. */
  pauseMs: number
  /** How long after a rotation another node may still write with the previous keys. */
  settleMs: number
  /** How often an idle node looks for work (another node's rotation, a stopped worker's state). */
  pollMs: number
  leaseMs: number
}>

/** One lease row: only its holder works, and its state is the progress every node reads. */
export const REENCRYPTION_LEASE = 'key-reencryption'

export function createReencryptionJob(deps: ReencryptionDeps) {
  const { store, clock } = deps
  let isStopped = false
  let isKickPending = false
  let running: Promise<void> | undefined
  let timer: NodeJS.Timeout | undefined
  let wake: (() => void) | undefined

  const targets = (): Targets =>
    Object.fromEntries(
      deps.sources.map((s) => [s.purpose, deps.keyring.current(s.purpose).version]),
    )

  /** Waits `ms`, or less when stopped. */
  function sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(resolve, Math.max(0, ms))
      wake = () => {
        clearTimeout(t)
        resolve()
      }
    })
  }

  const renew = () =>
    store.leases.acquire(REENCRYPTION_LEASE, deps.workerId, clock() + deps.leaseMs * 1000, clock())

  async function stepOnce(state: RotationState): Promise<RotationState> {
    const source = deps.sources[state.sourceIndex]
    if (source === undefined) return endPass(state, clock(), deps.settleMs * 1000)
    const target = state.targets[source.purpose] ?? 1
    const input = { position: state.position, limit: deps.batchSize, target, now: clock() }
    return advance(state, await source.step(input), clock())
  }

  /** Runs batches while this node holds the lease; the state is saved after every batch. */
  async function work(): Promise<void> {
    const local = targets()
    const saved = parseState(await store.leases.getState(REENCRYPTION_LEASE))
    let state = saved && sameTargets(saved.targets, local) ? saved : startState(local, clock())
    while (!isStopped && state.finishedAt === undefined) {
      const wait = (state.passStartedAt - clock()) / 1000
      if (wait > 0) await sleep(Math.min(wait, deps.leaseMs / 3))
      else state = await stepOnce(state)
      if (!(await store.leases.setState(REENCRYPTION_LEASE, deps.workerId, serializeState(state))))
        return
      if (!sameTargets(targets(), state.targets) || !(await renew())) return
      if (deps.pauseMs > 0 && wait <= 0) await sleep(deps.pauseMs)
      else await new Promise((resolve) => setImmediate(resolve))
    }
  }

  async function attempt(): Promise<void> {
    const state = parseState(await store.leases.getState(REENCRYPTION_LEASE))
    if (isStopped || !needsWork(state, targets()) || !(await renew())) return
    try {
      await work()
    } finally {
      await store.leases.release(REENCRYPTION_LEASE, deps.workerId)
    }
  }

  /**
   * Starts an attempt, or another one right after the running one (a rotation during a pass).
   * A failed attempt (database unreachable) is retried on the next poll.
   */
  function kick(): void {
    if (isStopped) return
    if (running !== undefined) {
      isKickPending = true
      return
    }
    isKickPending = false
    running = attempt()
      .catch(() => {})
      .finally(() => {
        running = undefined
        if (isKickPending) kick()
      })
  }

  return {
    kick,
    start(): void {
      timer = setInterval(kick, deps.pollMs)
      timer.unref()
      kick()
    },
    /** Stops after the batch in progress and hands the lease back, so another node resumes at once. */
    async stop(): Promise<void> {
      isStopped = true
      if (timer) clearInterval(timer)
      wake?.()
      await running
    },
    /** Resolves once no attempt runs (tests). */
    idle: async () => running,
    async state(): Promise<RotationState | undefined> {
      return parseState(await store.leases.getState(REENCRYPTION_LEASE))
    },
    targets,
  }
}

export type ReencryptionJob = ReturnType<typeof createReencryptionJob>
