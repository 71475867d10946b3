// src/core/audit/audit.ts: the one audit path every operation goes through
import { randomUUID } from 'node:crypto'
import type { RequestContext } from '../context.ts'
import { isTransactionConflict, VaultError } from '../errors.ts'
import type { Repos, Store } from '../store.ts'
import { type Clock, formatNano } from '../time.ts'
import { chainStartJson } from './chain.ts'
import type { AuditDetails } from './details.ts'
import type { AuditRow } from './store.ts'
import { createSinkWriter, type SinkFailure, unavailable } from './writer.ts'

/**
 * Where JSON-lines audit records go (stdout or a file); provided by the composition root.
 * `previousHash` gives the hash an existing file's chain ends with; `isWritable` is the
 * readiness probe of a sink that failed (free space, a file that can be opened).
 */
export type AuditSink = {
  write(lines: readonly string[]): Promise<void>
  previousHash?(): Promise<string | undefined>
  isWritable?(): Promise<boolean>
}

/** One configured sink: a line sink or the audit_events table (`database`). */
export type AuditSinkEntry = Readonly<{ name: string; sink: AuditSink | 'database' }>

export type AuditDeps = {
  readonly store: Store
  /** Every sink records every call; none configured keeps no record. */
  readonly sinks: readonly AuditSinkEntry[]
  /** `all`: a call succeeds only when every sink recorded it; `any`: when one did. */
  readonly require: 'all' | 'any'
  readonly timeoutMs: number
  readonly isEnabled: boolean
  readonly includeRemoteAddr: boolean
  readonly skipOperations: ReadonlySet<string>
  /** This node's id: the chains it writes are its own (a per-node sequence). */
  readonly node: string
  readonly version: string
  readonly clock: Clock
  /** A sink failed or timed out (the composition root logs and counts it). */
  readonly onFailure: (failure: SinkFailure) => void
}

export type Outcome = Readonly<{ status: number; errorCode?: string }>

/** The audit record: who, what, where, why and how it ended. Never values, keys or token data. */
export function buildAuditEvent(
  ctx: RequestContext,
  details: AuditDetails,
  outcome: Outcome,
  includeRemoteAddr: boolean,
) {
  const { principal, audit, reason } = ctx
  return {
    event_id: randomUUID(),
    time: formatNano(ctx.now),
    request_id: ctx.requestId,
    user: principal.username,
    role: principal.role,
    auth_kind: principal.idp ? `${principal.authKind}:${principal.idp}` : principal.authKind,
    acting_user: principal.actor,
    operation: audit.operation,
    method: audit.method,
    path: audit.path,
    collection: details.collection,
    properties: details.properties.length > 0 ? [...details.properties].sort() : undefined,
    object_ids: details.objectIds.length > 0 ? details.objectIds : undefined,
    token_ids: details.tokenIds.length > 0 ? details.tokenIds : undefined,
    reason: reason?.reason,
    reason_defaulted: reason?.isDefaulted || undefined,
    adhoc_reason: reason?.adhocReason,
    custom_audit: ctx.customAudit,
    tenant_ids: ctx.tenantIds.length > 0 ? ctx.tenantIds : undefined,
    remote_addr: includeRemoteAddr ? ctx.remoteAddr : undefined,
    outcome: outcome.status < 400 ? 'success' : 'failure',
    status: outcome.status,
    error_code: outcome.errorCode,
  } as const
}

function auditRow(event: ReturnType<typeof buildAuditEvent>, time: number): AuditRow {
  return {
    eventId: event.event_id,
    time,
    requestId: event.request_id,
    username: event.user,
    operation: event.operation,
    collection: event.collection,
    outcome: event.outcome,
    status: event.status,
    record: JSON.stringify(event),
  }
}

/** The first record of each sink's chain on every start: which node, when, which version. */
function chainStartRow(deps: AuditDeps): AuditRow {
  const now = deps.clock()
  return {
    eventId: randomUUID(),
    time: now,
    requestId: '',
    username: '',
    operation: 'chain_start',
    collection: undefined,
    outcome: 'success',
    status: 0,
    record: chainStartJson(formatNano(now), deps.version),
  }
}

