// test/api/tokens-lifecycle.test.ts: search, update, delete, rotate, transaction IDs and reason rules of tokens
import { afterAll, beforeAll, expect, it } from 'vitest'
import { expectError } from '../helpers/collections.ts'
import { describeEngines } from '../helpers/engines.ts'
import { addCollection } from '../helpers/objects.ts'
import { startTestServer, type TestServer } from '../helpers/server.ts'
import { CARDS, tokensOf } from '../helpers/tokens.ts'

const CARD = '4111111111111111'

describeEngines('tokens lifecycle API', (engine) => {
  let server: TestServer
  let tokens: ReturnType<typeof tokensOf>
  beforeAll(async () => {
    server = await startTestServer({ engine })
    await addCollection(server, CARDS)
    tokens = tokensOf(server, 'cards')
  })
  afterAll(() => server.close())

  const tokenize = async (items: unknown[], query = '') => {
    const res = await tokens.tokenize(items, query)
    const body = await res.json()
    expect(res.status, JSON.stringify(body)).toBe(200)
    return body.map((t: { token_id: string }) => t.token_id) as string[]
  }

  it('searches groups by ID with merged tags and aggregated expiry', async () => {
    const item = { type: 'pci', object: { fields: { card: '5500000000000004' } } }
    const [a] = await tokenize(
      [
        { ...item, tags: ['x'] },
        { ...item, tags: ['y'] },
      ],
      'expiration_secs=3600',
    )
    const res = await tokens.search({ token_ids: [a] }, 'options=include_aggregated_data')
    const [group] = await res.json()
    expect(group.token_id).toBe(a)
    expect(group.type).toBe('pci')
    expect(group.tokens).toHaveLength(2)
    expect(group.tokens[0].tags.sort()).toEqual(['x', 'y'])
    expect(group.agg.max_effective_expiration_time).toMatch(/Z$/)
    expect(await (await tokens.search({ tags: ['x', 'y'] })).json()).toEqual([])
    expect((await (await tokens.search({ tags: ['x'] })).json())[0].token_id).toBe(a)
  })

  it('updates metadata and data; pci reuse follows the new data', async () => {
    const [id] = await tokenize([{ type: 'pci', object: { fields: { card: '4000000000000002' } } }])
    expect((await tokens.update(`token_ids=${id}`, { tags: ['n'] })).status).toBe(200)
    const upd = await tokens.update(`token_ids=${id}`, {
      object: { fields: { card: '4000000000000010' } },
    })
    expect(upd.status, await upd.text()).toBe(200)
    const [again] = await tokenize([
      { type: 'pci', object: { fields: { card: '4000000000000010' } } },
    ])
    expect(again).toBe(id)
    const [fresh] = await tokenize([
      { type: 'pci', object: { fields: { card: '4000000000000002' } } },
    ])
    expect(fresh).not.toBe(id)
    await expectError(await tokens.update('token_ids=unknown', { tags: [] }), 404, 'ERR3009')
    await expectError(await tokens.update('', { tags: [] }), 404, 'ERR3009')
    const [det] = await tokenize([{ type: 'deterministic', object: { fields: { card: CARD } } }])
    await expectError(
      await tokens.update(`token_ids=${det}`, { object: { fields: { card: CARD } } }),
      400,
      'ERR1012',
    )
  })

  it('rotates IDs, moving transaction associations', async () => {
    const [id] = await tokenize(
      [{ type: 'randomized', object: { fields: { card: CARD } } }],
      'transaction_id=tx1',
    )
    const res = await tokens.rotate(`token_ids=${id}`)
    const map = await res.json()
    expect(res.status, JSON.stringify(map)).toBe(200)
    expect(map[id as string]).toMatch(/^[0-9a-f-]{36}$/)
    expect(await (await tokens.transaction('tx1')).json()).toEqual({ ref_ids: [map[id as string]] })
    await expectError(await tokens.rotate('token_ids=nope'), 404, 'ERR3087')
    await expectError(await tokens.transaction('unknown'), 404, 'ERR3009')
    await expectError(
      await tokens.tokenize(
        [{ type: 'randomized', object: { fields: { card: CARD } } }],
        'transaction_id=tx1',
      ),
      409,
      'ERR9003',
    )
  })

  it('archives on delete, then removes archived tokens for good', async () => {
    const [id] = await tokenize([
      { type: 'randomized', object: { fields: { card: CARD } }, tags: ['del'] },
    ])
    expect((await tokens.remove(`token_ids=${id}`)).status).toBe(200)
    expect(await (await tokens.detokenize(`token_ids=${id}`)).json()).toEqual([])
    expect(
      await (await tokens.search({ token_ids: [id] }, 'options=archived')).json(),
    ).toHaveLength(1)
    expect((await tokens.remove(`token_ids=${id}&options=archived`)).status).toBe(200)
    await expectError(await tokens.remove(`token_ids=${id}&options=archived`), 404, 'ERR3009')
    await expectError(await tokens.remove(''), 404, 'ERR3009')
  })

  it('answers 404 ERR3009 for reason Other without adhoc_reason on update, delete and rotate', async () => {
    const base = '/api/pvlt/1.0/data/collections/cards'
    for (const [method, path] of [
      ['PATCH', '/tokens'],
      ['DELETE', '/tokens'],
      ['POST', '/rotate/tokens'],
    ] as const) {
      const res = await server.request(
        method,
        `${base}${path}?reason=Other&token_ids=a`,
        method === 'PATCH' ? { body: {} } : {},
      )
      await expectError(res, 404, 'ERR3009')
    }
    await expectError(
      await server.request('GET', `${base}/tokens?reason=Other&token_ids=a`),
      400,
      'ERR1002',
    )
  })

  it('enforces tenant-unique tags with 409 ERR9004', async () => {
    const item = {
      type: 'randomized',
      object: { fields: { card: CARD } },
      tags: ['u1'],
      ensure_unique_tenant_tags: ['u1'],
    }
    await tokenize([item])
    await expectError(await tokens.tokenize([item]), 409, 'ERR9004')
  })
})
