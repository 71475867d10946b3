// test/api/audit-details.test.ts: services that pass their audit details as a value name what they touched
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { describeEngines } from '../helpers/engines.ts'
import { addCollection } from '../helpers/objects.ts'
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
