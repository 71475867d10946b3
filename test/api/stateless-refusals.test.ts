// test/api/stateless-refusals.test.ts: what a stateless node cannot do answers 501 ERR2001 and changes nothing
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectError } from '../helpers/collections.ts'
import { API, startTestServer } from '../helpers/server.ts'
import { configDir, FILES, type StatelessNode, startStatelessNode } from '../helpers/stateless.ts'
import { tokensOf } from '../helpers/tokens.ts'

const R = 'reason=AppFunctionality'
const PEOPLE = `${API}/data/collections/people`
const ID = '8d0f1c1e-8b6c-4ec3-a7f4-3b1ad8a0ad4e'
const TOKEN = 'f3b0c6a2-5d1e-4c8b-9a7f-2e6d4b1c0a9e'
const COLLECTIONS = `${API}/ctl/collections`
const BUNDLE = 'exports.f = { type: "action", handler: async () => 1 }'
const NEW_COLLECTION = {
  name: 'more',
  type: 'DATA',
  properties: [{ name: 'x', data_type_name: 'STRING' }],
}

/** Every operation config.md §8 leaves out, as a call that would succeed on a node with a database. */
const REFUSED: readonly [string, string, string, unknown?][] = [
  ['add_object', 'POST', `${PEOPLE}/objects?${R}`, { name: 'Jo Doe' }],
  ['add_objects', 'POST', `${PEOPLE}/bulk/objects?${R}`, [{ name: 'Jo Doe' }]],
  ['get_object', 'GET', `${PEOPLE}/objects/${ID}?${R}&props=name`],
  ['list_objects', 'GET', `${PEOPLE}/objects?${R}&props=name`],
  [
    'search_objects',
    'POST',
    `${PEOPLE}/query/objects?${R}&props=name`,
    { match: { email: 'jo@example.com' } },
  ],
  ['update_object', 'PATCH', `${PEOPLE}/objects/${ID}?${R}`, { name: 'Jo Roe' }],
  ['update_objects', 'PATCH', `${PEOPLE}/bulk/objects?${R}`, [{ id: ID, name: 'Jo Roe' }]],
  ['delete_object', 'DELETE', `${PEOPLE}/objects/${ID}?${R}&props=name`],
  ['delete_objects', 'DELETE', `${PEOPLE}/bulk/objects?${R}`, [{ id: ID }]],
  ['count_objects', 'GET', `${PEOPLE}/count/objects?${R}`],
  [
    'tokenize',
    'POST',
    `${PEOPLE}/tokens?${R}`,
    [{ type: 'randomized', object: { fields: { name: 'Jo Doe' } } }],
  ],
  ['detokenize', 'GET', `${PEOPLE}/tokens?${R}&token_ids=${TOKEN}`],
  ['search_tokens', 'POST', `${PEOPLE}/query/tokens?${R}`, { match: { token_ids: [TOKEN] } }],
  ['update_tokens', 'PATCH', `${PEOPLE}/tokens?${R}&token_ids=${TOKEN}`, { tags: ['a'] }],
  ['delete_tokens', 'DELETE', `${PEOPLE}/tokens?${R}&token_ids=${TOKEN}`],
  ['rotate_tokens', 'POST', `${PEOPLE}/rotate/tokens?${R}&token_ids=${TOKEN}`],
  ['get_transaction_id', 'GET', `${PEOPLE}/transaction_id/${ID}?${R}`],
  ['count_tokens', 'GET', `${PEOPLE}/count/tokens?${R}`],
  ['export_tokens', 'GET', `${PEOPLE}/export/tokens?${R}`],
  [
    'analysis_protect',
    'POST',
    `${API}/data/analysis/protect?${R}&collection=people`,
    { text: ['Mail jo@example.com'] },
  ],
  [
    'analysis_reveal',
    'POST',
    `${API}/data/analysis/reveal?${R}&collection=people`,
    { text: [`Mail [[EMAIL:${TOKEN}]]`] },
  ],
  ['add_collection', 'POST', COLLECTIONS, NEW_COLLECTION],
  ['update_collection', 'PATCH', `${COLLECTIONS}/notes`, { ...NEW_COLLECTION, name: 'notes' }],
  ['delete_collection', 'DELETE', `${COLLECTIONS}/notes`],
  [
    'add_property',
    'POST',
    `${COLLECTIONS}/notes/properties/more`,
    { name: 'more', data_type_name: 'STRING', is_nullable: true },
  ],
  ['update_property', 'PATCH', `${COLLECTIONS}/notes/properties/text`, { description: 'changed' }],
  ['delete_property', 'DELETE', `${COLLECTIONS}/people/properties/email`],
  [
    'add_bundle',
    'POST',
    `${API}/ctl/bundles`,
    { name: 'b', code: Buffer.from(BUNDLE).toString('base64') },
  ],
  ['add_action', 'POST', `${API}/ctl/actions`, { name: 'a', function: 'b.f', role: 'App' }],
  ['set_iam_conf', 'POST', `${API}/ctl/iam/conf`, FILES['iam.toml']],
  ['regenerate_user_api_key', 'POST', `${API}/ctl/iam/user/regen`, { name: 'App' }],
  [
    'update_user_api_key_expiration',
    'POST',
    `${API}/ctl/iam/user/update-expiration`,
    { name: 'App', expiration_secs: 60 },
  ],
  [
    'set_admin_api_key',
    'POST',
    `${API}/ctl/iam/admin/set-api-key`,
    { key: 'Str0ngerAdminKey-for-a-test' },
  ],
  ['rotate_keys', 'POST', `${API}/system/admin/keys/rotate`],
  ['get_rotation_status', 'GET', `${API}/system/admin/keys/rotation`],
  ['get_export_key', 'GET', `${API}/system/admin/export_key`],
  ['garbage_collection', 'POST', `${API}/system/admin/lifecycle/gc?${R}`],
  ['get_cluster_info', 'GET', `${API}/ctl/info/cluster`],
]

