// test/client/collections.test.ts: the published client's collections, properties and types operations work unchanged
import { type Collection, VaultClient } from '@piiano/vault-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.ts'

describe('published client: collections, properties and data types', () => {
  let server: TestServer
  let client: VaultClient
  beforeAll(async () => {
    server = await startTestServer()
    client = new VaultClient({ vaultURL: server.baseUrl, apiKey: ADMIN_KEY })
  })
  afterAll(() => server.close())

  it('adds, gets and lists collections in JSON', async () => {
    const added = await client.collections.addCollection({
      requestBody: {
        name: 'customers',
        type: 'PERSONS',
        properties: [
          { name: 'ssn', data_type_name: 'SSN', is_unique: true },
          { name: 'email', data_type_name: 'EMAIL', is_nullable: true },
        ],
      },
    })
    expect(added.properties.map((p) => [p.name, p.is_unique, p.is_encrypted])).toEqual([
      ['ssn', true, true],
      ['email', false, true],
    ])
    const fetched = await client.collections.getCollection({
      collection: 'customers',
      options: ['show_builtins'],
    })
    expect(fetched.properties).toHaveLength(9)
    const listed = await client.collections.listCollections()
    expect(listed.map((c) => c.name)).toEqual(['customers'])
  })

  it('adds a collection from PVSchema text and reads PVSchema back', async () => {
    const text = 'orders DATA (\n  total INTEGER NULL,\n);'
    const added = await client.collections.addCollection({
      requestBody: text as unknown as Collection,
      format: 'pvschema',
    })
    expect(added).toBe(text)
    const fetched = await client.collections.getCollection({
      collection: 'orders',
      format: 'pvschema',
    })
    expect(fetched).toBe(text)
    const all = await client.collections.listCollections({ format: 'pvschema' })
    expect(String(all)).toContain('orders DATA (')
  })

  it('updates and deletes a collection', async () => {
    const updated = await client.collections.updateCollection({
      collection: 'orders',
      requestBody: {
        name: 'orders',
        type: 'DATA',
        properties: [{ name: 'note', data_type_name: 'STRING', is_nullable: true }],
      },
    })
    expect(updated.properties.map((p) => p.name)).toEqual(['total', 'note'])
    await client.collections.deleteCollection({ collection: 'orders' })
    await expect(client.collections.getCollection({ collection: 'orders' })).rejects.toMatchObject({
      status: 404,
      body: { error_code: 'ERR1004' },
    })
  })

  it('lists, adds, gets, updates and deletes properties', async () => {
    const props = client.collectionProperties
    await props.addCollectionProperty({
      collection: 'customers',
      property: 'phone',
      requestBody: { name: 'phone', data_type_name: 'PHONE_NUMBER', is_nullable: true },
    })
    const listed = await props.listCollectionProperties({ collection: 'customers' })
    expect(listed.map((p) => p.name)).toEqual(['ssn', 'email', 'phone'])
    const updated = await props.updateCollectionProperty({
      collection: 'customers',
      property: 'ssn',
      requestBody: { description: 'Social security number', is_unique: false },
    })
    expect(updated).toMatchObject({ description: 'Social security number', is_unique: false })
    const id = await props.getCollectionProperty({ collection: 'customers', property: 'id' })
    expect(id.is_builtin).toBe(true)
    await props.deleteCollectionProperty({ collection: 'customers', property: 'phone' })
    await expect(
      props.getCollectionProperty({ collection: 'customers', property: 'phone' }),
    ).rejects.toMatchObject({ status: 404, body: { error_code: 'ERR3004' } })
  })

  it('surfaces rule violations with the spec error body', async () => {
    await expect(
      client.collectionProperties.updateCollectionProperty({
        collection: 'customers',
        property: 'email',
        requestBody: { is_nullable: false },
      }),
    ).rejects.toMatchObject({
      status: 400,
      body: { error_code: 'ERR1012', context: { collection: 'customers', property: 'email' } },
    })
    await expect(
      client.collections.addCollection({
        requestBody: { name: 'Customers', type: 'DATA', properties: [] },
      }),
    ).rejects.toMatchObject({ status: 409, body: { error_code: 'ERR9001' } })
  })

  it('lists and gets data types', async () => {
    expect(await client.customDataTypes.listDataTypes()).toEqual([])
    const builtins = await client.customDataTypes.listDataTypes({ options: ['show_builtins'] })
    expect(builtins.map((t) => t.name)).toContain('CC_NUMBER')
    const email = await client.customDataTypes.getDataType({ type: 'EMAIL' })
    expect(email).toMatchObject({ name: 'EMAIL', is_builtin: true, default_transformer: 'mask' })
  })
})
