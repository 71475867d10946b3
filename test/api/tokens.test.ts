// test/api/tokens.test.ts: tokenize and detokenize every kind, on both engines
import { afterAll, beforeAll, expect, it } from 'vitest'
import { luhnSum } from '../../src/core/crypto/deterministic-id.ts'
import { expectError } from '../helpers/collections.ts'
import { describeEngines } from '../helpers/engines.ts'
import { addCollection, objectsOf } from '../helpers/objects.ts'
import { startTestServer, type TestServer } from '../helpers/server.ts'
import { CARDS, tokensOf } from '../helpers/tokens.ts'

const CARD = '4111111111111111'

describeEngines('tokens API', (engine) => {
  let server: TestServer
  let tokens: ReturnType<typeof tokensOf>
  beforeAll(async () => {
    server = await startTestServer({ engine })
    await addCollection(server, CARDS)
    await addCollection(server, { ...CARDS, name: 'cards2' })
    tokens = tokensOf(server, 'cards')
  })
  afterAll(() => server.close())

  const one = async (item: unknown, query = '') => {
    const res = await tokens.tokenize([item], query)
    const body = await res.json()
    expect(res.status, JSON.stringify(body)).toBe(200)
    return body[0].token_id as string
  }
  const detok = async (query: string) => {
    const res = await tokens.detokenize(query)
    const body = await res.json()
    expect(res.status, JSON.stringify(body)).toBe(200)
    return body
  }

  it('tokenizes fields randomly and detokenizes the values', async () => {
    const id = await one({ type: 'randomized', object: { fields: { card: CARD, name: 'Ann' } } })
    expect(id).toMatch(/^[0-9a-f-]{36}$/)
    expect(await detok(`token_ids=${id}`)).toEqual([
      { token_id: id, fields: { card: CARD, name: 'Ann' } },
    ])
    const other = await one({ type: 'randomized', object: { fields: { card: CARD, name: 'Ann' } } })
    expect(other).not.toBe(id)
  })

  it('reuses pci IDs for equal values and scope, not across scopes or collections', async () => {
    const item = { type: 'pci', object: { fields: { card: CARD } } }
    const a = await one(item)
    expect(await one(item)).toBe(a)
    expect(await one({ ...item, scope: 's1' })).not.toBe(a)
    const other = await (await tokensOf(server, 'cards2').tokenize([item])).json()
    expect(other[0].token_id).not.toBe(a)
    const global = { ...item, scope: 'global:x' }
    const g1 = await one(global)
    const g2 = (await (await tokensOf(server, 'cards2').tokenize([global])).json())[0].token_id
    expect(g2).toBe(g1)
  })

  it('derives deterministic IDs and refuses a different given token_id', async () => {
    const item = { type: 'deterministic', object: { fields: { card: '5500000000000004' } } }
    const a = await one(item)
    expect(await one(item)).toBe(a)
    expect(await one({ ...item, token_id: a })).toBe(a)
    await expectError(await tokens.tokenize([{ ...item, token_id: 'other' }]), 400, 'ERR1012')
    expect((await detok(`token_ids=${a}`))[0].fields).toEqual({ card: '5500000000000004' })
  })

  it('never detokenizes pci_oneway tokens', async () => {
    const id = await one({ type: 'pci_oneway', object: { fields: { card: CARD, name: 'Zed' } } })
    await expectError(await tokens.detokenize(`token_ids=${id}`), 400, 'ERR1012')
  })

  it('returns the current object values for pointer tokens', async () => {
    const objects = objectsOf(server, 'cards')
    const { id: objectId } = await (await objects.add({ card: CARD, name: 'Bo' })).json()
    const id = await one({ type: 'pointer', object: { id: objectId }, props: ['name'] })
    expect((await objects.update(objectId, { name: 'Cy' })).status).toBe(200)
    expect(await detok(`token_ids=${id}`)).toEqual([{ token_id: id, fields: { name: 'Cy' } }])
    await expectError(
      await tokens.tokenize([{ type: 'pointer', object: { fields: { card: CARD } } }]),
      400,
      'ERR1012',
    )
  })

  it('stores no object with store_object when the tokens fail (one transaction)', async () => {
    const objects = objectsOf(server, 'cards2')
    const before = (await (await objects.count()).json()).total
    const taken = {
      type: 'randomized',
      token_id: 'atomic-taken',
      object: { fields: { name: 'T' } },
    }
    expect((await tokensOf(server, 'cards2').tokenize([taken])).status).toBe(200)
    const stored = {
      type: 'randomized',
      object: { fields: { card: CARD, name: 'Eve' } },
      store_object: true,
    }
    await expectError(await tokensOf(server, 'cards2').tokenize([stored, taken]), 409, 'ERR9001')
    expect((await (await objects.count()).json()).total).toBe(before)
  })

  it('stores the object with store_object and shares it by request_index', async () => {
    const res = await tokens.tokenize([
      { type: 'randomized', object: { fields: { card: CARD, name: 'Di' } }, store_object: true },
      { type: 'pointer', object: { request_index: 0 }, props: ['name'] },
    ])
    const body = await res.json()
    expect(res.status, JSON.stringify(body)).toBe(200)
    expect(body[0].object_id).toMatch(/^[0-9a-f-]{36}$/)
    expect(body[1].object_id).toBeUndefined()
    const found = await detok(`object_ids=${body[0].object_id}`)
    expect(found.map((t: { token_id: string }) => t.token_id).sort()).toEqual(
      [body[0].token_id, body[1].token_id].sort(),
    )
  })

  it('makes PAN token IDs that keep the first six and last four digits and pass Luhn', async () => {
    for (const type of ['randomized', 'deterministic']) {
      const id = await one({
        type,
        object: { fields: { card: CARD } },
        fptemplate: 'primary_account_number',
        fpprops: ['card'],
      })
      expect(id).toMatch(/^411111\d{6}1111$/)
      expect(id).not.toBe(CARD)
      expect(luhnSum(id) % 10).toBe(0)
    }
    await expectError(
      await tokens.tokenize([
        {
          type: 'randomized',
          object: { fields: { card: CARD, name: 'X' } },
          fptemplate: 'primary_account_number',
          fpprops: ['name'],
        },
      ]),
      400,
      'ERR1012',
    )
    const custom = await expectError(
      await tokens.tokenize([
        { type: 'randomized', object: { fields: { card: CARD } }, fptemplate: 'mybundle.fn' },
      ]),
      404,
      'ERR1004',
    )
    expect(custom.message).toMatch(/fptemplate mybundle\.fn is not found/)
  })

  it('answers the spec errors and creates nothing', async () => {
    const before = await (await tokens.count()).json()
    const ok = { type: 'randomized', object: { fields: { card: CARD } } }
    await expectError(await tokensOf(server, 'nope').tokenize([ok]), 404, 'ERR1004')
    await expectError(
      await tokens.tokenize([ok, { type: 'randomized', object: { id: crypto.randomUUID() } }]),
      404,
      'ERR3005',
    )
    await expectError(
      await tokens.tokenize([{ type: 'randomized', object: { fields: { nope: 1 } } }]),
      404,
      'ERR3004',
    )
    await expectError(
      await tokens.tokenize([{ type: 'randomized', object: { fields: { card: 'xx' } } }]),
      404,
      'ERR3003',
    )
    await expectError(await tokens.tokenize([{ ...ok, token_id: 'a b' }]), 400, 'ERR1012')
    await expectError(await tokens.tokenize([{ ...ok, token_id: 'x'.repeat(129) }]), 400, 'ERR1012')
    await expectError(
      await tokens.tokenize([{ ...ok, tags: Array.from({ length: 11 }, (_, i) => `t${i}`) }]),
      400,
      'ERR1012',
    )
    await expectError(
      await tokens.tokenize([{ ...ok, tags: ['a'], ensure_unique_tenant_tags: ['b'] }]),
      400,
      'ERR1012',
    )
    await expectError(
      await tokens.tokenize([{ type: 'randomized', object: { request_index: 3 } }]),
      400,
      'ERR1012',
    )
    await one({ ...ok, token_id: 'mine' })
    await expectError(await tokens.tokenize([{ ...ok, token_id: 'mine' }]), 409, 'ERR9001')
    await expectError(await tokens.tokenize([ok, { ...ok, token_id: 'mine' }]), 409, 'ERR9001')
    const after = await (await tokens.count()).json()
    expect(after.total).toBe(before.total + 1)
  })

  it('tokenizes a ciphertext of the same collection', async () => {
    const res = await server.request(
      'POST',
      '/api/pvlt/1.0/data/collections/cards/encrypt/objects?reason=AppFunctionality',
      {
        body: [{ object: { fields: { card: CARD, name: 'En' } } }],
      },
    )
    const [{ ciphertext }] = await res.json()
    const id = await one({
      type: 'randomized',
      object: { encrypted: { ciphertext } },
      props: ['name'],
    })
    expect((await detok(`token_ids=${id}`))[0].fields).toEqual({ name: 'En' })
  })
})
