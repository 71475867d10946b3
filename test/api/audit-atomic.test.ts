// test/api/audit-atomic.test.ts: every write route records its audit row in its own transaction: a failing insert changes nothing
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type AuditFault, openAuditFault } from '../helpers/audit-fault.ts'
import { addBundle, code } from '../helpers/bundles.ts'
import { describeEngines } from '../helpers/engines.ts'
import { apiKeyOf, setIam } from '../helpers/iam.ts'
import { addCollection, ok } from '../helpers/objects.ts'
import { API, type Json, startTestServer, type TestServer } from '../helpers/server.ts'
import { CARDS } from '../helpers/tokens.ts'
import { startUpstream, type Upstream } from '../helpers/upstream.ts'

const R = 'reason=AppFunctionality'
const DATA = `${API}/data/collections`
const CARD = '4111111111111111'
const STRONG_KEY = 'NewAdminKey2030xyz'

const PEOPLE = {
  name: 'people',
  type: 'PERSONS',
  properties: [
    { name: 'name', data_type_name: 'NAME' },
    { name: 'ssn', data_type_name: 'SSN', is_unique: true, is_nullable: true },
    { name: 'email', data_type_name: 'EMAIL', is_index: true, is_nullable: true },
    { name: 'photo', data_type_name: 'BLOB', is_nullable: true },
  ],
}

const IAM = `
[users.App1]
role = "App"
[roles.App]
capabilities = ["*"]
policies = ["All"]
[policies.All]
policy_type = "allow"
operations = ["*"]
reasons = ["*"]
resources = ["*"]
`

const HOOKS = `exports.echo = { type: 'action', handler: (context) => context.body }`
const CHECKS = `
exports.valid = { type: 'validator', handler: (value) => value.length > 2 }
exports.mask = { type: 'transformer', handler: (context, object, value) => '***' }
`

/** What a fixture may use: ids and values made by the setup and by earlier fixtures. */
type State = {
  objectIds: string[]
  tokenIds: string[]
  ciphertext: string
  sealedBlob: Uint8Array
  exported: Json[]
  exportKey: string
  adminKey: string
  /** Origin of a local HTTP server that http_call may reach. */
  upstream: string
}

type Call = Readonly<{
  method: string
  path: string
  body?: unknown
  headers?: Record<string, string>
}>

type Fixture = Readonly<{
  /** The request, built when its turn comes (it may use what earlier fixtures made). */
  call: (state: State) => Call
  /** Status of the call with a working audit insert (default 200). */
  status?: number
  /** Runs after the call succeeded: keeps what later fixtures need. */
  after?: (state: State, body: Json) => void
}>

const post = (path: string, body?: unknown, headers?: Record<string, string>): Call => ({
  method: 'POST',
  path,
  body,
  headers,
})
const patch = (path: string, body?: unknown): Call => ({ method: 'PATCH', path, body })
const del = (path: string): Call => ({ method: 'DELETE', path })
const octets = { 'content-type': 'application/octet-stream' }
const tomlText = { 'content-type': 'application/toml' }

/**
 * One fixture per operationId of every route that is not a GET, in the order they run (later
 * ones use what earlier ones made). A new route fails the first test until it has one here.
 */
