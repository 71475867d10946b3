// test/api/audit-details.test.ts: services that pass their audit details as a value name what they touched
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cryptoCall } from '../helpers/crypto.ts'
import { describeEngines } from '../helpers/engines.ts'
import { apiKeyOf, setIam } from '../helpers/iam.ts'
import { addCollection, addObject, type ObjectsApi, objectsOf, ok } from '../helpers/objects.ts'
import { API, startTestServer, type TestServer } from '../helpers/server.ts'
import { CARDS, tokensOf } from '../helpers/tokens.ts'

const TX = '0b6f3c1e-0000-4000-8000-0000000000aa'

describeEngines('audit details passed as values', (engine) => {
  let server: TestServer
  let tokens: ReturnType<typeof tokensOf>
  beforeAll(async () => {
    server = await startTestServer({ engine })
    await addCollection(server, CARDS)
    tokens = tokensOf(server, 'cards')
  })
  afterAll(() => server.close())

  async function lastRecord(operation: string) {
    const rows = await server.app.store.audit.list({ limit: 1000 })
    const events = rows.map((row) => JSON.parse(row.record))
    return events.filter((event) => event.operation === operation).at(-1)
  }

  async function tokenize(): Promise<string> {
    const res = await tokens.tokenize([{ type: 'randomized', object: { fields: { name: 'Ada' } } }])
    expect(res.status).toBe(200)
    const [token] = await res.json()
    return token.token_id
  }

  it('records the collection of a read that returns its details (count)', async () => {
    await tokenize()
    const res = await tokens.count()
    expect(res.status).toBe(200)
    const event = await lastRecord('count_tokens')
    expect(event).toMatchObject({ collection: 'cards', outcome: 'success', status: 200 })
    expect(event.properties).toBeUndefined()
  })

  it('records the collection of a failure whose error carries the details', async () => {
    const res = await tokens.transaction(TX)
    expect(res.status).toBe(404)
    const event = await lastRecord('get_transaction_id')
    expect(event).toMatchObject({ collection: 'cards', outcome: 'failure', status: 404 })
  })

  it('records the collection of writes given their details (rotate, delete)', async () => {
    const id = await tokenize()
    expect((await tokens.rotate(`token_ids=${id}`)).status).toBe(200)
    expect(await lastRecord('rotate_tokens')).toMatchObject({ collection: 'cards', status: 200 })
    const other = await tokenize()
    expect((await tokens.remove(`token_ids=${other}`)).status).toBe(200)
    expect(await lastRecord('delete_tokens')).toMatchObject({ collection: 'cards', status: 200 })
  })

  it('records what a detokenize touched', async () => {
    const id = await tokenize()
    expect((await tokens.detokenize(`token_ids=${id}`)).status).toBe(200)
    const event = await lastRecord('detokenize')
    expect(event).toMatchObject({ collection: 'cards', properties: ['name'], status: 200 })
  })

  it('records what a token search and a token update touched', async () => {
    const id = await tokenize()
    expect((await tokens.search({ token_ids: [id] })).status).toBe(200)
    expect(await lastRecord('search_tokens')).toMatchObject({ collection: 'cards', status: 200 })
    const res = await tokens.update(`token_ids=${id}`, { object: { fields: { name: 'Bo' } } })
    expect(res.status, await res.text()).toBe(200)
    const event = await lastRecord('update_tokens')
    expect(event).toMatchObject({ collection: 'cards', properties: ['name'], status: 200 })
  })
})

