// test/api/collections-cache.test.ts: two nodes on one PostgreSQL: a schema change on one reaches the other's cache
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { App } from '../../src/app.ts'
import { findTestPostgres } from '../helpers/postgres.ts'
import { API, sharedPostgres, startTestServer, type TestServer } from '../helpers/server.ts'

const pgUrl = await findTestPostgres()

/** A data-plane route that answers from the node's cache, as data operations will. */
function cachedRoute(app: App): void {
  app.server.get(
    `${API}/data/test/cached/:name`,
    { config: { operation: 'count_objects' } },
    async (req) => {
      const { name } = req.params as { name: string }
      return { names: app.services.collections.getCached(name)?.properties.map((p) => p.name) }
    },
  )
}

describe.skipIf(pgUrl === undefined)('control-data cache across nodes', () => {
  let a: TestServer
  let b: TestServer
  let c: TestServer
  let drop: () => Promise<void>
  beforeAll(async () => {
    const database = await sharedPostgres()
    drop = database.drop
    const { env } = database
    a = await startTestServer({ env })
    // B refreshes only when told to (default 30 s interval); C every 200 ms.
    b = await startTestServer({ env, routes: cachedRoute })
    c = await startTestServer({ env: { ...env, SVC_SERVICE_CACHE_REFRESH_INTERVAL: '200ms' } })
  })
  afterAll(async () => {
    await a?.close()
    await b?.close()
    await c?.close()
    await drop?.()
  })

  const cachedOnB = (name: string) => b.app.services.collections.getCached(name)

  it('shows node A a change made on A at once', async () => {
    const res = await a.request('POST', `${API}/ctl/collections`, {
      body: {
        name: 'people',
        type: 'PERSONS',
        properties: [{ name: 'ssn', data_type_name: 'SSN' }],
      },
    })
    expect(res.status).toBe(200)
    expect(a.app.services.collections.getCached('people')?.properties).toHaveLength(1)
  })

  it('shows node B the change after its refresh sees the new generation', async () => {
    expect(cachedOnB('people')).toBeUndefined()
    await b.app.services.cache.refresh()
    expect(cachedOnB('people')?.properties.map((p) => p.name)).toEqual(['ssn'])
  })

  it('reloads node B on reload_cache=true of a data operation', async () => {
    await a.request('POST', `${API}/ctl/collections/people/properties/email`, {
      body: { name: 'email', data_type_name: 'EMAIL', is_nullable: true },
    })
    const path = `${API}/data/test/cached/people?reason=AppFunctionality`
    expect(await (await b.request('GET', path)).json()).toEqual({ names: ['ssn'] })
    const res = await b.request('GET', `${path}&reload_cache=true`)
    expect(await res.json()).toEqual({ names: ['ssn', 'email'] })
  })

  it('picks changes up on the interval refresh of node C', async () => {
    const cachedOnC = (name: string) => c.app.services.collections.getCached(name)
    await vi.waitFor(() => expect(cachedOnC('people')?.properties).toHaveLength(2), {
      timeout: 5000,
    })
    await a.request('DELETE', `${API}/ctl/collections/people`)
    await vi.waitFor(() => expect(cachedOnC('people')).toBeUndefined(), { timeout: 5000 })
    await a.request('POST', `${API}/ctl/collections`, { body: { name: 'orders', type: 'DATA' } })
    await vi.waitFor(() => expect(cachedOnC('orders')).toBeDefined(), { timeout: 5000 })
    expect(cachedOnB('orders')).toBeUndefined()
  })

  it('lets control reads on node B see the store directly, without waiting for the cache', async () => {
    await a.request('POST', `${API}/ctl/collections`, { body: { name: 'fresh', type: 'DATA' } })
    const res = await b.request('GET', `${API}/ctl/collections/fresh`)
    expect(res.status).toBe(200)
  })
})
