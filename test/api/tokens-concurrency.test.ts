// test/api/tokens-concurrency.test.ts: concurrent tokenizations race to one token ID, on both engines
import { afterAll, beforeAll, expect, it } from 'vitest'
import { describeEngines } from '../helpers/engines.ts'
import { addCollection } from '../helpers/objects.ts'
import { startTestServer, type TestServer } from '../helpers/server.ts'
import { CARDS, tokensOf } from '../helpers/tokens.ts'

const N = 12

describeEngines('concurrent tokenize', (engine) => {
  let server: TestServer
  let tokens: ReturnType<typeof tokensOf>
  beforeAll(async () => {
    server = await startTestServer({ engine })
    await addCollection(server, CARDS)
    tokens = tokensOf(server, 'cards')
  })
  afterAll(() => server.close())

  const race = async (item: unknown) => {
    const responses = await Promise.all(Array.from({ length: N }, () => tokens.tokenize([item])))
    return Promise.all(
      responses.map(async (res) => ({ status: res.status, body: await res.json() })),
    )
  }

  /** The IDs of the tokens with these IDs that exist (token search, any type). */
  const found = async (...ids: string[]): Promise<string[]> => {
    const res = await tokens.search({ token_ids: ids })
    expect(res.status).toBe(200)
    return (await res.json()).map((t: { token_id: string }) => t.token_id)
  }

  it('gives one token ID to concurrent pci tokenizations of the same values', async () => {
    const results = await race({ type: 'pci', object: { fields: { card: '4111111111111111' } } })
    expect(results.map((r) => r.status)).toEqual(Array(N).fill(200))
    expect(new Set(results.map((r) => r.body[0].token_id)).size).toBe(1)
  })

  it('gives one token ID and no error to concurrent deterministic tokenizations', async () => {
    const results = await race({ type: 'deterministic', object: { fields: { name: 'Same' } } })
    expect(results.map((r) => r.status)).toEqual(Array(N).fill(200))
    expect(new Set(results.map((r) => r.body[0].token_id)).size).toBe(1)
  })

  it('lets exactly one of concurrent tokenizations with the same token_id succeed', async () => {
    const results = await race({
      type: 'randomized',
      token_id: 'one-and-only',
      object: { fields: { name: 'Raced' } },
    })
    const ok = results.filter((r) => r.status === 200)
    expect(ok).toHaveLength(1)
    expect(ok[0]?.body).toEqual([{ token_id: 'one-and-only' }])
    for (const r of results.filter((r) => r.status !== 200))
      expect({ status: r.status, code: r.body.error_code }).toEqual({
        status: 409,
        code: 'ERR9001',
      })
  })

  it.each(['pci', 'pci_oneway'])(
    'refuses a %s token_id other than the one equal values already have (409 ERR9001, nothing created)',
    async (type) => {
      const card = type === 'pci' ? '4012888888881881' : '5105105105105100'
      const first = await tokens.tokenize([{ type, object: { fields: { card } } }])
      const [{ token_id: held }] = await first.json()
      const other = await tokens.tokenize([
        { type, token_id: `other-${type}`, object: { fields: { card } } },
      ])
      expect(other.status).toBe(409)
      const body = await other.json()
      expect(body).toMatchObject({
        error_code: 'ERR9001',
        context: { token_id: `other-${type}`, field: '[0].token_id' },
      })
      expect(body.message).toMatch(/send that token's ID as token_id, or no token_id\.$/)
      expect(body.message).not.toContain(held)
      // Nothing was created: the refused ID is unknown, and the held one still answers.
      expect(await found(`other-${type}`)).toEqual([])
      const same = await tokens.tokenize([{ type, token_id: held, object: { fields: { card } } }])
      expect(await same.json()).toEqual([{ token_id: held }])
    },
  )

  it('lets one of concurrent pci tokenizations of new values with different token_ids win', async () => {
    const card = '4222222222222'
    const responses = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        tokens.tokenize([{ type: 'pci', token_id: `racer-${i}`, object: { fields: { card } } }]),
      ),
    )
    const results = await Promise.all(
      responses.map(async (res) => ({ status: res.status, body: await res.json() })),
    )
    const ok = results.filter((r) => r.status === 200)
    expect(ok).toHaveLength(1)
    const winner = ok[0]?.body[0].token_id
    expect(winner).toMatch(/^racer-\d+$/)
    for (const r of results.filter((r) => r.status !== 200))
      expect({ status: r.status, code: r.body.error_code }).toEqual({
        status: 409,
        code: 'ERR9001',
      })
    // Only the winner's token exists: every other ID is unknown.
    const ids = Array.from({ length: N }, (_, i) => `racer-${i}`).filter((id) => id !== winner)
    expect(await found(...ids)).toEqual([])
    expect(await found(winner)).toEqual([winner])
    const again = await tokens.tokenize([{ type: 'pci', object: { fields: { card } } }])
    expect(await again.json()).toEqual([{ token_id: winner }])
  })
})
