// test/api/objects-gc.test.ts: garbage collection and the background prune job (endpoints §10, config.md GC variables)
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectError } from '../helpers/collections.ts'
import { describeEngines } from '../helpers/engines.ts'
import { apiKeyOf } from '../helpers/iam.ts'
import { addCollection, addObject, objectsOf, ok, PEOPLE, testClock } from '../helpers/objects.ts'
import { API, type Engine, startTestServer, type TestServer } from '../helpers/server.ts'

const GC = `${API}/system/admin/lifecycle/gc`
const NOTES = {
  name: 'notes',
  type: 'DATA',
  properties: [{ name: 'text', data_type_name: 'STRING' }],
}

const dirs: string[] = []
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
})

/** GC is refused in memory mode, so SQLite runs on a file here. */
async function storeEnv(engine: Engine): Promise<Record<string, string>> {
  if (engine === 'postgres') return {}
  const dir = await mkdtemp(join(tmpdir(), 'strongroom-gc-'))
  dirs.push(dir)
  return { SVC_BACKING_STORE: 'sqlite', SVC_DATA_DIR: dir }
}

type Count = { collection_name: string; collection_type: string; count: number }
const sorted = (counts: Count[]) =>
  [...counts].sort((a, b) => a.collection_name.localeCompare(b.collection_name))

describeEngines('garbage collection', (engine) => {
  let server: TestServer
  const clock = testClock()
  const gc = (query = '', token?: string) =>
    server.request('POST', `${GC}?reason=Maintenance${query ? `&${query}` : ''}`, { token })
  beforeAll(async () => {
    server = await startTestServer({
      engine,
      clock: clock.now,
      env: {
        ...(await storeEnv(engine)),
        SVC_DB_GC_RETENTION_PERIOD: '1h',
        SVC_DB_GC_BATCH_SIZE: '3',
      },
    })
    await addCollection(server, PEOPLE)
    await addCollection(server, NOTES)
  })
  afterAll(() => server.close())

  it('removes archived objects older than the retention period, at most a batch per call', async () => {
    const people = objectsOf(server, 'people')
    const notes = objectsOf(server, 'notes')
    const kept = await addObject(people, { name: 'Kept', ssn: '500-10-0001' })
    for (let i = 0; i < 3; i++) {
      const id = await addObject(people, { name: `Old ${i}`, ssn: `500-10-100${i}` })
      await ok(people.remove(id))
    }
    await ok(notes.remove(await addObject(notes, { text: 'old' })))
    clock.advanceSeconds(1800)
    expect(await ok(gc())).toEqual([])
    clock.advanceSeconds(3600)
    const dry = await ok(gc('dry_run=true'))
    expect(dry.reduce((sum: number, c: Count) => sum + c.count, 0)).toBe(3)
    expect((await ok(people.count())).archived).toBe(3)
    const first = sorted(await ok(gc('filter=objects_only')))
    const second = sorted(await ok(gc()))
    const total = [...first, ...second].reduce((sum, c) => sum + c.count, 0)
    expect(total).toBe(4)
    expect(first.map((c) => c.collection_type)).toEqual(
      first.map((c) => (c.collection_name === 'people' ? 'PERSONS' : 'DATA')),
    )
    expect(await ok(people.count())).toEqual({ active: 1, archived: 0, total: 1 })
    expect(await ok(gc())).toEqual([])
    await ok(people.get(kept))
  })

  it('collects nothing for tokens and transaction IDs (none exist yet)', async () => {
    expect(await ok(gc('filter=tokens_only'))).toEqual([])
    expect(await ok(gc('filter=transaction_ids_only'))).toEqual([])
    await expectError(await gc('filter=everything'), 400, 'ERR1012')
    await expectError(await gc('dry_run=maybe'), 400, 'ERR1012')
  })

  it('needs a reason and the CapSystemGCRunner capability', async () => {
    await expectError(await server.request('POST', GC), 400, 'ERR1001')
    const webapp = await apiKeyOf(server, 'Webapp')
    await expectError(await gc('', webapp), 403, 'ERR1007')
    await ok(gc('', await apiKeyOf(server, 'SecurityAdmin')))
  })
})

describe('prune job and in-memory mode', () => {
  it('prunes archived objects every SVC_SERVICE_ARCHIVE_PRUNE_INTERVAL', async () => {
    const clock = testClock()
    const server = await startTestServer({
      clock: clock.now,
      env: {
        ...(await storeEnv('sqlite')),
        SVC_DB_GC_RETENTION_PERIOD: '1s',
        SVC_SERVICE_ARCHIVE_PRUNE_INTERVAL: '20ms',
      },
    })
    await addCollection(server, NOTES)
    const notes = objectsOf(server, 'notes')
    await ok(notes.remove(await addObject(notes, { text: 'old' })))
    clock.advanceSeconds(5)
    for (let i = 0; i < 100 && (await ok(notes.count())).total > 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 20))
    expect(await ok(notes.count())).toEqual({ active: 0, archived: 0, total: 0 })
    await server.close()
  })

  it('refuses garbage collection in memory mode with 405 ERR1026', async () => {
    const server = await startTestServer()
    const res = await server.request('POST', `${GC}?reason=Maintenance`)
    await expectError(res, 405, 'ERR1026')
    await server.close()
  })
})
