// src/storage/repos/audit.ts: the audit_events table (the database audit sink)
import type { Kysely } from 'kysely'
import type { AuditRepo } from '../../core/store.ts'
import type { Tables } from '../schema.ts'
import { insertShape, type Statements } from '../statements.ts'

const INSERT = insertShape('audit_events', [
  'event_id',
  'time',
  'request_id',
  'username',
  'operation',
  'collection',
  'outcome',
  'status',
  'record',
])

/** Rows per statement: 9 parameters each, within every engine's parameter limit. */
const CHUNK = 500

export function createAuditRepo(db: Kysely<Tables>, statements: Statements): AuditRepo {
  return {
    // Every call writes one (batched by the audit service): hand-written SQL.
    async insert(rows) {
      for (let start = 0; start < rows.length; start += CHUNK) {
        const part = rows.slice(start, start + CHUNK)
        await statements.insert(
          db,
          INSERT,
          part.map((row) => [
            row.eventId,
            row.time,
            row.requestId,
            row.username,
            row.operation,
            row.collection ?? null,
            row.outcome,
            row.status,
            row.record,
          ]),
        )
      }
    },
    async list({ since, limit }) {
      let query = db.selectFrom('audit_events').selectAll().orderBy('seq').limit(limit)
      if (since !== undefined) query = query.where('time', '>=', since)
      const rows = await query.execute()
      return rows.map((row) => ({
        eventId: row.event_id,
        time: row.time,
        requestId: row.request_id,
        username: row.username,
        operation: row.operation,
        collection: row.collection ?? undefined,
        outcome: row.outcome === 'success' ? 'success' : 'failure',
        status: row.status,
        record: row.record,
      }))
    },
  }
}
