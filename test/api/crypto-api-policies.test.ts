// test/api/crypto-api-policies.test.ts: capabilities, encrypt/decrypt/hash policies, archived resources and tenants on the crypto API
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectError } from '../helpers/collections.ts'
import {
  addCollection,
  cryptoCall,
  DATA,
  encryptAll,
  REASON,
  storeObject,
} from '../helpers/crypto.ts'
import { describeEngines } from '../helpers/engines.ts'
import { apiKeyOf, setIam } from '../helpers/iam.ts'
import { startTestServer, type TestServer } from '../helpers/server.ts'

const policy = (name: string, type: string, operations: string[], resources: string[]) =>
  `[policies.${name}]\npolicy_type = "${type}"\noperations = ${JSON.stringify(operations)}\nreasons = ["*"]\nresources = ${JSON.stringify(resources)}\n`

const CONFIG = `
[users.Crypto]
role = "Crypto"
[users.Bare]
role = "Bare"
[users.Encrypter]
role = "Encrypter"
[roles.Crypto]
capabilities = ["CapCryptoEncrypter", "CapCryptoDecrypter", "CapCryptoHasher"]
policies = ["EncryptName", "EncryptSsn", "DecryptName", "DecryptSsnMask", "DecryptArchivedName", "HashName", "DenyHashSsn", "HashSsn"]
[roles.Bare]
capabilities = ["CapDataReader"]
policies = ["All"]
[roles.Encrypter]
capabilities = ["CapCryptoEncrypter"]
policies = ["All"]
${policy('EncryptName', 'allow', ['encrypt'], ['people/properties/name'])}
${policy('EncryptSsn', 'allow', ['encrypt'], ['people/types/SSN'])}
${policy('DecryptName', 'allow', ['decrypt'], ['people/properties/name'])}
${policy('DecryptSsnMask', 'allow', ['decrypt'], ['people/types/SSN.mask'])}
${policy('DecryptArchivedName', 'allow', ['decrypt'], ['archived/people/properties/name'])}
${policy('HashName', 'allow', ['hash'], ['people/properties/name'])}
${policy('HashSsn', 'allow', ['hash'], ['people/properties/ssn'])}
${policy('DenyHashSsn', 'deny', ['hash'], ['people/types/SSN'])}
${policy('All', 'allow', ['*'], ['*'])}
`

