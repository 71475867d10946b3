// test/client/getting-started.test.ts: the published client runs the reference product's getting-started flow unchanged
import { VaultClient } from '@piiano/vault-client'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { describeEngines } from '../helpers/engines.ts'
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.ts'

const reason = 'AppFunctionality' as const
const collection = 'customers'

/** As in the getting-started sample: `email` is encrypted (the default) and has no index. */
const CUSTOMERS = {
  name: collection,
  type: 'PERSONS',
  properties: [
    { name: 'name', data_type_name: 'NAME', description: 'Full name' },
    { name: 'email', data_type_name: 'EMAIL', description: 'Contact address' },
    { name: 'ssn', data_type_name: 'SSN', is_unique: true, is_nullable: true },
  ],
}

describeEngines('published client: getting started', (engine) => {
  let server: TestServer
  let client: VaultClient
  beforeAll(async () => {
    server = await startTestServer({ engine })
    client = new VaultClient({ vaultURL: server.baseUrl, apiKey: ADMIN_KEY })
  })
  afterAll(() => server.close())

  it('creates a collection, searches a non-indexed email, tokenizes and cleans up', async () => {
    const created = await client.collections.addCollection({ requestBody: CUSTOMERS as never })
    expect(created.properties.find((p) => p.name === 'email')).toMatchObject({
      is_encrypted: true,
      is_index: false,
    })

    const customers = [
      { name: 'John Doe', email: 'john@somemail.com', ssn: '123-12-1234' },
      { name: 'Mary Major', email: 'mary@somemail.com', ssn: '123-12-1235' },
      { name: 'Jo Doe', email: 'john@somemail.com' },
    ]
    const ids: string[] = []
    for (const requestBody of customers)
      ids.push((await client.objects.addObject({ collection, reason, requestBody })).id)

    const found = await client.objects.searchObjects({
      collection,
      reason,
      requestBody: { match: { email: 'john@somemail.com' } },
      props: ['name', 'ssn.mask'],
    })
    expect(found.results).toEqual([
      { name: 'John Doe', 'ssn.mask': '***-**-1234' },
      { name: 'Jo Doe', 'ssn.mask': null },
    ])
    expect(found.paging).toEqual({ size: 2, remaining_count: 0, cursor: '' })

    const john = ids[0] as string
    const [pointer] = await client.tokens.tokenize({
      collection,
      reason,
      requestBody: [{ type: 'pointer', object: { id: john }, props: ['email'] }],
    })
    const tokenId = pointer?.token_id as string
    expect(tokenId).toMatch(/^[0-9a-f-]{36}$/)

    // A pointer shows the object's value as it is when detokenized.
    await client.objects.updateObjectById({
      collection,
      id: john,
      reason,
      requestBody: { email: 'john.doe@somemail.com' },
    })
    expect(await client.tokens.detokenize({ collection, reason, tokenIds: [tokenId] })).toEqual([
      { token_id: tokenId, fields: { email: 'john.doe@somemail.com' } },
    ])
    const moved = await client.objects.searchObjects({
      collection,
      reason,
      requestBody: { match: { email: 'john.doe@somemail.com' } },
      props: ['id'],
    })
    expect(moved.results).toEqual([{ id: john }])

    const tokens = await client.tokens.searchTokens({
      collection,
      reason,
      requestBody: { object_ids: [john] },
    })
    expect(tokens.map((t) => t.token_id)).toEqual([tokenId])

    await client.tokens.deleteTokens({ collection, reason, objectIds: [john] })
    expect(
      await client.tokens.searchTokens({ collection, reason, requestBody: { object_ids: [john] } }),
    ).toEqual([])

    await client.collections.deleteCollection({ collection })
    const left = await client.collections.listCollections({})
    expect(left.map((c) => c.name)).not.toContain(collection)
  })
})
