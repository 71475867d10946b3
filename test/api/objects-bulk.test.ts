// test/api/objects-bulk.test.ts: bulk add, update and delete: all or nothing, per-item results in order (endpoints §3.2, 3.7, 3.9)
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectError } from '../helpers/collections.ts'
import { describeEngines } from '../helpers/engines.ts'
import {
  addCollection,
  addObject,
  type ObjectsApi,
  objectsOf,
  ok,
  PEOPLE,
} from '../helpers/objects.ts'
import { startTestServer, type TestServer } from '../helpers/server.ts'

const ERROR_BODY = {
  error_code: expect.stringMatching(/^ERR\d{4}$/),
  message: expect.stringMatching(/\.$/),
  context: expect.any(Object),
}

describeEngines('bulk objects', (engine) => {
  let server: TestServer
  let people: ObjectsApi
  let serial = 1000
  const person = () => ({ name: 'Bulk Person', ssn: `600-10-${serial++}` })
  beforeAll(async () => {
    server = await startTestServer({
      engine,
      env: { SVC_SERVICE_MAX_PAGE_SIZE: '5', SVC_SERVICE_DEFAULT_PAGE_SIZE: '5' },
    })
    await addCollection(server, PEOPLE)
    people = objectsOf(server, 'people')
  })
  afterAll(() => server.close())

  describe('add', () => {
    it('stores every item and answers their ids in request order', async () => {
      const id = crypto.randomUUID()
      const body = await ok(people.addMany([person(), { ...person(), id }, person()]))
      expect(body.ok).toBe(true)
      expect(body.results).toEqual([
        { ok: true, id: expect.any(String) },
        { ok: true, id },
        { ok: true, id: expect.any(String) },
      ])
      const listed = await ok(
        people.list(`props=id&ids=${body.results.map((r: { id: string }) => r.id).join(',')}`),
      )
      expect(listed.results).toHaveLength(3)
    })

    it('stores nothing when one item fails, and says which and why', async () => {
      const before = await ok(people.count())
      const body = await ok(
        people.addMany([person(), { name: 'Bad', ssn: 'nope' }, { ...person(), nick: 1 }]),
      )
      expect(body).toEqual({
        ok: false,
        results: [
          { ok: true, id: expect.any(String) },
          {
            ok: false,
            error: { ...ERROR_BODY, error_code: 'ERR3002', context: { property: 'ssn' } },
          },
          { ok: false, error: { ...ERROR_BODY, error_code: 'ERR3004' } },
        ],
      })
      expect(await ok(people.count())).toEqual(before)
      await expectError(await people.get(body.results[0].id), 404, 'ERR3005')
    })

    it('fails duplicate ids and unique values within the batch and against stored objects', async () => {
      const taken = await addObject(people, person())
      const id = crypto.randomUUID()
      const same = person()
      const body = await ok(
        people.addMany([
          { ...person(), id },
          { ...person(), id },
          same,
          { ...person(), ssn: same.ssn },
          { ...person(), id: taken },
        ]),
      )
      expect(
        body.results.map(
          (r: { ok: boolean; error?: { error_code: string } }) => r.error?.error_code ?? 'ok',
        ),
      ).toEqual(['ok', 'ERR9001', 'ok', 'ERR9002', 'ERR9001'])
      await expectError(await people.get(id), 404, 'ERR3005')
    })

    it('fails an item whose unique value an active object holds, and writes none', async () => {
      const stored = person()
      await addObject(people, stored)
      const first = person()
      const before = (await server.app.store.audit.list({ limit: 100_000 })).length
      const body = await ok(people.addMany([first, { ...person(), ssn: stored.ssn }]))
      expect(body.ok).toBe(false)
      expect(body.results[1].error.error_code).toBe('ERR9002')
      // Written once plainly, rolled back at the taken value, written again with the checks:
      // still one audit record for the call.
      const events = (await server.app.store.audit.list({ limit: 100_000 })).slice(before)
      expect(events.map((e) => JSON.parse(e.record).status)).toEqual([200])
      const found = await ok(people.search({ match: { ssn: first.ssn } }, 'props=id'))
      expect(found.results).toEqual([])
    })

    it('takes over the unique value of an archived object, writing every item', async () => {
      const archived = person()
      const holder = await addObject(people, archived)
      await ok(people.update(holder, {}, 'expiration_secs=0'))
      const body = await ok(people.addMany([person(), { ...person(), ssn: archived.ssn }]))
      expect(body.ok).toBe(true)
      const found = await ok(people.search({ match: { ssn: archived.ssn } }, 'props=id'))
      expect(found.results).toEqual([{ id: body.results[1].id }])
    })

    it('refuses more items than SVC_SERVICE_MAX_PAGE_SIZE and a body that is not an array', async () => {
      await expectError(await people.addMany(Array.from({ length: 6 }, person)), 400, 'ERR1012')
      await expectError(await people.addMany(person()), 400, 'ERR1012')
      await expectError(await people.addMany([person(), 'x']), 400, 'ERR1012')
      expect(await ok(people.addMany([]))).toEqual({ ok: true, results: [] })
    })

    it('refuses expiration_secs=0', async () => {
      await expectError(await people.addMany([person()], 'expiration_secs=0'), 400, 'ERR1012')
    })
  })

  describe('update', () => {
    it('updates every item, or none when one fails', async () => {
      const a = await addObject(people, person())
      const b = await addObject(people, person())
      expect(
        await ok(
          people.updateMany([
            { id: a, age: 1 },
            { id: b, age: 2 },
          ]),
        ),
      ).toEqual({
        ok: true,
        results: [
          { ok: true, id: a },
          { ok: true, id: b },
        ],
      })
      const unknown = crypto.randomUUID()
      const body = await ok(
        people.updateMany([
          { id: a, age: 10 },
          { id: unknown, age: 3 },
          { age: 4 },
          { id: b, name: null },
        ]),
      )
      expect(
        body.results.map(
          (r: { ok: boolean; error?: { error_code: string } }) => r.error?.error_code ?? 'ok',
        ),
      ).toEqual(['ok', 'ERR3005', 'ERR1012', 'ERR3002'])
      expect(body.results[1]).toMatchObject({ id: unknown, error: { context: { ids: unknown } } })
      expect(await ok(people.get(a, 'props=age'))).toEqual({ age: 1 })
    })

    it('rolls back every item when one loses a unique value inside the transaction', async () => {
      const a = await addObject(people, person())
      const holder = person()
      await addObject(people, holder)
      const body = await ok(
        people.updateMany([
          { id: a, age: 7 },
          { id: a.toUpperCase(), age: 8 },
        ]),
      )
      expect(body.results[1].error.error_code).toBe('ERR1012')
      const b = await addObject(people, person())
      const clash = await ok(
        people.updateMany([
          { id: a, age: 9 },
          { id: b, ssn: holder.ssn },
        ]),
      )
      expect(clash.ok).toBe(false)
      expect(clash.results[1].error.error_code).toBe('ERR9002')
      expect(await ok(people.get(a, 'props=age'))).toEqual({ age: null })
    })
  })

  describe('delete', () => {
    it('archives every item, or none when one is unknown', async () => {
      const a = await addObject(people, person())
      const b = await addObject(people, person())
      const unknown = crypto.randomUUID()
      const failed = await ok(people.removeMany([{ id: a }, { id: unknown }, { id: 'nope' }]))
      expect(
        failed.results.map(
          (r: { ok: boolean; error?: { error_code: string } }) => r.error?.error_code ?? 'ok',
        ),
      ).toEqual(['ok', 'ERR3005', 'ERR1012'])
      await ok(people.get(a))
      expect(await ok(people.removeMany([{ id: a }, { id: b }]))).toEqual({
        ok: true,
        results: [
          { ok: true, id: a },
          { ok: true, id: b },
        ],
      })
      await expectError(await people.get(a), 404, 'ERR3005')
      expect((await ok(people.removeMany([{ id: a }, { id: b }], 'options=archived'))).ok).toBe(
        true,
      )
      await expectError(await people.get(b, 'options=unsafe,archived'), 404, 'ERR3005')
    })

    it('refuses more ids than the maximum and malformed bodies', async () => {
      const ids = Array.from({ length: 6 }, () => ({ id: crypto.randomUUID() }))
      await expectError(await people.removeMany(ids), 400, 'ERR1012')
      await expectError(await people.removeMany([{ nope: 1 }]), 400, 'ERR1012')
    })
  })
})