const FIXTURES: Readonly<Record<string, Fixture>> = {
  'system.setLicense': { call: () => post(`${API}/system/info/license`, { key: 'lic-2' }) },
  'configVars.setConfVar': {
    call: () => post(`${API}/system/confvar/log_level`, { value: 'warn' }),
  },
  'configVars.clearAllConfVars': { call: () => del(`${API}/system/confvar`) },
  'system.triggerError': {
    call: () => post(`${API}/system/debug/error/trigger`, { status: 409 }),
    status: 409,
  },
  'iam.setIamConf': { call: () => post(`${API}/ctl/iam/conf`, IAM, tomlText) },
  'iam.regenerateUserApiKey': { call: () => post(`${API}/ctl/iam/user/regen`, { name: 'App1' }) },
  'iam.updateApiKeyExpiration': {
    call: () =>
      post(`${API}/ctl/iam/user/update-expiration`, { name: 'App1', expiration_secs: 7200 }),
  },
  'collections.addCollection': {
    call: () =>
      post(`${API}/ctl/collections`, {
        name: 'scratch',
        type: 'DATA',
        properties: [{ name: 'note', data_type_name: 'STRING' }],
      }),
  },
  'collections.updateCollection': {
    call: () =>
      patch(`${API}/ctl/collections/scratch`, {
        name: 'scratch',
        type: 'DATA',
        properties: [
          { name: 'note', data_type_name: 'STRING' },
          { name: 'added', data_type_name: 'STRING', is_nullable: true },
        ],
      }),
  },
  'collectionProperties.addCollectionProperty': {
    call: () =>
      post(`${API}/ctl/collections/scratch/properties/extra`, {
        name: 'extra',
        data_type_name: 'STRING',
        is_nullable: true,
      }),
  },
  'collectionProperties.updateCollectionProperty': {
    call: () =>
      patch(`${API}/ctl/collections/scratch/properties/extra`, { description: 'changed' }),
  },
  'collectionProperties.deleteCollectionProperty': {
    call: () => del(`${API}/ctl/collections/scratch/properties/extra`),
  },
  'collections.deleteCollection': { call: () => del(`${API}/ctl/collections/scratch`) },
  'objects.addObject': {
    call: () => post(`${DATA}/people/objects?${R}`, { name: 'Ann Lee', ssn: '123-45-6789' }),
    after: (state, body) => state.objectIds.push(body.id),
  },
  'objects.addObjects': {
    call: () => post(`${DATA}/people/bulk/objects?${R}`, [{ name: 'Bo Kim' }, { name: 'Cy Ray' }]),
    after: (state, body) => state.objectIds.push(...body.results.map((r: Json) => r.id)),
  },
  'objects.updateObjectById': {
    call: (s) => patch(`${DATA}/people/objects/${s.objectIds[0]}?${R}`, { email: 'a@b.example' }),
  },
  'objects.updateObjects': {
    call: (s) => patch(`${DATA}/people/bulk/objects?${R}`, [{ _id: s.objectIds[1], name: 'Bo K' }]),
  },
  'objects.searchObjects': {
    call: () =>
      post(`${DATA}/people/query/objects?${R}&options=unsafe`, { match: { email: 'a@b.example' } }),
  },
  'objects.deleteObjectById': { call: (s) => del(`${DATA}/people/objects/${s.objectIds[2]}?${R}`) },
  'objects.deleteObjects': {
    call: (s) => ({
      method: 'DELETE',
      path: `${DATA}/people/bulk/objects?${R}`,
      body: [{ id: s.objectIds[1] }],
    }),
  },
  'crypto.encrypt': {
    call: () =>
      post(`${DATA}/people/encrypt/objects?${R}`, [{ object: { fields: { name: 'Di' } } }]),
    after: (state, body) => {
      state.ciphertext = body[0].ciphertext
    },
  },
  'crypto.updateEncrypted': {
    call: (s) =>
      patch(`${DATA}/people/encrypt/objects?${R}`, [
        { encrypted_object: { ciphertext: s.ciphertext }, fields: { name: 'Ed' } },
      ]),
  },
  'crypto.decrypt': {
    call: (s) =>
      post(`${DATA}/people/decrypt/objects?${R}`, [
        { encrypted_object: { ciphertext: s.ciphertext } },
      ]),
  },
  'crypto.hashObjects': {
    call: () => post(`${DATA}/people/hash/objects?${R}`, [{ object: { fields: { name: 'Di' } } }]),
  },
  'crypto.encryptBlob': {
    call: () => post(`${DATA}/people/encrypt/blob?${R}&prop=photo`, Buffer.from('photo'), octets),
    after: (state, body) => {
      state.sealedBlob = body
    },
  },
  'crypto.decryptBlob': {
    call: (s) => post(`${DATA}/people/decrypt/blob?${R}&prop=photo`, s.sealedBlob, octets),
  },
  'tokens.tokenize': {
    call: () =>
      post(`${DATA}/cards/tokens?${R}`, [
        { type: 'randomized', object: { fields: { card: CARD } } },
      ]),
    after: (state, body) => state.tokenIds.push(body[0].token_id),
  },
  'tokens.searchTokens': {
    call: (s) => post(`${DATA}/cards/query/tokens?${R}`, { token_ids: [s.tokenIds[0]] }),
  },
  'tokens.updateTokens': {
    call: (s) => patch(`${DATA}/cards/tokens?${R}&token_ids=${s.tokenIds[0]}`, { tags: ['t1'] }),
  },
  'tokens.rotateTokens': {
    call: (s) => post(`${DATA}/cards/rotate/tokens?${R}&token_ids=${s.tokenIds[0]}`),
    after: (state, body) => {
      state.tokenIds[0] = body[state.tokenIds[0] as string]
    },
  },
  'tokens.importTokens': {
    call: (s) =>
      post(
        `${DATA}/cards2/import/tokens?${R}&export_key=${encodeURIComponent(s.exportKey)}`,
        s.exported,
      ),
  },
  'tokens.deleteTokens': {
    call: (s) => del(`${DATA}/cards/tokens?${R}&token_ids=${s.tokenIds[0]}`),
  },
  'bundles.addBundle': {
    call: () => post(`${API}/ctl/bundles`, { name: 'scratch', code: code(HOOKS) }),
  },
  'bundles.updateBundle': {
    call: () => patch(`${API}/ctl/bundles/scratch`, { description: 'changed' }),
  },
  'actions.addAction': {
    call: () =>
      post(`${API}/ctl/actions`, { name: 'scratch', function: 'hooks.echo', role: 'App' }),
  },
  'actions.invokeAction': { call: () => post(`${API}/data/actions/scratch?${R}`, { n: 1 }) },
  'actions.invokeHttpCallAction': {
    call: (s) =>
      post(`${API}/data/actions/http_call?${R}`, {
        request: { url: `${s.upstream}/allowed/ping`, method: 'GET' },
      }),
  },
  'actions.deleteAction': { call: () => del(`${API}/ctl/actions/scratch`) },
  'customDataTypes.addDataType': {
    call: () =>
      post(`${API}/ctl/types`, {
        name: 'SCRATCH_SSN',
        base_type_name: 'STRING',
        validator: 'checks.valid',
        transformers: ['checks.mask'],
      }),
  },
  'customDataTypes.updateDataType': {
    call: () =>
      patch(`${API}/ctl/types/SCRATCH_SSN`, {
        name: 'SCRATCH_SSN',
        base_type_name: 'STRING',
        description: 'changed',
        validator: 'checks.valid',
        transformers: ['checks.mask'],
      }),
  },
  'customDataTypes.deleteDataType': { call: () => del(`${API}/ctl/types/SCRATCH_SSN`) },
  'bundles.deleteBundle': { call: () => del(`${API}/ctl/bundles/scratch`) },
  'analysis.containsPii': {
    call: () => post(`${API}/data/analysis/contains?${R}`, { text: ['mail ann@example.com'] }),
  },
  'analysis.detectPii': {
    call: () => post(`${API}/data/analysis/detect?${R}`, { text: ['mail ann@example.com'] }),
  },
  'analysis.locatePii': {
    call: () => post(`${API}/data/analysis/locate?${R}`, { text: ['mail ann@example.com'] }),
  },
  'analysis.protectText': {
    call: () =>
      post(`${API}/data/analysis/protect?${R}&collection=people`, {
        text: ['mail ann@example.com'],
      }),
  },
  'analysis.revealText': {
    call: () =>
      post(`${API}/data/analysis/reveal?${R}&collection=people`, { text: ['nothing here'] }),
  },
  'system.garbageCollection': { call: () => post(`${API}/system/admin/lifecycle/gc?${R}`) },
  // Last: the Admin key changes for every later call.
  'iam.setAdminApiKey': {
    call: () => post(`${API}/ctl/iam/admin/set-api-key`, { key: STRONG_KEY }),
    after: (state) => {
      state.adminKey = STRONG_KEY
    },
  },
  // After every data write: the re-encryption job it starts changes stored rows in the background.
  'system.rotateKeys': { call: () => post(`${API}/system/admin/keys/rotate`) },
}