describe('audit details of token export and import (file-backed SQLite)', () => {
  let server: TestServer
  let dir: string
  let tokens: ReturnType<typeof tokensOf>
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'strongroom-audit-details-'))
    server = await startTestServer({ env: { SVC_BACKING_STORE: 'sqlite', SVC_DATA_DIR: dir } })
    await addCollection(server, CARDS)
    tokens = tokensOf(server, 'cards')
  })
  afterAll(async () => {
    await server.close()
    await rm(dir, { recursive: true, force: true })
  })

  async function lastRecord(operation: string) {
    const rows = await server.app.store.audit.list({ limit: 1000 })
    const events = rows.map((row) => JSON.parse(row.record))
    return events.filter((event) => event.operation === operation).at(-1)
  }

  async function tokenize(): Promise<string> {
    const res = await tokens.tokenize([{ type: 'randomized', object: { fields: { name: 'Ada' } } }])
    expect(res.status).toBe(200)
    const [token] = await res.json()
    return token.token_id
  }

  it('records an export page and an import whose items were all refused', async () => {
    await tokenize()
    const res = await tokens.export('page_size=100')
    const page = await res.json()
    expect(res.status, JSON.stringify(page)).toBe(200)
    const exported = await lastRecord('export_tokens')
    expect(exported).toMatchObject({ collection: 'cards', properties: ['name'], status: 200 })
    const keyRes = await server.request('GET', `${API}/system/admin/export_key`)
    const { export_key: key } = await keyRes.json()
    // The same token ids again: every item is refused, nothing is written, the call is recorded.
    const imported = await tokens.import(page.results, key)
    expect(imported.status, await imported.text()).toBe(200)
    const event = await lastRecord('import_tokens')
    expect(event).toMatchObject({ collection: 'cards', outcome: 'success', status: 200 })
  })
})

const PERSONS = {
  name: 'persons',
  type: 'PERSONS',
  properties: [
    { name: 'name', data_type_name: 'NAME', is_index: true },
    { name: 'email', data_type_name: 'EMAIL', is_nullable: true },
    { name: 'ssn', data_type_name: 'SSN', is_nullable: true },
  ],
}

/** A writer and reader of everything, except `ssn`, whose writes are denied. */
const LIMITED_IAM = `
[users.Clerk]
role = "Clerk"
[roles.Clerk]
capabilities = ["CapDataReader", "CapDataWriter", "CapDataSearcher", "CapTokensWriter"]
policies = ["PolAll", "PolNoSsn"]
[policies.PolAll]
policy_type = "allow"
operations = ["read", "write", "search", "delete", "tokenize"]
reasons = ["*"]
resources = ["*"]
[policies.PolNoSsn]
policy_type = "deny"
operations = ["write"]
reasons = ["*"]
resources = ["persons/properties/ssn"]
`

/** A role that reads objects but may not encrypt `ssn`; returns its user's key. */
async function setIamFor(server: TestServer): Promise<string> {
  await setIam(
    server,
    `${LIMITED_IAM}
[users.Sealer]
role = "Sealer"
[roles.Sealer]
capabilities = ["CapDataReader", "CapCryptoEncrypter"]
policies = ["PolAll", "PolEncryptName"]
[policies.PolEncryptName]
policy_type = "allow"
operations = ["encrypt"]
reasons = ["*"]
resources = ["persons/properties/name"]
`,
  )
  return apiKeyOf(server, 'Sealer')
}

/** What a record names and how the call ended: the fields these tests pin. */
function named(event: Record<string, unknown> | undefined) {
  if (event === undefined) return undefined
  const { collection, properties, object_ids, token_ids, outcome, status, error_code } = event
  return { collection, properties, object_ids, token_ids, outcome, status, error_code }
}

