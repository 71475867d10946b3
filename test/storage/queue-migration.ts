// test/storage/queue-migration.ts: 0009 moves n-gram queue rows of a database written before it
import { describe, expect, it } from 'vitest'
import { type DatabaseOptions, openDatabase } from '../../src/storage/database.ts'
import { sql } from '../../src/storage/kysely.ts'
import { migrate } from '../../src/storage/migrate.ts'
import { createSqlStore } from '../../src/storage/sql-store.ts'

/**
 * Brings a fresh database back to its state before 0009 (the per-object queue table, holding
 * rows), migrates it again, and reads the queue through the store.
 */
export function describeQueueMigration(name: string, options: () => Promise<DatabaseOptions>) {
  describe(`${name}: substring queue migration (0009)`, () => {
    it('moves every queued object of an older database into the new queue', async () => {
      const database = openDatabase(await options())
      const { db } = database
      await migrate(db, database.dialect)
      await sql`DROP TABLE substring_queue`.execute(db)
      await sql`DELETE FROM schema_migrations WHERE version = 9`.execute(db)
      await sql`CREATE TABLE substring_pending (collection TEXT NOT NULL, object_id TEXT NOT NULL, queued_at BIGINT NOT NULL, PRIMARY KEY (collection, object_id))`.execute(
        db,
      )
      await sql`INSERT INTO substring_pending VALUES ('people', 'p1', 10), ('people', 'p2', 20), ('pets', 'x1', 30)`.execute(
        db,
      )
      expect(await migrate(db, database.dialect)).toEqual([9])
      const store = createSqlStore(database)
      expect(await store.substring.countPending('people')).toBe(2)
      const queued = await store.substring.pending(undefined, 10)
      expect(
        queued
          .map((q) => [q.collection, q.objectIds, q.queuedAt])
          .sort((a, b) => Number(a[2]) - Number(b[2])),
      ).toEqual([
        ['people', ['p1'], 10],
        ['people', ['p2'], 20],
        ['pets', ['x1'], 30],
      ])
      await store.substring.replaceGrams(
        'people',
        [],
        queued.filter((q) => q.collection === 'people').map((q) => q.key),
      )
      expect(await store.substring.countPending('people')).toBe(0)
      expect(await store.substring.countPending('pets')).toBe(1)
      await store.close()
    })
  })
}
