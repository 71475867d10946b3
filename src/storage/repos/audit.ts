// src/storage/repos/audit.ts: the audit_events table (the database audit sink)
import type { Kysely } from 'kysely'
import type { AuditRepo } from '../../core/store.ts'
import type { Tables } from '../schema.ts'

export function createAuditRepo(db: Kysely<Tables>): AuditRepo {
  return {
    async insert(row) {
      await db
        .insertInto('audit_events')
        .values({
          event_id: row.eventId,
          time: row.time,
          request_id: row.requestId,
          username: row.username,
          operation: row.operation,
          collection: row.collection ?? null,
          outcome: row.outcome,
          status: row.status,
          record: row.record,
        })
        .execute()
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