describe('stateless mode refuses what needs a database', () => {
  let dir: string
  let node: StatelessNode
  beforeAll(async () => {
    dir = await configDir(FILES)
    node = await startStatelessNode(dir)
  })
  afterAll(async () => {
    await node.close()
    await rm(dir, { recursive: true, force: true })
  })

  for (const [operation, method, path, body] of REFUSED) {
    it(`${operation}: 501 ERR2001`, async () => {
      const res = await node.request(method, path, body)
      const error = await expectError(res, 501, 'ERR2001')
      expect(error.message).toContain('stateless mode')
    })
  }

  it('import_tokens: 501 ERR2001, with tokens and the export key of a vault with a database', async () => {
    const source = await startTestServer({
      env: { SVC_BACKING_STORE: 'sqlite', SVC_DATA_DIR: join(dir, 'source') },
    })
    try {
      const people = {
        name: 'people',
        type: 'PERSONS',
        properties: [{ name: 'name', data_type_name: 'NAME' }],
      }
      expect((await source.request('POST', COLLECTIONS, { body: people })).status).toBe(200)
      const tokens = tokensOf(source, 'people')
      const tokenize = await tokens.tokenize([
        { type: 'randomized', object: { fields: { name: 'Jo' } } },
      ])
      expect(tokenize.status).toBe(200)
      const exported = (await (await tokens.export()).json()).results
      const key = (await (await source.request('GET', `${API}/system/admin/export_key`)).json())
        .export_key
      const path = `${PEOPLE}/import/tokens?${R}&export_key=${encodeURIComponent(key)}`
      await expectError(await node.request('POST', path, exported), 501, 'ERR2001')
    } finally {
      await source.close()
    }
  })

  it('documents 501 ERR2001 on what a stateless node may refuse, and only there', async () => {
    const document = await (await node.request('GET', '/openapi.json')).json()
    const responses = (path: string, method: string) =>
      Object.keys(document.paths[`${API}${path}`][method].responses)
    expect(responses('/data/collections/{collection}/objects', 'post')).toContain('501')
    expect(responses('/data/collections/{collection}/encrypt/objects', 'post')).toContain('501')
    expect(responses('/data/collections/{collection}/decrypt/objects', 'post')).not.toContain('501')
    expect(responses('/ctl/collections', 'get')).not.toContain('501')
  })

  it('leaves the control data of its files as they were', async () => {
    const res = await node.request('GET', COLLECTIONS)
    const names = (await res.json()).map((c: { name: string }) => c.name)
    expect(names).toEqual(['notes', 'people'])
    const notes = await (await node.request('GET', `${COLLECTIONS}/notes`)).json()
    expect(notes.properties.map((p: { name: string }) => p.name)).toContain('text')
    expect((await node.request('GET', `${API}/ctl/iam/conf`)).status).toBe(200)
  })
})
