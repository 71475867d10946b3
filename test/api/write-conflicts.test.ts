// test/api/write-conflicts.test.ts: concurrent writes that lock the same rows in other orders answer as if run in turn, on both engines
import { afterAll, beforeAll, expect, it } from 'vitest'
import { describeEngines } from '../helpers/engines.ts'
import { addCollection, objectsOf, ok } from '../helpers/objects.ts'
import { deadlocksIn } from '../helpers/postgres.ts'
import { API, sharedDatabase, startTestServer, type TestServer } from '../helpers/server.ts'

// PostgreSQL detects a deadlock between such writes and rolls one of them back (40P01); the
// service runs that one again instead of answering 500.

const CALLS = 8
const ROUNDS = 6

const collection = (name: string) => ({
  name,
  type: 'PERSONS',
  properties: [
    { name: 'email', data_type_name: 'EMAIL', is_unique: true, is_nullable: true },
    { name: 'ssn', data_type_name: 'SSN', is_index: true, is_nullable: true },
    { name: 'name', data_type_name: 'STRING', is_substring_index: true, is_nullable: true },
  ],
})

/** The k-th call's order of the items: reversed, rotated, interleaved. */
function orderOf<T>(items: readonly T[], k: number): T[] {
  const rotated = [...items.slice(k * 5), ...items.slice(0, k * 5)]
  return k % 2 === 0 ? rotated : rotated.reverse()
}

