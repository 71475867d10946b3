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
})
