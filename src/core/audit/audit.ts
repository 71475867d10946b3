// src/core/audit/audit.ts: the one audit path every operation goes through
import { randomUUID } from 'node:crypto'
import type { RequestContext } from '../context.ts'
import type { Repos, Store } from '../store.ts'
import { formatNano } from '../time.ts'

/** Where JSON-lines audit records go (stdout or a file); provided by the composition root. */
export type AuditSink = { write(line: string): Promise<void> }

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

export function createAuditService(deps: AuditDeps) {
  /**
   * Writes the call's record once. Pass `tx` to write it in the same transaction as the data it
   * describes (database sink). A failure propagates: the caller fails the operation (fail closed).
   * A failure outcome is always written, even after a success record whose transaction then
   * rolled back.
   */
  async function record(ctx: RequestContext, outcome: Outcome, tx?: Repos): Promise<void> {
    if (ctx.audit.isRecorded && outcome.status < 400) return
    if (!deps.isEnabled || deps.sink === 'none' || deps.skipOperations.has(ctx.audit.operation)) {
      ctx.audit.isRecorded = true
      return
    }
    const event = buildAuditEvent(ctx, outcome, deps.includeRemoteAddr)
    const line = JSON.stringify(event)
    if (deps.sink === 'database') {
      await (tx ?? deps.store).audit.insert({
        eventId: event.event_id,
        time: ctx.now,
        requestId: ctx.requestId,
        username: event.user,
        operation: event.operation,
        collection: event.collection,
        outcome: event.outcome,
        status: event.status,
        record: line,
      })
    } else {
      await deps.sink.write(line)
    }
    ctx.audit.isRecorded = true
  }

  return { record }
}

export type AuditService = ReturnType<typeof createAuditService>
