// test/api/objects-search-scan.test.ts: match and in on properties without a blind index, found by a scan (data-model §5.2)
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SCAN_BATCH } from '../../src/core/objects/paging.ts'
import { expectError } from '../helpers/collections.ts'
import { testContext } from '../helpers/context.ts'
import { describeEngines } from '../helpers/engines.ts'
import { apiKeyOf, setIam } from '../helpers/iam.ts'
import { addCollection, type ObjectsApi, objectsOf, ok } from '../helpers/objects.ts'
import { findTestPostgres } from '../helpers/postgres.ts'
import { sharedDatabase, startTestServer, type TestServer } from '../helpers/server.ts'

const pgUrl = await findTestPostgres()

/** `login`, `rank` and `prefs` are encrypted without `is_index`: searching them scans. */
const MEMBERS = {
  name: 'members',
  type: 'PERSONS',
  properties: [
    { name: 'label', data_type_name: 'STRING', is_encrypted: false },
    { name: 'login', data_type_name: 'EMAIL_STRICT', is_nullable: true },
    { name: 'rank', data_type_name: 'INTEGER', is_nullable: true },
    { name: 'team', data_type_name: 'STRING', is_index: true },
    { name: 'prefs', data_type_name: 'JSON', is_nullable: true },
  ],
}

/** More objects than two scan batches, so pages and cursors cross batch boundaries. */
const COUNT = SCAN_BATCH * 2 + 200

type Member = { label: string; login?: string; rank: number; team: string; prefs?: unknown }

function member(i: number): Member {
  return {
    label: `m${i}`,
    // Every 10th member has no login: `null` in a query matches them.
    ...(i % 10 === 9 ? {} : { login: `user${i}@example.com` }),
    rank: i % 3,
    team: i % 2 === 0 ? 'even' : 'odd',
    ...(i === 5 ? { prefs: { theme: 'dark', size: 2 } } : {}),
  }
}

async function addMembers(api: ObjectsApi, from: number, to: number, query = '') {
  for (let start = from; start < to; start += 400) {
    const items = Array.from({ length: Math.min(400, to - start) }, (_, i) => member(start + i))
    const added = await ok(api.addMany(items, query))
    expect(added.ok).toBe(true)
  }
}

const labels = (page: { results: { label: string }[] }) => page.results.map((r) => r.label)

describeEngines('search by scanning', (engine) => {
  let server: TestServer
  let members: ObjectsApi
  /** Every label in creation order, as a list reads them. */
  const order: string[] = []
  const search = (body: unknown, query = 'props=label') => members.search(body, query)
  /** The labels of a search's every page, following cursors; checks each page's counts. */
  async function allPages(body: unknown, pageSize: number): Promise<string[]> {
    const found: string[] = []
    let cursor = ''
    do {
      const page = await ok(search(body, `props=label&page_size=${pageSize}&cursor=${cursor}`))
      found.push(...labels(page))
      cursor = page.paging.cursor
      expect(page.paging.size).toBe(page.results.length)
      expect(page.paging.remaining_count).toBe(expectedRemaining(body, found.length))
      expect(cursor === '').toBe(page.paging.remaining_count === 0)
    } while (cursor !== '')
    return found
  }
  const expected = new Map<string, string[]>()
  const expectedRemaining = (body: unknown, seen: number) =>
    (expected.get(JSON.stringify(body))?.length ?? 0) - seen

  beforeAll(async () => {
    server = await startTestServer({ engine })
    await addCollection(server, MEMBERS)
    members = objectsOf(server, 'members')
    await addMembers(members, 0, COUNT)
    for (let cursor = ''; ; ) {
      const page = await ok(members.list(`props=label&page_size=1000&cursor=${cursor}`))
      order.push(...labels(page))
      cursor = page.paging.cursor
      if (cursor === '') break
    }
  })
  afterAll(() => server.close())

  const where = (keep: (m: Member) => boolean) =>
    order.filter((label) => keep(member(Number(label.slice(1)))))

  it('matches an encrypted property without an index on its normalized value', async () => {
    expect(order).toHaveLength(COUNT)
    expect(labels(await ok(search({ match: { login: 'User7+news@Example.COM' } })))).toEqual(['m7'])
    expect(labels(await ok(search({ match: { login: 'nobody@example.com' } })))).toEqual([])
    const some = await ok(search({ in: { login: ['user3@example.com', 'USER1000@example.com'] } }))
    expect(labels(some)).toEqual(['m3', 'm1000'])
  })

  it('matches null as no value, and JSON values equal as JSON', async () => {
    const body = { match: { login: null } }
    expected.set(
      JSON.stringify(body),
      where((m) => m.login === undefined),
    )
    expect(await allPages(body, 1000)).toEqual(expected.get(JSON.stringify(body)))
    const prefs = await ok(search({ match: { prefs: { size: 2, theme: 'dark' } } }))
    expect(labels(prefs)).toEqual(['m5'])
    expect(labels(await ok(search({ match: { prefs: { size: 3, theme: 'dark' } } })))).toEqual([])
  })

  it('pages a scan across batches with cursors and exact remaining counts', async () => {
    const body = { match: { rank: 0 } }
    expected.set(
      JSON.stringify(body),
      where((m) => m.rank === 0),
    )
    const found = await allPages(body, 150)
    expect(found).toEqual(expected.get(JSON.stringify(body)))
    expect(found.length).toBeGreaterThan(300)
    const inBody = { in: { rank: [2, 7] } }
    expected.set(
      JSON.stringify(inBody),
      where((m) => m.rank === 2),
    )
    expect(await allPages(inBody, 333)).toEqual(expected.get(JSON.stringify(inBody)))
  })

  it('combines a scan with indexed, plain and id conditions', async () => {
    const body = { match: { team: 'odd', rank: 1 } }
    expected.set(
      JSON.stringify(body),
      where((m) => m.team === 'odd' && m.rank === 1),
    )
    expect(await allPages(body, 100)).toEqual(expected.get(JSON.stringify(body)))
    const plain = await ok(search({ match: { label: 'm30', rank: 0 } }))
    expect(labels(plain)).toEqual(['m30'])
    expect(labels(await ok(search({ match: { label: 'm30', rank: 1 } })))).toEqual([])
    const ids = (await ok(search({ in: { label: ['m1', 'm2', 'm4'] } }, 'props=id,label'))).results
    const byId = await ok(search({ in: { id: ids.map((r: { id: string }) => r.id), rank: [1] } }))
    expect(labels(byId).sort()).toEqual(['m1', 'm4'])
  })

  it('refuses values of the wrong type and still refuses transformation bindings', async () => {
    await expectError(await search({ match: { rank: 'high' } }), 400, 'ERR1012')
    await expectError(await search({ match: { login: 'not an address' } }), 400, 'ERR3002')
    await expectError(await search({ match: { 'login.mask': 'x' } }), 400, 'ERR1012')
  })

  it('scans archived objects only with options=archived', async () => {
    const [id] = (await ok(search({ match: { label: 'm11' } }, 'props=id'))).results
    await ok(members.remove(id.id))
    expect(labels(await ok(search({ match: { login: 'user11@example.com' } })))).toEqual([])
    const archived = await ok(
      search({ match: { login: 'user11@example.com' } }, 'props=label&options=archived'),
    )
    expect(labels(archived)).toEqual(['m11'])
    expect(
      labels(await ok(search({ match: { rank: 2 } }, 'props=label&options=archived'))),
    ).toEqual(['m11'])
  })
})

