// src/core/audit/store.ts: the audit capability's storage port: the audit_events rows of the database sink
import type { Micros } from '../time.ts'

export type AuditRow = {
  readonly eventId: string
  readonly time: Micros
  readonly requestId: string
  readonly username: string
  readonly operation: string
  readonly collection: string | undefined
  readonly outcome: 'success' | 'failure'
  readonly status: number
  /** The whole event as JSON; never holds property values, keys or token data. */
  readonly record: string
}

export type AuditRepo = {
  /** Appends the rows in order, in one statement. */
  insert(rows: readonly AuditRow[]): Promise<void>
  list(options: { readonly since?: Micros; readonly limit: number }): Promise<AuditRow[]>
  /** The records in insertion order after `afterSeq` (the table's own sequence), for verify. */
  scan(options: { readonly afterSeq: number; readonly limit: number }): Promise<ScannedRecord[]>
}

export type ScannedRecord = Readonly<{ seq: number; record: string }>
