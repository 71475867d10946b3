// test/storage/postgres.test.ts: the Store contract on PostgreSQL, and concurrent migrations
import { afterAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../src/storage/database.ts'
import {
  currentVersion,
  latestVersion,
  loadMigrations,
  migrate,
} from '../../src/storage/migrate.ts'
import { createTestDatabase, findTestPostgres } from '../helpers/postgres.ts'
import { openTestStore } from '../helpers/store.ts'
import { describeStoreContract } from './contract.ts'
import { describeObjectsContract } from './contract-objects.ts'
import { describeQueueMigration } from './queue-migration.ts'

const url = await findTestPostgres()
const drops: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const drop of drops) await drop()
})

describe.skipIf(url === undefined)('PostgreSQL', () => {
  describeStoreContract('PostgreSQL', async () => {
    const { options, drop } = await createTestDatabase(url as string)
    drops.push(drop)
    return openTestStore(options)
  })

  describeObjectsContract('PostgreSQL', async () => {
    const { options, drop } = await createTestDatabase(url as string)
    drops.push(drop)
    return openTestStore(options)
  })

  describeQueueMigration('PostgreSQL', async () => {
    const { options, drop } = await createTestDatabase(url as string)
    drops.push(drop)
    return options
  })

  it('migrates one database from several nodes at once, each migration exactly once', async () => {
    const { options, drop } = await createTestDatabase(url as string)
    drops.push(drop)
    const nodes = Array.from({ length: 4 }, () => openDatabase(options))
    const applied = await Promise.all(nodes.map((node) => migrate(node.db, node.dialect)))
    expect(applied.flat().sort((a, b) => a - b)).toEqual(
      loadMigrations('postgres').map((m) => m.version),
    )
    const [first] = nodes
    if (first === undefined) throw new Error('no node')
    expect(await currentVersion(first.db)).toBe(latestVersion('postgres'))
    await Promise.all(nodes.map((node) => node.db.destroy()))
  })
})