describeEngines('concurrent conflicting writes', (engine) => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ engine })
  })
  afterAll(() => server.close())

  it('bulk adds sharing unique values in other orders: each value held by one object, no 5xx', async () => {
    await addCollection(server, collection('shared'))
    const people = objectsOf(server, 'shared')
    for (let round = 0; round < ROUNDS; round++) {
      const emails = Array.from({ length: 40 }, (_, i) => `r${round}-${i}@example.com`)
      const responses = await Promise.all(
        Array.from({ length: CALLS }, (_, k) =>
          people.addMany(
            orderOf(emails, k).map((email) => ({ email, ssn: '123-45-6789', name: `N ${email}` })),
          ),
        ),
      )
      const bodies = await Promise.all(
        responses.map(async (res) => ({ status: res.status, body: await res.json() })),
      )
      expect(bodies.filter((r) => r.status !== 200)).toEqual([])
      // A bulk add is all or nothing: one call wins the values, the others fail item by item.
      expect(bodies.filter((r) => r.body.ok === true)).toHaveLength(1)
      for (const email of [emails[0], emails[17], emails[39]]) {
        const found = await ok(people.search({ match: { email } }, 'props=id'))
        expect(found.results).toHaveLength(1)
      }
    }
  })

  it('bulk updates of the same objects in other orders: each answers, one value per object', async () => {
    await addCollection(server, collection('updated'))
    const people = objectsOf(server, 'updated')
    const added = await ok(
      people.addMany(Array.from({ length: 40 }, (_, i) => ({ email: `u${i}@example.com` }))),
    )
    const ids: string[] = added.results.map((r: { id: string }) => r.id)
    for (let round = 0; round < ROUNDS; round++) {
      const responses = await Promise.all(
        Array.from({ length: CALLS }, (_, k) =>
          people.updateMany(
            orderOf(ids, k).map((id) => ({ id, name: `round ${round} call ${k}` })),
          ),
        ),
      )
      const bodies = await Promise.all(
        responses.map(async (res) => ({ status: res.status, body: await res.json() })),
      )
      expect(bodies.filter((r) => r.status !== 200)).toEqual([])
      // A batch that read an object another batch then changed fails whole, its items 409
      // ERR3218 (endpoints §3.7); one that succeeds wrote every object.
      const errors = bodies.flatMap((r) =>
        r.body.results.flatMap((item: { error?: { error_code: string } }) =>
          item.error === undefined ? [] : [item.error.error_code],
        ),
      )
      expect(new Set(errors).size <= 1 && errors.every((code) => code === 'ERR3218')).toBe(true)
      const winners = bodies.flatMap((r, k) => (r.body.ok === true ? [k] : []))
      expect(winners.length).toBeGreaterThan(0)
      const listed = await ok(people.list(`props=name&ids=${ids.join(',')}`))
      const names = new Set(listed.results.map((r: { name: string }) => r.name))
      expect(names.size).toBe(1)
      expect(winners.map((k) => `round ${round} call ${k}`)).toContain([...names][0])
    }
  })

  it('bulk updates while re-encryption rewrites the same objects: no 5xx', async () => {
    // Re-encryption after each rotation at once (no pause, no cache refresh to wait for).
    // A file or database: an in-memory node refuses rotation.
    const database = await sharedDatabase(engine)
    const node = await startTestServer({
      env: {
        ...database.env,
        SVC_KMS_REENCRYPT_PAUSE: '0',
        SVC_SERVICE_CACHE_REFRESH_INTERVAL: '0',
        SVC_SERVICE_TIMEOUT_SECONDS: '3',
      },
    })
    try {
      await addCollection(node, collection('rotated'))
      const people = objectsOf(node, 'rotated')
      const ids: string[] = []
      for (let i = 0; i < 5; i++) {
        const body = await ok(
          people.addMany(Array.from({ length: 200 }, (_, j) => ({ name: `n${i}-${j}` }))),
        )
        ids.push(...body.results.map((r: { id: string }) => r.id))
      }
      let isRotating = true
      const statuses: number[] = []
      const updater = async (k: number) => {
        for (let round = 0; isRotating; round++) {
          const start = ((k * 7 + round) * 37) % ids.length
          const batch = orderOf([...ids.slice(start), ...ids.slice(0, start)].slice(0, 100), k)
          const res = await people.updateMany(batch.map((id) => ({ id, name: `u${k}` })))
          statuses.push(res.status)
          await res.text()
        }
      }
      const rotator = async () => {
        for (let i = 0; i < 3; i++) {
          await ok(node.request('POST', `${API}/system/admin/keys/rotate`))
          for (;;) {
            const state = await ok(node.request('GET', `${API}/system/admin/keys/rotation`))
            if (state.status === 'done') break
            await new Promise((resolve) => setTimeout(resolve, 50))
          }
        }
        isRotating = false
      }
      await Promise.all([rotator(), updater(0), updater(1), updater(2)])
      expect(statuses.length).toBeGreaterThan(0)
      expect(statuses.filter((status) => status !== 200)).toEqual([])
      // Both write the objects in ID order: they wait for each other, none is rolled back.
      const name = database.env.SVC_DB_NAME
      if (name !== undefined) {
        await new Promise((resolve) => setTimeout(resolve, 1500))
        expect(await deadlocksIn(name)).toBe(0)
      }
    } finally {
      await node.close()
      await database.drop()
    }
  })

  it('schema changes of one collection at once: each answers 200 or a 4xx, none 5xx', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const name = `schema${round}`
      await addCollection(server, collection(name))
      const people = objectsOf(server, name)
      await ok(
        people.addMany(
          Array.from({ length: 20 }, (_, i) => ({
            email: `s${i}@example.com`,
            ssn: '123-45-6789',
          })),
        ),
      )
      const base = `${API}/ctl/collections/${name}`
      const updated = collection(name)
      updated.properties.push({
        name: 'extra',
        data_type_name: 'STRING',
        is_unique: false,
        is_nullable: true,
      })
      const calls: [string, string, unknown?][] = [
        ...Array.from({ length: 3 }, (): [string, string, unknown] => ['PATCH', base, updated]),
        ...Array.from({ length: 3 }, (_, k): [string, string, unknown] => [
          'POST',
          `${base}/properties/p${k}`,
          { name: `p${k}`, data_type_name: 'STRING', is_nullable: true },
        ]),
        ['DELETE', `${base}/properties/ssn`],
        ['DELETE', `${base}/properties/ssn`],
        ['DELETE', base],
        ['DELETE', base],
      ]
      const answers = await Promise.all(
        calls.map(async ([method, path, body]) => {
          const res = await server.request(method, path, { body })
          return { method, path, status: res.status, body: await res.json().catch(() => '') }
        }),
      )
      for (const answer of answers) {
        expect(answer.status, JSON.stringify(answer)).toBeLessThan(500)
        if (answer.status !== 200) expect(answer.body.error_code).toMatch(/^ERR\d{4}$/)
      }
      const deleted = answers.filter((a) => a.method === 'DELETE' && a.path === base)
      expect(deleted.map((a) => a.status).sort()).toEqual([200, 404])
      expect((await server.request('GET', base)).status).toBe(404)
    }
  })
})
