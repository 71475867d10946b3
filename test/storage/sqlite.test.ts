// test/storage/sqlite.test.ts: the Store contract on SQLite, in memory and in a WAL file
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../src/storage/database.ts'
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
