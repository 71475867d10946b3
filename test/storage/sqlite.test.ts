// test/storage/sqlite.test.ts: the Store contract on SQLite, in memory and in a WAL file
import { mkdtemp, open, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../src/storage/database.ts'
import { openSqlite } from '../../src/storage/dialects/sqlite.ts'
import { sql } from '../../src/storage/kysely.ts'
import { latestVersion, migrate } from '../../src/storage/migrate.ts'
import { openTestStore } from '../helpers/store.ts'
import { describeStoreContract } from './contract.ts'
import { describeObjectsContract } from './contract-objects.ts'
import { describeQueueMigration } from './queue-migration.ts'

const dir = await mkdtemp(join(tmpdir(), 'strongroom-sqlite-'))
afterAll(() => rm(dir, { recursive: true, force: true }))

describeStoreContract('SQLite in memory', () => openTestStore())
describeObjectsContract('SQLite in memory', () => openTestStore())
describeObjectsContract('SQLite file', () =>
  openTestStore({ kind: 'sqlite', file: join(dir, 'objects.db') }),
)
describeStoreContract('SQLite file', () =>
  openTestStore({ kind: 'sqlite', file: join(dir, 'contract.db') }),
)

describeQueueMigration('SQLite', async () => ({ kind: 'sqlite', file: join(dir, 'queue.db') }))

describe('SQLite migrations', () => {
  it('applies every migration once and nothing on a second run', async () => {
    const database = openDatabase({ kind: 'sqlite', file: join(dir, 'migrate.db') })
    const first = await migrate(database.db, database.dialect)
    expect(first.at(-1)).toBe(latestVersion('sqlite'))
    expect(await migrate(database.db, database.dialect)).toEqual([])
    await database.db.destroy()
  })

  it('refuses to migrate a database that holds unknown tables', async () => {
    const database = openDatabase({ kind: 'sqlite', file: join(dir, 'foreign.db') })
    await database.db.schema.createTable('someone_elses').addColumn('x', 'integer').execute()
    await expect(migrate(database.db, database.dialect)).rejects.toThrow(/not empty/)
    await database.db.destroy()
  })
})

describe('SQLite durability', () => {
  /** A WAL sync that, while held, waits for `release` before it syncs the real file. */
  function heldSync() {
    let gate: PromiseWithResolvers<void> | undefined
    const held = {
      calls: 0,
      failWith: undefined as Error | undefined,
      hold: () => {
        gate = Promise.withResolvers<void>()
      },
      release: () => {
        gate?.resolve()
        gate = undefined
      },
    }
    const factory = (file: string) => ({
      async sync() {
        held.calls++
        await gate?.promise
        if (held.failWith !== undefined) throw held.failWith
        const handle = await open(`${file}-wal`, 'r')
        await handle.datasync()
        await handle.close()
      },
      async close() {},
    })
    return { held, factory }
  }
  const settled = async (promise: Promise<unknown>) => {
    let isSettled = false
    void promise.then(
      () => {
        isSettled = true
      },
      () => {
        isSettled = true
      },
    )
    await sleep(30)
    return isSettled
  }

  it('answers a write only once the WAL holding its commit is synced, and says when', async () => {
    const { held, factory } = heldSync()
    const { db, synced } = openSqlite(join(dir, 'held.db'), {}, { synchronous: 'full' }, factory)
    await sql`CREATE TABLE t (k TEXT PRIMARY KEY)`.execute(db)
    const callsBefore = held.calls
    held.hold()
    const write = db.transaction().execute((trx) => sql`INSERT INTO t VALUES ('a')`.execute(trx))
    expect(await settled(write)).toBe(false)
    expect(held.calls).toBe(callsBefore + 1)
    // Committed, not yet synced: a read sees it, and `synced` (which the answer of a call that
    // read waits for) resolves only with the sync.
    expect((await sql<{ k: string }>`SELECT k FROM t`.execute(db)).rows).toEqual([{ k: 'a' }])
    const durable = synced?.() ?? Promise.reject(new Error('a durable file has synced()'))
    expect(await settled(durable)).toBe(false)
    held.release()
    await write
    await durable
    await db.destroy()
  })

  it('fails the callers of a group whose sync fails', async () => {
    const { held, factory } = heldSync()
    const { db } = openSqlite(join(dir, 'failing.db'), {}, { synchronous: 'full' }, factory)
    await sql`CREATE TABLE t (k TEXT PRIMARY KEY)`.execute(db)
    held.hold()
    held.failWith = new Error('EIO: the disk went away')
    const write = db.transaction().execute((trx) => sql`INSERT INTO t VALUES ('a')`.execute(trx))
    await sleep(10)
    held.release()
    await expect(write).rejects.toThrow(/EIO/)
    held.failWith = undefined
    await db.destroy()
  })

  it('makes no sync of its own with SVC_DB_SQLITE_SYNCHRONOUS=normal, nor SQLite one', async () => {
    const { held, factory } = heldSync()
    const { db } = openSqlite(join(dir, 'normal.db'), {}, { synchronous: 'normal' }, factory)
    await sql`CREATE TABLE t (k TEXT PRIMARY KEY)`.execute(db)
    await db.transaction().execute((trx) => sql`INSERT INTO t VALUES ('a')`.execute(trx))
    expect(held.calls).toBe(0)
    const { rows } = await sql<{ synchronous: number }>`PRAGMA synchronous`.execute(db)
    expect(rows[0]?.synchronous).toBe(1)
    await db.destroy()
  })

  it('limits the page cache to the bytes asked for, 8 MiB by default', async () => {
    const cacheOf = async (cacheBytes?: number) => {
      const database = openDatabase({ kind: 'sqlite', file: join(dir, 'cache.db'), cacheBytes })
      const { rows } = await sql<{ cache_size: number }>`PRAGMA cache_size`.execute(database.db)
      await database.db.destroy()
      return rows[0]?.cache_size
    }
    expect(await cacheOf()).toBe(-8192)
    expect(await cacheOf(64 * 1024 * 1024)).toBe(-65536)
  })

  it('commits concurrent transactions together, each with its own outcome', async () => {
    const database = openDatabase({ kind: 'sqlite', file: join(dir, 'group.db') })
    const { db } = database
    await db.schema
      .createTable('t')
      .addColumn('k', 'text', (c) => c.primaryKey())
      .execute()
    // Ten transactions in one turn; the third writes a row, then a key the first already took,
    // and fails: its first row must go with it, and nobody else's.
    const keys = ['a', 'b', 'a', 'c', 'd', 'e', 'f', 'g', 'h', 'i']
    const outcomes = await Promise.allSettled(
      keys.map((k, i) =>
        db.transaction().execute(async (trx) => {
          await trx
            .insertInto('t' as never)
            .values({ k: `${k}-${i}` } as never)
            .execute()
          await trx
            .insertInto('t' as never)
            .values({ k } as never)
            .execute()
        }),
      ),
    )
    expect(outcomes.map((o) => o.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      ...Array(7).fill('fulfilled'),
    ])
    await db.destroy()
    // Reopened: every fulfilled transaction is there in full, nothing of the failed one.
    const again = openDatabase({ kind: 'sqlite', file: join(dir, 'group.db') })
    const rows = await again.db
      .selectFrom('t' as never)
      .select('k' as never)
      .execute()
    const stored = rows.map((row) => (row as { k: string }).k).sort()
    const expected = keys.flatMap((k, i) => (i === 2 ? [] : [k, `${k}-${i}`]))
    expect(stored).toEqual(expected.sort())
    await again.db.destroy()
  })
})
