// src/core/audit/audit-conflicts.test.ts: a write that PostgreSQL rolls back to break a deadlock runs again, on a real database
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testContext } from '../../../test/helpers/context.ts'
import { createTestDatabase, findTestPostgres } from '../../../test/helpers/postgres.ts'
import { databaseAudit, openTestStore, type TestStore } from '../../../test/helpers/store.ts'
import { auditRoute } from '../context.ts'
import type { Repos } from '../store.ts'
import { NO_DETAILS } from './details.ts'

const NOW = 1_700_000_000_000_000
const url = await findTestPostgres()

const context = (requestId: string) =>
  testContext(undefined, { requestId, now: NOW, audit: auditRoute('test', 'PUT', '/') })

describe.skipIf(url === undefined)('audited writes on PostgreSQL', () => {
  let handle: TestStore
  let drop: () => Promise<void>
  beforeAll(async () => {
    const database = await createTestDatabase(url as string)
    drop = database.drop
    handle = await openTestStore(database.options)
    await handle.store.confvars.set('first', 'x', NOW)
    await handle.store.confvars.set('second', 'x', NOW)
  })
  afterAll(async () => {
    await handle.close()
    await drop()
  })

  it('runs again the one of two deadlocked transactions that the database rolled back', async () => {
    const audit = databaseAudit(handle.store, NOW)
    // Each write locks one row, waits until the other has locked its own, then wants the
    // other's: a deadlock on the first attempts; PostgreSQL fails one of them (40P01).
    let locked = 0
    let bothLocked: () => void = () => {}
    const barrier = new Promise<void>((resolve) => {
      bothLocked = resolve
    })
    let attempts = 0
    const write = (requestId: string, rows: [string, string]) =>
      audit.transaction(context(requestId), NO_DETAILS, async (tx: Repos) => {
        attempts += 1
        await tx.confvars.set(rows[0], requestId, NOW)
        locked += 1
        if (locked === 2) bothLocked()
        await barrier
        await tx.confvars.set(rows[1], requestId, NOW)
        return requestId
      })
    const results = await Promise.all([
      write('one', ['first', 'second']),
      write('two', ['second', 'first']),
    ])
    expect(results).toEqual(['one', 'two'])
    expect(attempts).toBe(3)
    // The retried one committed last: both rows hold its value.
    const values = await handle.store.confvars.list()
    expect(values.get('first')).toBe(values.get('second'))
    // One record per call: the rolled-back attempt's record went with its transaction.
    const records = await handle.store.audit.list({ limit: 100 })
    const ids = records.map((row) => row.requestId).filter((id) => id === 'one' || id === 'two')
    expect(ids.sort()).toEqual(['one', 'two'])
  })
})
