// test/api/tokens-gc.test.ts: garbage collection of archived tokens and unused transaction IDs (endpoints §10)
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { expectError } from '../helpers/collections.ts'
import { describeEngines } from '../helpers/engines.ts'
import { addCollection, ok, testClock } from '../helpers/objects.ts'
import { API, type Engine, type Json, startTestServer, type TestServer } from '../helpers/server.ts'
import { CARDS, tokensOf } from '../helpers/tokens.ts'

const GC = `${API}/system/admin/lifecycle/gc`
const dirs: string[] = []
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
})

/** GC is refused in memory mode, so SQLite runs on a file here. */
async function storeEnv(engine: Engine): Promise<Record<string, string>> {
  if (engine === 'postgres') return {}
  const dir = await mkdtemp(join(tmpdir(), 'strongroom-tokens-gc-'))
  dirs.push(dir)
  return { SVC_BACKING_STORE: 'sqlite', SVC_DATA_DIR: dir }
}

const total = (counts: Json[]) => counts.reduce((sum: number, c: Json) => sum + c.count, 0)

describeEngines('tokens garbage collection', (engine) => {
  let server: TestServer
  const clock = testClock()
  const gc = (query = '') => server.request('POST', `${GC}?reason=Maintenance&${query}`)
  beforeAll(async () => {
    server = await startTestServer({
      engine,
      clock: clock.now,
      env: { ...(await storeEnv(engine)), SVC_DB_GC_RETENTION_PERIOD: '1h' },
    })
    await addCollection(server, CARDS)
  })
  afterAll(() => server.close())

  it('removes archived tokens past retention, then their transaction IDs', async () => {
    const tokens = tokensOf(server, 'cards')
    const item = { type: 'randomized', object: { fields: { name: 'Gone' } } }
    const gone = await ok(tokens.tokenize([item, item], 'transaction_id=tx-gone'))
    const [kept] = await ok(tokens.tokenize([item], 'transaction_id=tx-kept'))
    await ok(tokens.remove(gone.map((t: Json) => `token_ids=${t.token_id}`).join('&')))
    clock.advanceSeconds(1800)
    expect(await ok(gc('filter=tokens_only'))).toEqual([])
    clock.advanceSeconds(3600)
    const dry = await ok(gc('filter=tokens_only&dry_run=true'))
    expect(dry).toEqual([{ collection_name: 'cards', collection_type: 'TOKENS', count: 2 }])
    expect((await ok(tokens.count())).archived).toBe(2)
    expect(await ok(gc('filter=transaction_ids_only'))).toEqual([])
    expect(await ok(gc('filter=tokens_only'))).toEqual(dry)
    expect(await ok(tokens.count())).toEqual({ active: 1, archived: 0, total: 1 })
    const orphans = await ok(gc('filter=transaction_ids_only&dry_run=true'))
    expect(orphans).toEqual([
      { collection_name: 'cards', collection_type: 'TRANSACTION_IDS', count: 1 },
    ])
    expect(await ok(tokens.transaction('tx-gone'))).toEqual({ ref_ids: [] })
    expect(total(await ok(gc('filter=transaction_ids_only')))).toBe(1)
    await expectError(await tokens.transaction('tx-gone'), 404, 'ERR3009')
    expect(await ok(tokens.transaction('tx-kept'))).toEqual({ ref_ids: [kept.token_id] })
    expect(await ok(gc())).toEqual([])
  })
})