describeEngines('audit records of objects, tokenize, collections, crypto and IAM', (engine) => {
  let server: TestServer
  let objects: ObjectsApi
  let tokens: ReturnType<typeof tokensOf>
  beforeAll(async () => {
    server = await startTestServer({ engine })
    await addCollection(server, PERSONS)
    objects = objectsOf(server, 'persons')
    tokens = tokensOf(server, 'persons')
  })
  afterAll(() => server.close())

  async function lastRecord(operation: string) {
    const rows = await server.app.store.audit.list({ limit: 1000 })
    const events = rows.map((row) => JSON.parse(row.record))
    return named(events.filter((event) => event.operation === operation).at(-1))
  }

  const success = { outcome: 'success', status: 200 }

  it('records an object add and a bulk add', async () => {
    const id = await addObject(objects, { name: 'Ada', email: 'ada@example.com' })
    expect(await lastRecord('add_object')).toEqual({
      collection: 'persons',
      properties: ['email', 'name'],
      object_ids: [id],
      ...success,
    })
    const res = await objects.addMany([{ name: 'Bo' }, { name: 'Cy', ssn: '123-45-6789' }])
    const [first, second] = (await ok(res)).results
    expect(await lastRecord('add_objects')).toEqual({
      collection: 'persons',
      properties: ['name', 'ssn'],
      object_ids: [first.id, second.id],
      ...success,
    })
  })

  it('records a bulk add whose items were all refused, and the failure of a single add', async () => {
    const res = await objects.addMany([{ name: 'Di' }, { name: 'Ed', nope: 1 }])
    const [valid, refused] = (await ok(res)).results
    expect(refused.error).toBeDefined()
    // The item that passed is named by the id drafted for it; nothing was stored.
    expect(await lastRecord('add_objects')).toEqual({
      collection: 'persons',
      properties: ['name'],
      object_ids: [valid.id],
      ...success,
    })
    const single = await objects.add({ name: 'Fa', email: 'not an email' })
    expect(single.status).toBe(400)
    const code = (await single.json()).error_code
    expect(await lastRecord('add_object')).toEqual({
      collection: 'persons',
      properties: ['email', 'name'],
      outcome: 'failure',
      status: 400,
      error_code: code,
    })
  })

  it('records an object get, a list and a search', async () => {
    const id = await addObject(objects, { name: 'Gus', email: 'gus@example.com' })
    expect((await objects.get(id, 'props=name,email')).status).toBe(200)
    expect(await lastRecord('get_object')).toEqual({
      collection: 'persons',
      properties: ['email', 'name'],
      object_ids: [id],
      ...success,
    })
    expect((await objects.list(`ids=${id}&props=name`)).status).toBe(200)
    expect(await lastRecord('list_objects')).toEqual({
      collection: 'persons',
      properties: ['name'],
      object_ids: [id],
      ...success,
    })
    const found = await ok(objects.search({ match: { name: 'Gus' } }, 'props=email'))
    expect(found.results).toHaveLength(1)
    expect(await lastRecord('search_objects')).toEqual({
      collection: 'persons',
      properties: ['email', 'name'],
      object_ids: [id],
      ...success,
    })
  })

  it('records the failure of a get of an unknown object and of an unknown collection', async () => {
    const id = '0b6f3c1e-0000-4000-8000-0000000000bb'
    expect((await objects.get(id, 'props=name')).status).toBe(404)
    expect(await lastRecord('get_object')).toEqual({
      collection: 'persons',
      properties: ['name'],
      outcome: 'failure',
      status: 404,
      error_code: 'ERR3005',
    })
    expect((await objectsOf(server, 'nowhere').get(id, 'props=name')).status).toBe(404)
    expect(await lastRecord('get_object')).toEqual({
      outcome: 'failure',
      status: 404,
      error_code: 'ERR1004',
    })
  })

  it('records an object update and a bulk update', async () => {
    const id = await addObject(objects, { name: 'Hal' })
    expect((await objects.update(id, { email: 'hal@example.com' })).status).toBe(200)
    expect(await lastRecord('update_object')).toEqual({
      collection: 'persons',
      properties: ['email'],
      object_ids: [id],
      ...success,
    })
    const other = await addObject(objects, { name: 'Ida' })
    const res = await objects.updateMany([
      { id, name: 'Hal B' },
      { id: other, ssn: '987-65-4321' },
    ])
    expect(res.status, await res.text()).toBe(200)
    expect(await lastRecord('update_objects')).toEqual({
      collection: 'persons',
      properties: ['name', 'ssn'],
      object_ids: [id, other],
      ...success,
    })
  })

  it('records an object delete and a bulk delete', async () => {
    const id = await addObject(objects, { name: 'Jo' })
    expect((await objects.remove(id)).status).toBe(200)
    expect(await lastRecord('delete_object')).toEqual({
      collection: 'persons',
      object_ids: [id],
      ...success,
    })
    const a = await addObject(objects, { name: 'Kai' })
    const b = await addObject(objects, { name: 'Lu' })
    expect((await objects.removeMany([{ id: a }, { id: b }])).status).toBe(200)
    expect(await lastRecord('delete_objects')).toEqual({
      collection: 'persons',
      object_ids: [a, b],
      ...success,
    })
  })

  it('records tokenize, with and without storing the object', async () => {
    const plain = await tokens.tokenize([
      { type: 'randomized', object: { fields: { name: 'Mo', email: 'mo@example.com' } } },
    ])
    expect(plain.status).toBe(200)
    expect(await lastRecord('tokenize')).toEqual({
      collection: 'persons',
      properties: ['email', 'name'],
      ...success,
    })
    const stored = await tokens.tokenize([
      { type: 'randomized', object: { fields: { name: 'Ned' } }, store_object: true },
    ])
    const [token] = await stored.json()
    expect(stored.status).toBe(200)
    expect(await lastRecord('tokenize')).toEqual({
      collection: 'persons',
      properties: ['name'],
      object_ids: [token.object_id],
      ...success,
    })
    const id = await addObject(objects, { name: 'Oz', ssn: '111-22-3333' })
    const byId = await tokens.tokenize([
      { type: 'pointer', object: { id }, props: ['ssn'] },
      { type: 'randomized', object: { id }, props: ['name'] },
    ])
    expect(byId.status, await byId.text()).toBe(200)
    expect(await lastRecord('tokenize')).toEqual({
      collection: 'persons',
      properties: ['name', 'ssn'],
      object_ids: [id],
      ...success,
    })
  })

  it('records a tokenize whose stored object is refused, with what both calls touched', async () => {
    const codes = {
      name: 'codes',
      type: 'DATA',
      properties: [
        { name: 'code', data_type_name: 'STRING', is_unique: true },
        { name: 'label', data_type_name: 'STRING', is_nullable: true },
      ],
    }
    await addCollection(server, codes)
    await addObject(objectsOf(server, 'codes'), { code: 'X1' })
    const res = await tokensOf(server, 'codes').tokenize([
      { type: 'randomized', object: { fields: { label: 'first' } } },
      { type: 'randomized', object: { fields: { code: 'X1', label: 'b' } }, store_object: true },
    ])
    expect(res.status).toBe(409)
    const events = (await server.app.store.audit.list({ limit: 1000 }))
      .map((row) => JSON.parse(row.record))
      .filter((event) => event.operation === 'tokenize')
    const [refused, failed] = events.slice(-2).map(named)
    // The objects' commit records the call whose items were refused, then the failure follows.
    expect(refused).toEqual({ ...failed, outcome: 'success', status: 200, error_code: undefined })
    expect(failed).toEqual({
      collection: 'codes',
      properties: ['code', 'label'],
      object_ids: [expect.any(String)],
      outcome: 'failure',
      status: 409,
      error_code: (await res.json()).error_code,
    })
  })

  it('records a collection add, a property read and a collection read', async () => {
    const body = {
      name: 'extra',
      type: 'DATA',
      properties: [{ name: 'note', data_type_name: 'STRING' }],
    }
    await addCollection(server, body)
    expect(await lastRecord('add_collection')).toEqual({ collection: 'extra', ...success })
    expect((await server.request('GET', `${API}/ctl/collections/extra`)).status).toBe(200)
    expect(await lastRecord('get_collection')).toEqual({ collection: 'extra', ...success })
    const property = await server.request('GET', `${API}/ctl/collections/extra/properties/note`)
    expect(property.status).toBe(200)
    expect(await lastRecord('get_property')).toEqual({
      collection: 'extra',
      properties: ['note'],
      ...success,
    })
    const missing = await server.request('GET', `${API}/ctl/collections/extra/properties/gone`)
    expect(missing.status).toBe(404)
    expect(await lastRecord('get_property')).toEqual({
      collection: 'extra',
      properties: ['gone'],
      outcome: 'failure',
      status: 404,
      error_code: 'ERR3004',
    })
    const again = await server.request('POST', `${API}/ctl/collections`, { body })
    expect(again.status).toBe(409)
    expect(await lastRecord('add_collection')).toEqual({
      collection: 'extra',
      outcome: 'failure',
      status: 409,
      error_code: (await again.json()).error_code,
    })
  })

  it('records encrypt, decrypt and hash', async () => {
    const id = await addObject(objects, { name: 'Pia', ssn: '222-33-4444' })
    const encrypted = await cryptoCall(server, 'persons/encrypt/objects', [
      { object: { id }, props: ['ssn'] },
      { object: { fields: { name: 'Quin' } } },
    ])
    const [first] = await encrypted.json()
    expect(encrypted.status).toBe(200)
    expect(await lastRecord('encrypt')).toEqual({
      collection: 'persons',
      properties: ['name', 'ssn'],
      object_ids: [id],
      ...success,
    })
    const decrypted = await cryptoCall(server, 'persons/decrypt/objects', [
      { encrypted_object: { ciphertext: first.ciphertext } },
    ])
    expect(decrypted.status, await decrypted.text()).toBe(200)
    expect(await lastRecord('decrypt')).toEqual({
      collection: 'persons',
      properties: ['ssn'],
      ...success,
    })
    const hashed = await cryptoCall(server, 'persons/hash/objects', [
      { object: { id }, props: ['name'] },
      { object: { id }, props: ['ssn'] },
    ])
    expect(hashed.status, await hashed.text()).toBe(200)
    expect(await lastRecord('hash_objects')).toEqual({
      collection: 'persons',
      properties: ['name', 'ssn'],
      object_ids: [id, id],
      ...success,
    })
    const deniedKey = await setIamFor(server)
    const denied = await cryptoCall(server, 'persons/encrypt/objects', [{ object: { id } }], {
      token: deniedKey,
    })
    expect(denied.status).toBe(403)
    // Refused by the policy check: the stored object is named, the properties not yet.
    expect(await lastRecord('encrypt')).toEqual({
      collection: 'persons',
      object_ids: [id],
      outcome: 'failure',
      status: 403,
      error_code: (await denied.json()).error_code,
    })
    const unknown = await cryptoCall(server, 'nowhere/encrypt/objects', [
      { object: { fields: { name: 'Ra' } } },
    ])
    expect(unknown.status).toBe(404)
    expect(await lastRecord('encrypt')).toEqual({
      collection: 'nowhere',
      outcome: 'failure',
      status: 404,
      error_code: 'ERR1004',
    })
  })

  it('records an IAM apply, then the denied-property failures of a role', async () => {
    await setIam(server, LIMITED_IAM)
    expect(await lastRecord('set_iam_conf')).toEqual(success)
    const token = await apiKeyOf(server, 'Clerk')
    const denied = await objects.add({ name: 'Sy', ssn: '333-44-5555' }, '', { token })
    expect(denied.status).toBe(403)
    const code = (await denied.json()).error_code
    expect(await lastRecord('add_object')).toEqual({
      collection: 'persons',
      properties: ['name', 'ssn'],
      outcome: 'failure',
      status: 403,
      error_code: code,
    })
    const id = await addObject(objects, { name: 'Tam' })
    const bulk = await objects.updateMany([{ id, ssn: '444-55-6666' }], '', { token })
    expect(bulk.status).toBe(403)
    expect(await lastRecord('update_objects')).toEqual({
      collection: 'persons',
      properties: ['ssn'],
      outcome: 'failure',
      status: 403,
      error_code: code,
    })
    const tokenized = await server.request(
      'POST',
      `${API}/data/collections/persons/tokens?reason=AppFunctionality`,
      {
        token,
        body: [
          {
            type: 'randomized',
            object: { fields: { name: 'Uma', ssn: '555-66-7777' } },
            store_object: true,
          },
        ],
      },
    )
    expect(tokenized.status).toBe(403)
    expect(await lastRecord('tokenize')).toEqual({
      outcome: 'failure',
      status: 403,
      error_code: (await tokenized.json()).error_code,
    })
  })
})
