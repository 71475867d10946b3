// test/client/getting-started.test.ts: the reference product's getting-started flow through the published TypeScript client
import { VaultClient } from '@piiano/vault-client'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { describeEngines } from '../helpers/engines.ts'
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.ts'

const reason = 'AppFunctionality' as const
const collection = 'customers'

describeEngines('published client: getting started', (engine) => {
  let server: TestServer
  let client: VaultClient
  const ids: string[] = []
  beforeAll(async () => {
    server = await startTestServer({ engine })
    client = new VaultClient({ vaultURL: server.baseUrl, apiKey: ADMIN_KEY })
  })
  afterAll(() => server.close())

  it('creates a collection with an encrypted, non-indexed email and adds objects', async () => {
    await client.collections.addCollection({
      requestBody: {
        name: collection,
        type: 'PERSONS',
        properties: [
          { name: 'name', data_type_name: 'NAME', is_encrypted: true },
          { name: 'email', data_type_name: 'EMAIL', is_encrypted: true, is_nullable: true },
        ],
      } as never,
    })
    for (const [name, email] of [
      ['Ann Lee', 'ann@example.com'],
      ['Bo Smith', 'bo@example.com'],
    ]) {
      const { id } = await client.objects.addObject({
        collection,
        reason,
        requestBody: { name, email },
      })
      ids.push(id)
    }
    const listed = await client.objects.listObjects({ collection, reason, props: ['email'] })
    expect(listed.results).toHaveLength(2)
  })

  // Search on a property without an index is issue 13 item 1 (another branch); enable this
  // step once that lands.
  it.skip('searches by the non-indexed email', async () => {
    const found = await client.objects.searchObjects({
      collection,
      reason,
      requestBody: { match: { email: 'bo@example.com' } },
      props: ['name'],
    })
    expect(found.results).toEqual([{ name: 'Bo Smith' }])
  })

  it('tokenizes (pointer), detokenizes, searches and deletes tokens, then the collection', async () => {
    const [pointer] = await client.tokens.tokenize({
      collection,
      reason,
      requestBody: [{ type: 'pointer', object: { id: ids[1] as string }, props: ['email'] }],
    })
    const tokenId = pointer?.token_id as string
    expect(tokenId).toMatch(/^[0-9a-f-]{36}$/)
    const detokenized = await client.tokens.detokenize({ collection, reason, tokenIds: [tokenId] })
    expect(detokenized).toEqual([{ token_id: tokenId, fields: { email: 'bo@example.com' } }])
    const found = await client.tokens.searchTokens({
      collection,
      reason,
      requestBody: { object_ids: [ids[1] as string] },
    })
    expect(found.map((t) => t.token_id)).toEqual([tokenId])
    await client.tokens.deleteTokens({ collection, reason, tokenIds: [tokenId] })
    expect(
      await client.tokens.searchTokens({
        collection,
        reason,
        requestBody: { token_ids: [tokenId] },
      }),
    ).toEqual([])
    await client.collections.deleteCollection({ collection })
    const names = (await client.collections.listCollections({})).map((c) => c.name)
    expect(names).not.toContain(collection)
  })
})
