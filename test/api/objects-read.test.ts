// test/api/objects-read.test.ts: get, list and count objects: props, transformers, options, paging, ids (endpoints §3.3–3.4, 3.10)
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
  testClock,
} from '../helpers/objects.ts'
import { startTestServer, type TestServer } from '../helpers/server.ts'

const ALICE = {
  name: 'Alice Liddell',
  ssn: '123-45-4357',
  email: 'alice@gmail.com',
  phone: '+1-202-555-2795',
  birth: '1990-01-15',
  age: 40,
}

describeEngines('read objects', (engine) => {
  let server: TestServer
  let people: ObjectsApi
  let alice: string
  const ids: string[] = []
  const clock = testClock()
  beforeAll(async () => {
    server = await startTestServer({ engine, clock: clock.now })
    await addCollection(server, PEOPLE)
    people = objectsOf(server, 'people')
    alice = await addObject(people, ALICE)
    for (let i = 0; i < 4; i++) {
      clock.advanceSeconds(1)
      ids.push(await addObject(people, { name: `P${i}`, ssn: `200-10-000${i + 1}` }))
    }
  })
  afterAll(() => server.close())

  describe('get object', () => {
    it('answers exactly the requested props, transformer keys verbatim', async () => {
      const got = await ok(
        people.get(alice, 'props=id,name,ssn.mask,email.mask,phone.mask,birth.age,_tenant_id'),
      )
      expect(got).toEqual({
        id: alice,
        name: ALICE.name,
        'ssn.mask': '***-**-4357',
        'email.mask': 'a****@gmail.com',
        'phone.mask': '********2795',
        'birth.age': 39,
        _tenant_id: null,
      })
    })

    it('accepts props both repeated and comma-separated', async () => {
      expect(await ok(people.get(alice, 'props=name&props=age,ssn'))).toEqual({
        name: ALICE.name,
        age: 40,
        ssn: ALICE.ssn,
      })
    })

    it('answers id and every user property with unsafe, and the built-ins with show_builtins', async () => {
      const unsafe = await ok(people.get(alice, 'options=unsafe'))
      expect(Object.keys(unsafe).sort()).toEqual(
        ['id', 'name', 'ssn', 'email', 'phone', 'age', 'city', 'birth'].sort(),
      )
      expect(unsafe.city).toBeNull()
      const all = await ok(people.get(alice, 'options=unsafe,show_builtins'))
      expect(Object.keys(all)).toEqual(
        expect.arrayContaining(['_creation_time', '_expiration_time', '_owner_id', '_tenant_id']),
      )
    })

    it('answers the token transformer with null while the object has no pci token', async () => {
      expect(await ok(people.get(alice, 'props=ssn.token'))).toEqual({ 'ssn.token': null })
    })

    it('accepts X-Trans-Param for transformers', async () => {
      const res = await people.get(alice, 'props=ssn.mask', { headers: { 'x-trans-param': 'p' } })
      expect(await ok(res)).toEqual({ 'ssn.mask': '***-**-4357' })
    })

    it('refuses unsafe with props, show_builtins without unsafe, and neither', async () => {
      for (const query of ['options=unsafe&props=name', 'options=show_builtins&props=name', '']) {
        await expectError(await people.get(alice, query), 400, 'ERR1012')
      }
      await expectError(await people.get(alice, 'options=everything'), 400, 'ERR1012')
    })

    it('answers 404 ERR3004 for unknown properties and transformers', async () => {
      const unknown = await expectError(await people.get(alice, 'props=nick'), 404, 'ERR3004')
      expect(unknown.context).toMatchObject({ property: 'nick' })
      await expectError(await people.get(alice, 'props=age.age'), 404, 'ERR3004')
      await expectError(await people.get(alice, 'props=ssn.nope.more'), 404, 'ERR3004')
      for (const name of ['toString', 'constructor', '__proto__', 'valueOf']) {
        const res = await people.get(alice, `props=ssn.${name}`)
        expect((await expectError(res, 404, 'ERR3004')).context).toMatchObject({
          property: `ssn.${name}`,
        })
        await expectError(await people.list(`props=name.${name}`), 404, 'ERR3004')
      }
    })

    it('answers 404 ERR3005 with the id for an unknown object, and 400 for a malformed id', async () => {
      const id = crypto.randomUUID()
      const body = await expectError(await people.get(id), 404, 'ERR3005')
      expect(body.context).toEqual({ ids: id })
      await expectError(await people.get('not-a-uuid'), 400, 'ERR1012')
    })

    it('matches ids case-insensitively', async () => {
      expect(await ok(people.get(alice.toUpperCase(), 'props=id'))).toEqual({ id: alice })
    })

    it('finds active objects by default and archived ones only with options=archived', async () => {
      const id = await addObject(people, { name: 'Gone', ssn: '300-10-0001' })
      await expectError(await people.get(id, 'options=unsafe,archived'), 404, 'ERR3005')
      await ok(people.remove(id))
      await expectError(await people.get(id), 404, 'ERR3005')
      expect(await ok(people.get(id, 'props=name&options=archived'))).toEqual({ name: 'Gone' })
    })
  })

  describe('list objects', () => {
    it('pages in creation order with remaining counts and a cursor until the last page', async () => {
      const seen: string[] = []
      let cursor = ''
      const pages: number[][] = []
      do {
        const page = await ok(people.list(`props=id&page_size=2&cursor=${cursor}`))
        seen.push(...page.results.map((r: { id: string }) => r.id))
        pages.push([page.paging.size, page.paging.remaining_count])
        cursor = page.paging.cursor
      } while (cursor !== '')
      expect(seen).toEqual([alice, ...ids])
      expect(pages).toEqual([
        [2, 3],
        [2, 1],
        [1, 0],
      ])
    })

    it('uses the default page size and caps it at the maximum', async () => {
      const page = await ok(people.list('props=id'))
      expect(page.paging).toEqual({ size: 5, remaining_count: 0, cursor: '' })
      for (const size of ['0', '1001', 'ten', '-1']) {
        const res = await people.list(`props=id&page_size=${size}`)
        expect((await expectError(res, 400, 'ERR1012')).context).toMatchObject({
          field: expect.stringContaining('page_size'),
        })
      }
    })

    it('refuses a malformed cursor and a cursor of another query', async () => {
      await expectError(await people.list('props=id&cursor=garbage'), 400, 'ERR1012')
      const { paging } = await ok(people.list('props=id&page_size=1'))
      await expectError(
        await people.list(`props=name&page_size=1&cursor=${paging.cursor}`),
        400,
        'ERR1012',
      )
      expect(
        (await ok(people.list(`props=id&page_size=3&cursor=${paging.cursor}`))).results,
      ).toHaveLength(3)
    })

    it('lists the objects named by ids, in that order, without paging', async () => {
      const page = await ok(people.list(`props=id,name&ids=${ids[2]},${alice}&ids=${ids[0]}`))
      expect(page.results.map((r: { id: string }) => r.id)).toEqual([ids[2], alice, ids[0]])
      expect(page.paging).toEqual({ size: 3, remaining_count: 0, cursor: '' })
    })

    it('answers 404 ERR3005 naming the unknown ids, and 400 for too many or malformed ids', async () => {
      const unknown = crypto.randomUUID()
      const body = await expectError(
        await people.list(`props=id&ids=${alice},${unknown}`),
        404,
        'ERR3005',
      )
      expect(body.context).toEqual({ ids: unknown })
      const many = Array.from({ length: 1001 }, () => crypto.randomUUID()).join(',')
      await expectError(await people.list(`props=id&ids=${many}`), 400, 'ERR1012')
      await expectError(await people.list('props=id&ids=nope'), 400, 'ERR1012')
    })

    it('lists archived objects only with options=archived', async () => {
      const archived = await ok(people.list('props=name&options=archived'))
      expect(archived.results).toEqual([{ name: 'Gone' }])
    })

    it('answers an empty page for an empty collection', async () => {
      await addCollection(server, { name: 'empty', type: 'DATA', properties: [] })
      expect(await ok(objectsOf(server, 'empty').list('options=unsafe'))).toEqual({
        results: [],
        paging: { size: 0, remaining_count: 0, cursor: '' },
      })
    })
  })

  it('counts active, archived and all objects', async () => {
    expect(await ok(people.count())).toEqual({ active: 5, archived: 1, total: 6 })
  })
})

describe('paging settings', () => {
  it('follow SVC_SERVICE_DEFAULT_PAGE_SIZE and cap remaining_count', async () => {
    const server = await startTestServer({
      env: { SVC_SERVICE_DEFAULT_PAGE_SIZE: '2', SVC_SERVICE_MAX_PAGINATION_REMAINING_COUNT: '3' },
    })
    await addCollection(server, { name: 'items', type: 'DATA', properties: [] })
    const items = objectsOf(server, 'items')
    await ok(items.addMany(Array.from({ length: 7 }, () => ({}))))
    expect((await ok(items.list())).paging).toMatchObject({ size: 2, remaining_count: 3 })
    await server.close()
  })
})