export function createAuditService(deps: AuditDeps) {
  const startRow = chainStartRow(deps)
  const writers = deps.sinks.map(({ name, sink }) => {
    const writer = createSinkWriter({
      name,
      node: deps.node,
      startRow,
      timeoutMs: deps.timeoutMs,
      onFailure: deps.onFailure,
      write:
        sink === 'database'
          ? (rows) => deps.store.audit.insert(rows)
          : (rows) => sink.write(rows.map((row) => row.record)),
      previousHash: sink === 'database' ? undefined : sink.previousHash?.bind(sink),
    })
    return { writer, sink, isDatabase: sink === 'database' }
  })
  const hasDatabaseSink = writers.some((entry) => entry.isDatabase)
  /** Calls whose success record is written: it is written once (a failure record always is). */
  const recorded = new WeakSet<RequestContext>()
  /**
   * Calls whose record the sinks outside the database have: a transaction run again after a
   * conflict does not write it to them twice.
   */
  const recordedApart = new WeakSet<RequestContext>()

  /**
   * Writes the call's record once to every sink. Pass `tx` to write the database sink's row in
   * the same transaction as the data it describes: the other sinks are written first, so a call
   * they fail (SVC_LOG_AUDIT_REQUIRE=all) never links a row into the database chain that its
   * rolled-back transaction would then leave as a gap. A failure propagates as 503 ERR1014 (fail
   * closed) unless SVC_LOG_AUDIT_REQUIRE=any and another sink recorded the call. A failure
   * outcome is always written, even after a success record whose transaction then rolled back.
   */
  async function record(
    ctx: RequestContext,
    details: AuditDetails,
    outcome: Outcome,
    tx?: Repos,
  ): Promise<void> {
    if (recorded.has(ctx) && outcome.status < 400) return
    if (writers.length === 0 || !deps.isEnabled || deps.skipOperations.has(ctx.audit.operation)) {
      recorded.add(ctx)
      if (outcome.status < 400) await deps.store.synced()
      return
    }
    const row = auditRow(buildAuditEvent(ctx, details, outcome, deps.includeRemoteAddr), ctx.now)
    const inTx = tx === undefined ? [] : writers.filter((entry) => entry.isDatabase)
    const isApartDone = inTx.length > 0 && recordedApart.has(ctx)
    const apart = isApartDone ? [] : writers.filter((entry) => !inTx.includes(entry))
    const results = await Promise.allSettled(apart.map(({ writer }) => writer.write(row)))
    const failed = results.flatMap((result) => (result.status === 'rejected' ? [result] : []))
    const isMet =
      failed.length === 0 ||
      (deps.require === 'any' && (failed.length < results.length || inTx.length > 0))
    if (!isMet) throw failed[0]?.reason
    if (inTx.length > 0 && outcome.status < 400) recordedApart.add(ctx)
    // A statement that fails inside the transaction fails the transaction, whatever the rule:
    // 503 ERR1014 as when the sink fails on its own, unless the database itself is out (its
    // own 503) or the call's time ran out.
    for (const { writer } of inTx)
      await tx?.audit.insert(await writer.linkNow([row])).catch((error: unknown) => {
        if (error instanceof VaultError) throw error
        throw unavailable(writer.name, 'could not record the call in the database', error)
      })
    recorded.add(ctx)
    // An answer waits until what the call read is durable (a commit of another call's may not be
    // synced yet). A record written to the database on its own already waited for a later sync.
    const isSyncedByRecord =
      inTx.length > 0 ||
      apart.some((entry, i) => entry.isDatabase && results[i]?.status === 'fulfilled')
    if (outcome.status < 400 && !isSyncedByRecord) await deps.store.synced()
  }

  /**
   * Runs a write and the call's success record in one transaction (rolled back when the call
   * times out): with the database sink the data and its record land together or not at all, the
   * record being one more insert of that transaction. Without it (stdout, file) the record is
   * written after the commit, as for reads; if that fails the call fails, the data stays.
   * `details` is what the write touched, or a function of its result when the work finds out.
   */
  async function transaction<T>(
    ctx: RequestContext,
    details: AuditDetails | ((value: T) => AuditDetails),
    work: (tx: Repos) => Promise<T>,
  ): Promise<T> {
    const detailsOf = (value: T) => (typeof details === 'function' ? details(value) : details)
    const attempt = () =>
      deps.store.transaction(
        async (tx) => {
          const result = await work(tx)
          if (hasDatabaseSink) await record(ctx, detailsOf(result), { status: 200 }, tx)
          return result
        },
        { signal: ctx.signal },
      )
    const value = await retryConflicts(attempt, ctx.signal)
    await record(ctx, detailsOf(value), { status: 200 })
    return value
  }

  /**
   * Readiness of each sink: false while a write hangs past the timeout, and after a failed write
   * until the sink's probe (free space, the file can be opened) or a later write says it works.
   */
  async function sinkReadiness(): Promise<Record<string, boolean>> {
    const now = Date.now()
    const entries = await Promise.all(
      writers.map(async ({ writer, sink }) => {
        if (writer.isStuck(now)) return [writer.name, false] as const
        // The database sink is as ready as the database (the readiness check pings it).
        if (sink === 'database') return [writer.name, true] as const
        if (sink.isWritable !== undefined)
          return [writer.name, await sink.isWritable().catch(() => false)] as const
        return [writer.name, !writer.lastWriteFailed] as const
      }),
    )
    return Object.fromEntries(entries)
  }

  return { record, transaction, sinkReadiness }
}

export type AuditService = ReturnType<typeof createAuditService>

/** Attempts of a write whose transaction the database rolled back to break a deadlock. */
const CONFLICT_ATTEMPTS = 4

/**
 * Runs a transaction again when the database rolled it back for a conflict with concurrent ones
 * (PostgreSQL's deadlock detection picks one transaction of the cycle to fail): nothing of it was
 * written, and the others go on. A short random pause first, so the same calls do not meet again
 * in the same order. After the last attempt, or once the call's time is up, the error stands
 * (503 ERR1010).
 */
async function retryConflicts<T>(attempt: () => Promise<T>, signal: AbortSignal): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await attempt()
    } catch (error) {
      if (!isTransactionConflict(error) || tries >= CONFLICT_ATTEMPTS || signal.aborted) throw error
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * tries))
    }
  }
}

/** What a capability that writes needs: its writes and their audit record in one transaction. */
export type AuditedWrites = Pick<AuditService, 'transaction'>
