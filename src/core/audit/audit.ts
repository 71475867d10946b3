// src/core/audit/audit.ts: the one audit path every operation goes through
import { randomUUID } from 'node:crypto'
import type { RequestContext } from '../context.ts'
import type { Repos, Store } from '../store.ts'
import { formatNano } from '../time.ts'
import type { AuditRow } from './store.ts'

/** Where JSON-lines audit records go (stdout or a file); provided by the composition root. */
export type AuditSink = { write(lines: readonly string[]): Promise<void> }

export type AuditDeps = {
  readonly store: Store
  /** `database` writes to the audit_events table; `none` keeps no record; otherwise a line sink. */
  readonly sink: AuditSink | 'database' | 'none'
  readonly isEnabled: boolean
  readonly includeRemoteAddr: boolean
  readonly skipOperations: ReadonlySet<string>
}

export type Outcome = Readonly<{ status: number; errorCode?: string }>

/** The audit record: who, what, where, why and how it ended. Never values, keys or token data. */
export function buildAuditEvent(ctx: RequestContext, outcome: Outcome, includeRemoteAddr: boolean) {
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
    collection: audit.collection,
    properties: audit.properties.size > 0 ? [...audit.properties].sort() : undefined,
    object_ids: audit.objectIds.length > 0 ? audit.objectIds : undefined,
    token_ids: audit.tokenIds.length > 0 ? audit.tokenIds : undefined,
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

type Pending = Readonly<{ row: AuditRow; resolve: () => void; reject: (error: unknown) => void }>

/**
 * Records of calls that finish in the same event-loop turn are written together, in one insert
 * or one write, at the end of the turn; each call still waits for its own record to be written
 * and fails if it is not. One statement per call cost more than the rest of a small call.
 */
function createBatchWriter(write: (rows: readonly AuditRow[]) => Promise<void>) {
  let pending: Pending[] = []
  function flush() {
    const batch = pending
    pending = []
    write(batch.map((entry) => entry.row)).then(
      () => {
        for (const entry of batch) entry.resolve()
      },
      (error) => {
        for (const entry of batch) entry.reject(error)
      },
    )
  }
  return (row: AuditRow) =>
    new Promise<void>((resolve, reject) => {
      if (pending.length === 0) setImmediate(flush)
      pending.push({ row, resolve, reject })
    })
}

export function createAuditService(deps: AuditDeps) {
  const { sink } = deps
  const writeBatched =
    sink === 'none'
      ? undefined
      : createBatchWriter((rows) =>
          sink === 'database'
            ? deps.store.audit.insert(rows)
            : sink.write(rows.map((row) => row.record)),
        )

  /** The call's record as an audit_events row, or undefined when no record is kept. */
  function rowOf(ctx: RequestContext, outcome: Outcome): AuditRow | undefined {
    if (!deps.isEnabled || sink === 'none' || deps.skipOperations.has(ctx.audit.operation))
      return undefined
    const event = buildAuditEvent(ctx, outcome, deps.includeRemoteAddr)
    return {
      eventId: event.event_id,
      time: ctx.now,
      requestId: ctx.requestId,
      username: event.user,
      operation: event.operation,
      collection: event.collection,
      outcome: event.outcome,
      status: event.status,
      record: JSON.stringify(event),
    }
  }

  /**
   * Writes the call's record once (reads and failures; writes go through `transaction`). A
   * failure propagates: the caller fails the operation (fail closed). A failure outcome is always
   * written, even after a success record whose transaction then rolled back.
   */
  async function record(ctx: RequestContext, outcome: Outcome): Promise<void> {
    if (ctx.audit.isRecorded && outcome.status < 400) return
    const row = rowOf(ctx, outcome)
    if (row !== undefined && writeBatched !== undefined) await writeBatched(row)
    ctx.audit.isRecorded = true
  }

  /**
   * Runs a write and the call's success record in one transaction (rolled back when the call
   * times out): with the database sink the data and its record land together or not at all, the
   * record being one more insert of that transaction. With a line sink (stdout, file) the record
   * is written after the commit, as for reads; if that fails the call fails, the data stays.
   */
  async function transaction<T>(ctx: RequestContext, work: (tx: Repos) => Promise<T>): Promise<T> {
    const value = await deps.store.transaction(
      async (tx) => {
        const result = await work(tx)
        if (sink === 'database' && !ctx.audit.isRecorded) {
          const row = rowOf(ctx, { status: 200 })
          if (row !== undefined) await tx.audit.insert([row])
          ctx.audit.isRecorded = true
        }
        return result
      },
      { signal: ctx.signal },
    )
    await record(ctx, { status: 200 })
    return value
  }

  return { record, transaction }
}

export type AuditService = ReturnType<typeof createAuditService>

/** What a capability that writes needs: its writes and their audit record in one transaction. */
export type AuditedWrites = Pick<AuditService, 'transaction'>
