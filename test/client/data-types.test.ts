// test/client/data-types.test.ts: the published client's customDataTypes operations work unchanged, with data through a custom type
import { VaultClient } from '@piiano/vault-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { code, SSN_HELPERS } from '../helpers/bundles.ts'
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.ts'

describe('published client: custom data types', () => {
  let server: TestServer
  let client: VaultClient
  beforeAll(async () => {
    server = await startTestServer()
    client = new VaultClient({ vaultURL: server.baseUrl, apiKey: ADMIN_KEY })
    await client.bundles.addBundle({ requestBody: { name: 'string_ssn', code: code(SSN_HELPERS) } })
  })
  afterAll(() => server.close())

  it('adds, gets, lists, updates and deletes a data type', async () => {
    const added = await client.customDataTypes.addDataType({
      requestBody: {
        name: 'STRING_SSN',
        base_type_name: 'STRING',
        description: 'Relaxed SSN',
        validator: 'string_ssn.validate',
        normalizer: 'string_ssn.normalize',
        transformers: ['string_ssn.mask'],
        default_transformer: 'mask',
      },
    })
    expect(added).toMatchObject({ name: 'STRING_SSN', is_builtin: false })
    expect((await client.customDataTypes.getDataType({ type: 'STRING_SSN' })).validator).toBe(
      'string_ssn.validate',
    )
    const listed = await client.customDataTypes.listDataTypes({ bundle: 'string_ssn' })
    expect(listed.map((t) => t.name)).toEqual(['STRING_SSN'])
    const all = await client.customDataTypes.listDataTypes({ options: ['show_builtins'] })
    expect(all.length).toBe(29)
    const updated = await client.customDataTypes.updateDataType({
      type: 'STRING_SSN',
      requestBody: {
        ...added,
        transformers: ['string_ssn.mask', 'string_ssn.last4'],
        default_transformer: 'last4',
      },
    })
    expect(updated.transformers).toEqual(['string_ssn.mask', 'string_ssn.last4'])
  })

  it('stores normalized values and applies the custom transformer through the client', async () => {
    await client.collections.addCollection({
      requestBody: {
        name: 'people',
        type: 'PERSONS',
        properties: [{ name: 'ssn', data_type_name: 'STRING_SSN' }],
      },
    })
    const { id } = await client.objects.addObject({
      collection: 'people',
      reason: 'AppFunctionality',
      requestBody: { ssn: '123-45-6789' },
    })
    const read = await client.objects.getObjectById({
      collection: 'people',
      id: id as string,
      reason: 'AppFunctionality',
      props: ['ssn', 'ssn.mask', 'ssn.last4'],
    })
    expect(read).toEqual({ ssn: '123456789', 'ssn.mask': '*****6789', 'ssn.last4': '6789' })
    await expect(
      client.objects.addObject({
        collection: 'people',
        reason: 'AppFunctionality',
        requestBody: { ssn: 'not an ssn' },
      }),
    ).rejects.toMatchObject({
      status: 400,
      body: { error_code: 'ERR3002', context: { bundle: 'string_ssn', function: 'validate' } },
    })
  })

  it('surfaces refusals with the spec error body, and deletes', async () => {
    await expect(
      client.customDataTypes.deleteDataType({ type: 'STRING_SSN' }),
    ).rejects.toMatchObject({ status: 409, body: { error_code: 'ERR9005' } })
    await client.collections.deleteCollection({ collection: 'people' })
    await client.customDataTypes.deleteDataType({ type: 'STRING_SSN' })
    await expect(client.customDataTypes.getDataType({ type: 'STRING_SSN' })).rejects.toMatchObject({
      status: 404,
      body: { error_code: 'ERR1004' },
    })
  })
})