describeEngines('crypto API policies', (engine) => {
  let server: TestServer
  let crypto: string
  let bare: string
  let encrypter: string
  let now = Date.UTC(2030, 0, 1) * 1000
  beforeAll(async () => {
    server = await startTestServer({ engine, clock: () => now })
    await addCollection(server)
    await setIam(server, CONFIG)
    crypto = await apiKeyOf(server, 'Crypto')
    bare = await apiKeyOf(server, 'Bare')
    encrypter = await apiKeyOf(server, 'Encrypter')
  })
  afterAll(() => server.close())

  const as = (
    token: string,
    path: string,
    body: unknown,
    options: { query?: string; method?: string; headers?: Record<string, string> } = {},
  ) => cryptoCall(server, `people/${path}`, body, { ...options, token })
  const fields = { name: 'Jo Doe', ssn: '123-45-6789' }

  it('checks encrypt on each included property, by property or by type', async () => {
    expect((await as(crypto, 'encrypt/objects', [{ object: { fields } }])).status).toBe(200)
    await expectError(
      await as(crypto, 'encrypt/objects', [{ object: { fields: { ...fields, age: 3 } } }]),
      403,
      'ERR1006',
    )
    expect(
      (
        await as(crypto, 'encrypt/objects', [
          { object: { fields: { ...fields, age: 3 } }, props: ['name'] },
        ])
      ).status,
    ).toBe(200)
  })

  it('checks decrypt on each returned property, and the transformation binding for transformed ones', async () => {
    const [ciphertext] = await encryptAll(server, 'people', [{ object: { fields } }])
    const item = (props?: string[]) => [{ encrypted_object: { ciphertext }, props }]
    await expectError(await as(crypto, 'decrypt/objects', item()), 403, 'ERR1006')
    await expectError(await as(crypto, 'decrypt/objects', item(['ssn'])), 403, 'ERR1006')
    const res = await as(crypto, 'decrypt/objects', item(['name', 'ssn.mask']))
    expect(await res.json()).toEqual([{ fields: { name: 'Jo Doe', 'ssn.mask': '***-**-6789' } }])
  })

  it('checks archived/ resources when decrypting with options=archived', async () => {
    const [ciphertext] = await encryptAll(
      server,
      'people',
      [{ object: { fields } }],
      'expiration_secs=1',
    )
    now += 2_000_000
    const item = (props: string[]) => [{ encrypted_object: { ciphertext }, props }]
    expect(
      (await as(crypto, 'decrypt/objects', item(['name']), { query: 'options=archived' })).status,
    ).toBe(200)
    await expectError(
      await as(crypto, 'decrypt/objects', item(['ssn.mask']), { query: 'options=archived' }),
      403,
      'ERR1006',
    )
  })

  it('checks hash on each hashed property; a deny wins', async () => {
    expect(
      (await as(crypto, 'hash/objects', [{ object: { fields: { name: 'Jo Doe' } } }])).status,
    ).toBe(200)
    await expectError(await as(crypto, 'hash/objects', [{ object: { fields } }]), 403, 'ERR1006')
  })

  it('needs the capability of each operation (update encrypted needs both)', async () => {
    const [ciphertext] = await encryptAll(server, 'people', [{ object: { fields } }])
    await expectError(await as(bare, 'encrypt/objects', []), 403, 'ERR1007')
    await expectError(await as(bare, 'decrypt/objects', []), 403, 'ERR1007')
    await expectError(await as(bare, 'hash/objects', []), 403, 'ERR1007')
    await expectError(await as(encrypter, 'decrypt/objects', []), 403, 'ERR1007')
    await expectError(
      await as(encrypter, 'encrypt/objects', [{ encrypted_object: { ciphertext }, fields: {} }], {
        method: 'PATCH',
      }),
      403,
      'ERR1007',
    )
    const blob = (op: string) =>
      server.request('POST', `${DATA}/people/${op}/blob?${REASON}&prop=photo`, {
        token: bare,
        body: new Uint8Array([1]),
        headers: { 'content-type': 'application/octet-stream' },
      })
    await expectError(await blob('encrypt'), 403, 'ERR1007')
    await expectError(await blob('decrypt'), 403, 'ERR1007')
  })

  it('checks both decrypt and encrypt on update encrypted', async () => {
    const [ciphertext] = await encryptAll(server, 'people', [{ object: { fields } }])
    const update = (props: string[]) =>
      as(crypto, 'encrypt/objects', [{ encrypted_object: { ciphertext }, fields: {}, props }], {
        method: 'PATCH',
      })
    expect((await update(['name'])).status).toBe(200)
    await expectError(await update(['ssn']), 403, 'ERR1006')
  })

  it('applies tenant rules to stored objects', async () => {
    const id = await storeObject(server.app, 'people', { name: 'Jo Doe' }, { tenantId: 't1' })
    const item = [{ object: { id }, props: ['name'] }]
    expect(
      (await as(crypto, 'encrypt/objects', item, { headers: { 'x-tenant-id': 't1' } })).status,
    ).toBe(200)
    await expectError(
      await as(crypto, 'encrypt/objects', item, { headers: { 'x-tenant-id': 't2' } }),
      403,
      'ERR1006',
    )
    expect((await as(crypto, 'encrypt/objects', item)).status).toBe(200)
  })
})

describe('crypto API with SVC_SERVICE_ADMIN_MAY_READ_DATA=false', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ env: { SVC_SERVICE_ADMIN_MAY_READ_DATA: 'false' } })
    await addCollection(server)
  })
  afterAll(() => server.close())

  it('denies Admin every crypto data operation', async () => {
    const res = await cryptoCall(server, 'people/encrypt/objects', [
      { object: { fields: { name: 'Jo Doe' } } },
    ])
    await expectError(res, 403, 'ERR1006')
  })
})