// Batches larger than one write step (PostgreSQL seals and writes them in overlapping steps).
describeEngines('bulk objects, large batches', (engine) => {
  let server: TestServer
  let people: ObjectsApi
  let serial = 0
  const person = () => {
    const n = serial++
    return { name: `Large Person ${n}`, ssn: `610-${String(10 + (n % 80))}-${1000 + n}` }
  }
  beforeAll(async () => {
    server = await startTestServer({ engine, env: { SVC_SERVICE_MAX_PAGE_SIZE: '1000' } })
    await addCollection(server, PEOPLE)
    people = objectsOf(server, 'people')
  })
  afterAll(() => server.close())

  it('stores every item of a large batch, each findable, in request order', async () => {
    const items = Array.from({ length: 700 }, person)
    const body = await ok(people.addMany(items))
    expect(body.ok).toBe(true)
    expect(body.results).toHaveLength(700)
    for (const k of [0, 249, 250, 699]) {
      const found = await ok(people.search({ match: { ssn: items[k]?.ssn } }, 'props=id,name'))
      expect(found.results).toEqual([{ id: body.results[k].id, name: items[k]?.name }])
    }
    const like = await ok(people.search({ like: { name: '*son 699*' } }, 'props=id'))
    expect(like.results).toEqual([{ id: body.results[699].id }])
    expect(await ok(people.count())).toMatchObject({ active: 700, archived: 0 })
  })

  it('fails items across write steps as in one step, and writes none', async () => {
    const stored = person()
    const storedId = await addObject(people, stored)
    const before = await ok(people.count())
    const items: Record<string, unknown>[] = Array.from({ length: 800 }, person)
    items[600] = { ...person(), ssn: items[10]?.ssn }
    items[650] = { ...person(), id: storedId }
    items[300] = { ...person(), ssn: stored.ssn }
    items[720] = { ...person(), ssn: 'nope' }
    const body = await ok(people.addMany(items))
    expect(body.ok).toBe(false)
    const codes = body.results.map(
      (r: { ok: boolean; error?: { error_code: string } }) => r.error?.error_code ?? 'ok',
    )
    const failed = Object.fromEntries(
      codes.flatMap((code: string, i: number) => (code === 'ok' ? [] : [[i, code]])),
    )
    expect(failed).toEqual({ 300: 'ERR9002', 600: 'ERR9002', 650: 'ERR9001', 720: 'ERR3002' })
    expect(await ok(people.count())).toEqual(before)
    await expectError(await people.get(body.results[0].id), 404, 'ERR3005')
  })
})
