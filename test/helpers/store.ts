// test/helpers/store.ts: opens a migrated Store on in-memory SQLite or on a fresh PostgreSQL database
import { createAuditService } from '../../src/core/audit/audit.ts'
import type { Store } from '../../src/core/store.ts'
import type { Micros } from '../../src/core/time.ts'
import { type DatabaseOptions, openDatabase } from '../../src/storage/database.ts'
import { migrate } from '../../src/storage/migrate.ts'
import { createSqlStore } from '../../src/storage/sql-store.ts'

export type TestStore = { readonly store: Store; close(): Promise<void> }

export async function openTestStore(
  options: DatabaseOptions = { kind: 'sqlite', file: ':memory:' },
): Promise<TestStore> {
  const database = openDatabase(options)
  await migrate(database.db, database.dialect)
  const store = createSqlStore(database)
  return { store, close: () => store.close() }
}

/** The audit service recording every call in the store's own table, at a fixed time (service tests). */
export function databaseAudit(store: Store, now: Micros) {
  return createAuditService({
    store,
    sinks: [{ name: 'database', sink: 'database' }],
    require: 'all',
    timeoutMs: 5_000,
    isEnabled: true,
    includeRemoteAddr: false,
    skipOperations: new Set(),
    node: 'w',
    version: 'test',
    clock: () => now,
    onFailure: () => {},
  })
}
