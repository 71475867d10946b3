// src/storage/repos/audit.ts: the audit_events table (the database audit sink)
import type { Kysely } from 'kysely'
import type { AuditRepo } from '../../core/audit/store.ts'
import type { RowsShape } from '../dialects/dialect.ts'
import type { Tables } from '../schema.ts'
import type { Statements } from '../statements.ts'
import { createRowsInserter } from './rows.ts'

const AUDIT_ROWS: RowsShape = {
  table: 'audit_events',
  columns: [
    ['event_id', 'text'],
    ['time', 'bigint'],
    ['request_id', 'text'],
    ['username', 'text'],
    ['operation', 'text'],
    ['collection', 'text'],
    ['outcome', 'text'],
    ['status', 'integer'],
    ['record', 'text'],
  ],
  tail: '',
}

export function createAuditRepo(db: Kysely<Tables>, statements: Statements): AuditRepo {
  const insertRows = createRowsInserter(db, statements.dialect)
  return {
    // Every call writes one (batched by the audit service): SQL built once (rows.ts).
    async insert(rows) {
      await insertRows(
        AUDIT_ROWS,
        rows.map((row) => [
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
    },
    async scan({ afterSeq, limit }) {
      const rows = await db
        .selectFrom('audit_events')
        .select(['seq', 'record'])
        .where('seq', '>', afterSeq)
        .orderBy('seq')
        .limit(limit)
        .execute()
      return rows.map((row) => ({ seq: Number(row.seq), record: row.record }))
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
