// src/core/audit/writer.ts: one sink's writer: batches, links each record into the sink's chain, bounds the wait
import { VaultError } from '../errors.ts'
import { type ChainState, linkRecord, startState } from './chain.ts'
import type { AuditRow } from './store.ts'

export type SinkFailure = Readonly<{ sink: string; reason: 'error' | 'timeout'; error: unknown }>

export type SinkWriterOptions = Readonly<{
  /** The sink's name in messages, logs and metrics: `stdout`, `file` or `database`. */
  name: string
  node: string
  /** Writes linked rows in order; resolves once the sink holds them. */
  write(rows: readonly AuditRow[]): Promise<void>
  /** The hash the sink's chain ended with before this start (an existing file), if any. */
  previousHash?(): Promise<string | undefined>
  /** The chain start record of this node start, written before any other record. */
  startRow: AuditRow
  timeoutMs: number
  onFailure(failure: SinkFailure): void
}>

type Pending = {
  readonly row: AuditRow
  readonly resolve: () => void
  readonly reject: (error: unknown) => void
  readonly timer: NodeJS.Timeout
  isSettled: boolean
}

export function unavailable(sink: string, detail: string, cause?: unknown): VaultError {
  return new VaultError('auditUnavailable', {
    message: `The audit sink "${sink}" ${detail}, so the call was refused; retry once the sink works again (see the service log).`,
    context: { sink },
    cause,
  })
}

function errorCode(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  return typeof code === 'string' ? code : 'an error'
}

/**
 * Records of calls that finish while the sink is idle are written together at the end of the
 * event-loop turn; records that arrive while a write is under way wait for it and go in the next
 * one. One write at a time keeps the chain in the order the sink holds it, and a failed write
 * leaves the chain where it was, so the next write recovers it. Each call waits at most
 * `timeoutMs` for its record, then fails with 503 ERR1014 (a sink that hangs fails calls, not
 * hangs them).
 */
export function createSinkWriter(options: SinkWriterOptions) {
  const { name } = options
  let queue: Pending[] = []
  let isScheduled = false
  let inFlightSince: number | undefined
  let state: ChainState | undefined
  let lastWriteFailed = false

  function schedule() {
    if (isScheduled || inFlightSince !== undefined || queue.length === 0) return
    isScheduled = true
    setImmediate(flush)
  }

  let previousHash: Promise<string | undefined> | undefined
  let startHash: string | undefined

  /**
   * Links rows after the chain's current state and moves the state on at once (so a write made
   * meanwhile links after them); the first rows of a start follow the chain start record.
   */
  async function link(rows: readonly AuditRow[]) {
    if (state === undefined) {
      previousHash ??= (options.previousHash?.() ?? Promise.resolve(undefined)).catch(
        () => undefined,
      )
      startHash = await previousHash
    }
    const before = state
    let next = before ?? startState(options.node, startHash)
    const linked: AuditRow[] = []
    for (const row of before === undefined ? [options.startRow, ...rows] : rows) {
      const result = linkRecord(row.record, next)
      next = result.state
      linked.push({ ...row, record: result.line })
    }
    state = next
    return { rows: linked, before, after: next }
  }

  async function flush() {
    isScheduled = false
    const batch = queue.filter((entry) => !entry.isSettled)
    queue = []
    if (batch.length === 0) return
    inFlightSince = Date.now()
    const { rows, before, after } = await link(batch.map((entry) => entry.row))
    try {
      await options.write(rows)
      lastWriteFailed = false
      for (const entry of batch) settle(entry, undefined)
    } catch (error) {
      // The sink holds none of the rows (the file sink cuts a partial write off): the chain goes
      // back to where it was, unless another write linked after them meanwhile.
      if (state === after) state = before
      lastWriteFailed = true
      options.onFailure({ sink: name, reason: 'error', error })
      const failure = unavailable(name, `could not record the call (${errorCode(error)})`, error)
      for (const entry of batch) settle(entry, failure)
    } finally {
      inFlightSince = undefined
      schedule()
    }
  }

  function settle(entry: Pending, error: unknown) {
    if (entry.isSettled) return
    entry.isSettled = true
    clearTimeout(entry.timer)
    if (error === undefined) entry.resolve()
    else entry.reject(error)
  }

  return {
    name,
    /** Resolves once the sink holds the record; rejects with ERR1014 if it fails or takes too long. */
    write(row: AuditRow): Promise<void> {
      return new Promise<void>((resolve, reject) => {
        const entry: Pending = {
          row,
          resolve,
          reject,
          isSettled: false,
          timer: setTimeout(() => {
            // Out of the queue at once: calls that keep arriving at a hung sink hold no memory.
            const at = queue.indexOf(entry)
            if (at >= 0) queue.splice(at, 1)
            options.onFailure({ sink: name, reason: 'timeout', error: undefined })
            settle(
              entry,
              unavailable(name, `did not confirm the record within ${options.timeoutMs} ms`),
            )
          }, options.timeoutMs),
        }
        queue.push(entry)
        schedule()
      })
    },
    /**
     * Links rows now, for a write the caller makes itself (the database sink inside a data
     * transaction). The chain moves on at once: a transaction that rolls back leaves a gap.
     */
    async linkNow(rows: readonly AuditRow[]): Promise<AuditRow[]> {
      return (await link(rows)).rows
    },
    /** Whether a write has hung for longer than the timeout. */
    isStuck(now: number): boolean {
      return inFlightSince !== undefined && now - inFlightSince > options.timeoutMs
    },
    /** Whether the last write failed (a failed sink recovers with the next write that succeeds). */
    get lastWriteFailed() {
      return lastWriteFailed
    },
  }
}

export type SinkWriter = ReturnType<typeof createSinkWriter>