describeEngines('search by scanning, tenants and policies', (engine) => {
  let server: TestServer
  let members: ObjectsApi
  const t = (ids: string) => ({ headers: { 'x-tenant-id': ids } })
  beforeAll(async () => {
    server = await startTestServer({ engine })
    await addCollection(server, MEMBERS)
    members = objectsOf(server, 'members')
    await addMembers(members, 0, 40, '')
    for (const [tenant, i] of [
      ['t1', 100],
      ['t2', 101],
      ['t1', 102],
    ] as const)
      await ok(members.add({ ...member(i), login: 'shared@example.com', _tenant_id: tenant }))
  })
  afterAll(() => server.close())

  it('finds only the request tenants objects', async () => {
    const body = { match: { login: 'shared@example.com' } }
    const one = await ok(members.search(body, 'props=label', t('t1')))
    expect(labels(one)).toEqual(['m100', 'm102'])
    expect(labels(await ok(members.search(body, 'props=label', t('t2'))))).toEqual(['m101'])
    expect(labels(await ok(members.search(body, 'props=label', t('t3'))))).toEqual([])
    expect(labels(await ok(members.search(body, 'props=label')))).toHaveLength(3)
  })

  it('needs the search policy on the scanned property, not read', async () => {
    const allow = (name: string, operations: string[], resources: string[]) =>
      `[policies.${name}]\npolicy_type = "allow"\noperations = ${JSON.stringify(operations)}\nreasons = ["*"]\nresources = ${JSON.stringify(resources)}\n`
    await setIam(
      server,
      `[users.Clerk]\nrole = "Clerk"\n[roles.Clerk]\ncapabilities = ["CapDataSearcher"]\npolicies = ["*"]\n${[
        allow('PolReadLabel', ['read'], ['members/properties/label']),
        allow('PolSearchRank', ['search'], ['members/properties/rank']),
      ].join('\n')}`,
    )
    const clerk = { token: await apiKeyOf(server, 'Clerk') }
    const byRank = await ok(members.search({ match: { rank: 1 } }, 'props=label', clerk))
    expect(labels(byRank)).toHaveLength(14)
    const denied = await members.search(
      { match: { login: 'user1@example.com' } },
      'props=label',
      clerk,
    )
    const error = await expectError(denied, 403, 'ERR1006')
    expect(JSON.stringify(error)).not.toContain('user1@example.com')
  })
})

describe('a scan past the call timeout', () => {
  // One database, written by a server with the default timeout, searched by another.
  const drops: (() => Promise<void>)[] = []
  afterAll(async () => {
    for (const drop of drops) await drop()
  })

  for (const engine of ['sqlite', 'postgres'] as const) {
    it.skipIf(engine === 'postgres' && pgUrl === undefined)(
      `ends with 503 ERR1009 on ${engine}`,
      async () => {
        const database = await sharedDatabase(engine)
        drops.push(() => database.drop())
        const writer = await startTestServer({ env: database.env })
        await addCollection(writer, MEMBERS)
        await addMembers(objectsOf(writer, 'members'), 0, SCAN_BATCH * 6)
        await writer.close()
        const hasty = await startTestServer({
          env: { ...database.env, SVC_SERVICE_TIMEOUT_SECONDS: '0.001' },
        })
        const res = await objectsOf(hasty, 'members').search(
          { match: { login: 'nobody@example.com' } },
          'props=label',
        )
        await expectError(res, 503, 'ERR1009')
        // The scan itself stops at its deadline: an already expired call reads nothing.
        const controller = new AbortController()
        controller.abort(new Error('time is up'))
        const ctx = testContext(undefined, { signal: controller.signal })
        await expect(
          hasty.app.services.objects.search(
            ctx,
            'members',
            { match: { login: 'nobody@example.com' } },
            { props: ['label'], options: [] },
          ),
        ).rejects.toThrow('time is up')
        await hasty.close()
      },
    )
  }
})