const METHODS = new Set(['post', 'put', 'patch', 'delete'])

describeEngines('audit record in the transaction of every write', (engine) => {
  let server: TestServer
  let fault: AuditFault
  let dir: string
  let routes: string[]
  let upstream: Upstream
  const state: State = {
    objectIds: [],
    tokenIds: [],
    ciphertext: '',
    sealedBlob: new Uint8Array(),
    exported: [],
    exportKey: '',
    adminKey: 'pvaultauth',
    upstream: '',
  }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'strongroom-audit-'))
    upstream = await startUpstream()
    state.upstream = upstream.origin
    server = await startTestServer({
      engine,
      env: {
        ...(engine === 'sqlite' ? { SVC_BACKING_STORE: 'sqlite', SVC_DATA_DIR: dir } : {}),
        SVC_KMS_EXPORT_SEED: 'audit test export seed',
        SVC_SERVICE_ALLOWED_HTTP_DESTINATIONS: `${upstream.origin}/allowed`,
      },
    })
    fault = await openAuditFault(server.app.config.database)
    const doc = await ok(server.request('GET', '/openapi.json', { token: null }))
    routes = Object.values(doc.paths as Record<string, Record<string, Json>>).flatMap((methods) =>
      Object.entries(methods)
        .filter(([method]) => METHODS.has(method))
        .map(([, operation]) => operation.operationId as string),
    )
    await addCollection(server, PEOPLE)
    await addCollection(server, CARDS)
    await addCollection(server, { ...CARDS, name: 'cards2' })
    await setIam(server, IAM)
    await apiKeyOf(server, 'App1')
    await addBundle(server, 'hooks', HOOKS)
    await addBundle(server, 'checks', CHECKS)
    state.exportKey = (await ok(server.request('GET', `${API}/system/admin/export_key`))).export_key
    await ok(
      server.request('POST', `${DATA}/cards/tokens?${R}`, {
        body: [{ type: 'randomized', object: { fields: { card: CARD } } }],
      }),
    )
    state.exported = (await ok(server.request('GET', `${DATA}/cards/export/tokens?${R}`))).results
  })
  afterAll(async () => {
    await fault?.close()
    await server?.close()
    await upstream?.close()
    await rm(dir, { recursive: true, force: true })
  })

  const recordCount = async () => (await server.app.store.audit.list({ limit: 100_000 })).length

  it('has a fixture for every route that is not a GET', () => {
    expect(routes.length).toBeGreaterThan(40)
    expect(routes.filter((id) => FIXTURES[id] === undefined)).toEqual([])
    expect(Object.keys(FIXTURES).filter((id) => !routes.includes(id))).toEqual([])
  })

  it('answers an error and changes nothing when the audit insert fails, else records once', async () => {
    for (const [operationId, fixture] of Object.entries(FIXTURES)) {
      const send = () => {
        const call = fixture.call(state)
        return server.request(call.method, call.path, {
          body: call.body,
          headers: call.headers,
          token: state.adminKey,
        })
      }
      const before = await fault.snapshot()
      await fault.arm()
      const failed = await send().finally(() => fault.disarm())
      const body = await failed.json()
      // A call that fails anyway (the error aid) keeps its answer; any other answers 503 ERR1014,
      // whether the insert failed inside the write's transaction or the record was written on
      // its own (that of a bulk call whose every item was refused).
      const isError = (fixture.status ?? 200) >= 400
      expect(failed.status, operationId).toBe(isError ? fixture.status : 503)
      expect(body, operationId).toEqual({
        error_code: isError ? expect.stringMatching(/^ERR\d{4}$/) : 'ERR1014',
        message: expect.stringMatching(/\.$/),
        context: expect.any(Object),
      })
      expect(await fault.snapshot(), `${operationId} changed data without its record`).toEqual(
        before,
      )
      const records = await recordCount()
      const res = await send()
      const bytes = new Uint8Array(await res.arrayBuffer())
      const text = Buffer.from(bytes).toString('utf8')
      expect(res.status, `${operationId}: ${text}`).toBe(fixture.status ?? 200)
      expect(await recordCount(), `${operationId} writes one record`).toBe(records + 1)
      const isJson = res.headers.get('content-type')?.startsWith('application/json') === true
      fixture.after?.(state, isJson && text !== '' ? JSON.parse(text) : bytes)
    }
  })
})
