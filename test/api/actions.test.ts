// test/api/actions.test.ts: actions over HTTP: list, add, get, delete, invoke with the action's role (endpoints §7)
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ACTIONS, addAction, addBundle, auditRecords, invoke, ok } from '../helpers/bundles.ts'
import { expectError, NANO } from '../helpers/collections.ts'
import { encryptAll } from '../helpers/crypto.ts'
import { describeEngines } from '../helpers/engines.ts'
import { apiKeyOf, setIam } from '../helpers/iam.ts'
import { addCollection, objectsOf } from '../helpers/objects.ts'
import { findTestPostgres } from '../helpers/postgres.ts'
import { API, sharedPostgres, startTestServer, type TestServer } from '../helpers/server.ts'
import { tokensOf } from '../helpers/tokens.ts'

const HOOKS = `
exports.echo = { type: 'action', handler: (context) => ({ user: context.user, role: context.role, reason: context.reason, body: context.body }) }
exports.later = { type: 'action', handler: async (context) => { await null; return [context.body, 'later'] } }
exports.nothing = { type: 'action', handler: () => undefined }
exports.deref = { type: 'action', handler: (context) => context.vault.deref(context.body) }
exports.guarded = {
  type: 'action',
  handler: async (context) => {
    try { return await context.vault.deref(context.body) } catch (e) { return { caught: e.message } }
  },
}
exports.decrypt = {
  type: 'action',
  handler: (context) => context.vault.crypto.decrypt({
    collection: 'people',
    requestBody: [{ encryptedObject: { ciphertext: context.body.ciphertext }, props: context.body.props }],
  }),
}
exports.fail = { type: 'action', handler: () => { throw new RangeError('secret value 123-45-6789') } }
exports.spin = { type: 'action', handler: () => { for (;;) {} } }
exports.hang = { type: 'action', handler: () => new Promise(() => {}) }
exports.big = { type: 'action', handler: () => 'x'.repeat(200000) }
exports.check = { type: 'validator', handler: () => true }
`

const IAM = `
[users.Caller]
role = "Caller"
[roles.Caller]
capabilities = ["CapActionInvoker", "CapActionReader"]
policies = ["InvokeAndReadActions"]

[users.NoPolicy]
role = "NoPolicy"
[roles.NoPolicy]
capabilities = ["CapActionInvoker", "CapActionReader"]
policies = ["ReadEchoOnly"]

[users.NoCapability]
role = "NoCapability"
[roles.NoCapability]
capabilities = ["CapDataReader"]
policies = ["InvokeAndReadActions"]

[roles.EmailReader]
capabilities = ["CapDataReader", "CapCryptoDecrypter", "CapTokensDetokenizer"]
policies = ["ReadEmail"]

[roles.Powerless]
capabilities = []
policies = ["ReadEmail"]

[policies.InvokeAndReadActions]
policy_type = "allow"
operations = ["invoke", "read"]
reasons = ["*"]
resources = ["actions/*"]

[policies.ReadEchoOnly]
policy_type = "allow"
operations = ["read"]
reasons = ["*"]
resources = ["actions/echo", "actions/http_call"]

[policies.ReadEmail]
policy_type = "allow"
operations = ["read", "decrypt", "detokenize"]
reasons = ["*"]
resources = ["people/properties/email", "people/properties/id"]
`

const PEOPLE = {
  name: 'people',
  type: 'PERSONS',
  properties: [
    { name: 'email', data_type_name: 'EMAIL' },
    { name: 'ssn', data_type_name: 'SSN', is_nullable: true },
  ],
}

describeEngines('actions API', (engine) => {
  let server: TestServer
  let caller: string
  let noPolicy: string
  let noCapability: string
  let objectId: string
  beforeAll(async () => {
    server = await startTestServer({
      engine,
      env: { SVC_SANDBOX_ACTION_TIME_LIMIT: '1s', SVC_SANDBOX_MAX_RESULT_BYTES: '65536' },
    })
    await setIam(server, IAM)
    caller = await apiKeyOf(server, 'Caller')
    noPolicy = await apiKeyOf(server, 'NoPolicy')
    noCapability = await apiKeyOf(server, 'NoCapability')
    await addBundle(server, 'hooks', HOOKS)
    await addCollection(server, PEOPLE)
    const added = await ok(
      objectsOf(server, 'people').add({ email: 'ann@example.com', ssn: '123-45-6789' }),
    )
    objectId = added.id
    for (const name of [
      'echo',
      'later',
      'nothing',
      'deref',
      'guarded',
      'decrypt',
      'fail',
      'spin',
      'hang',
      'big',
    ])
      await addAction(server, { name, function: `hooks.${name}`, role: 'EmailReader' })
  })
  afterAll(() => server.close())

  describe('definitions', () => {
    it('lists the built-in http_call first, then custom actions by name', async () => {
      const list = await ok(server.request('GET', ACTIONS))
      expect(list[0]).toEqual({
        name: 'http_call',
        description: expect.any(String),
        function: 'http_call',
        role: '',
        is_builtin: true,
      })
      expect(list.slice(1).map((a: { name: string }) => a.name)).toEqual([
        'big',
        'decrypt',
        'deref',
        'echo',
        'fail',
        'guarded',
        'hang',
        'later',
        'nothing',
        'spin',
      ])
    })

    it('gets an action with its function, role and times', async () => {
      expect(await ok(server.request('GET', `${ACTIONS}/echo`))).toEqual({
        name: 'echo',
        description: '',
        function: 'hooks.echo',
        role: 'EmailReader',
        is_builtin: false,
        creation_time: expect.stringMatching(NANO),
        modification_time: expect.stringMatching(NANO),
      })
      expect((await ok(server.request('GET', `${ACTIONS}/http_call`))).is_builtin).toBe(true)
    })

    it('omits from the list, and refuses to get, actions the caller may not read', async () => {
      const listed = await ok(server.request('GET', ACTIONS, { token: noPolicy }))
      expect(listed.map((a: { name: string }) => a.name)).toEqual(['http_call', 'echo'])
      await ok(server.request('GET', `${ACTIONS}/echo`, { token: noPolicy }))
      const denied = await expectError(
        await server.request('GET', `${ACTIONS}/spin`, { token: noPolicy }),
        403,
        'ERR1006',
      )
      expect(denied.context).toMatchObject({ username: 'NoPolicy', operation: 'read' })
    })

    it('refuses what cannot be an action', async () => {
      const add = (body: unknown) => server.request('POST', ACTIONS, { body })
      const base = { name: 'x', function: 'hooks.echo', role: 'EmailReader' }
      const notAction = await expectError(
        await add({ ...base, function: 'hooks.check' }),
        400,
        'ERR1012',
      )
      expect(notAction.message).toContain('exports no action check')
      await expectError(await add({ ...base, function: 'hooks.missing' }), 400, 'ERR1012')
      await expectError(await add({ ...base, function: 'nobundle.echo' }), 404, 'ERR1004')
      await expectError(await add({ ...base, function: 'hooks' }), 400, 'ERR1012')
      const role = await expectError(await add({ ...base, role: 'Ghost' }), 400, 'ERR1012')
      expect(role.context).toEqual({ action: 'x', field: 'role' })
      await expectError(await add({ ...base, name: 'bad name' }), 400, 'ERR1012')
      await expectError(await add({ ...base, name: 'ECHO' }), 409, 'ERR9001')
      await expectError(await add({ ...base, name: 'http_call' }), 409, 'ERR9001')
      await expectError(await add({ name: 'x', function: 'hooks.echo' }), 400, 'ERR1012')
      await expectError(await server.request('GET', `${ACTIONS}/x`), 404, 'ERR1004')
    })

    it('deletes custom actions only', async () => {
      await addAction(server, { name: 'temporary', function: 'hooks.echo', role: 'EmailReader' })
      await ok(server.request('DELETE', `${ACTIONS}/temporary`))
      await expectError(await server.request('GET', `${ACTIONS}/temporary`), 404, 'ERR1004')
      await expectError(await server.request('DELETE', `${ACTIONS}/temporary`), 404, 'ERR1004')
      await expectError(await server.request('DELETE', `${ACTIONS}/http_call`), 400, 'ERR1012')
    })

    it('needs CapActionReader and CapActionWriter (403 ERR1007)', async () => {
      await expectError(
        await server.request('GET', ACTIONS, { token: noCapability }),
        403,
        'ERR1007',
      )
      const body = { name: 'y', function: 'hooks.echo', role: 'EmailReader' }
      await expectError(
        await server.request('POST', ACTIONS, { token: caller, body }),
        403,
        'ERR1007',
      )
      await expectError(
        await server.request('DELETE', `${ACTIONS}/echo`, { token: caller }),
        403,
        'ERR1007',
      )
    })
  })

  describe('invoke', () => {
    it('passes { user, role, reason, body } and answers the JSON result', async () => {
      const result = await ok(invoke(server, 'echo', { n: 1 }, { token: caller }))
      expect(result).toEqual({
        user: 'Caller',
        role: 'Caller',
        reason: 'AppFunctionality',
        body: { n: 1 },
      })
    })

    it('passes null for no body, awaits promises, answers null for undefined', async () => {
      expect((await ok(invoke(server, 'echo'))).body).toBeNull()
      expect(await ok(invoke(server, 'later', 'text'))).toEqual(['text', 'later'])
      expect(await ok(invoke(server, 'nothing', [1, 2]))).toBeNull()
    })

    it('resolves global identifiers with the action role, not the caller role', async () => {
      const found = await ok(
        invoke(
          server,
          'deref',
          { e: `pvlt:read_object:people:email:${objectId}:` },
          { token: caller },
        ),
      )
      expect(found).toEqual({ e: 'ann@example.com' })
      const whole = await ok(
        invoke(server, 'deref', { o: `pvlt:read_object:people::${objectId}:` }),
      )
      expect(whole).toEqual({ o: { id: objectId, email: 'ann@example.com' } })
      // The action role may read the raw email, not its mask (a binding has its own resource).
      await expectError(
        await invoke(server, 'deref', { m: `pvlt:read_object:people:email.mask:${objectId}:` }),
        403,
        'ERR1006',
      )
    })

    it('answers the service error a vault call raised when the action does not handle it', async () => {
      const denied = await expectError(
        await invoke(server, 'deref', { s: `pvlt:read_object:people:ssn:${objectId}:` }),
        403,
        'ERR1006',
      )
      expect(denied.message).toContain('people/properties/ssn')
      await expectError(
        await invoke(server, 'deref', {
          s: `pvlt:read_object:people:email:${crypto.randomUUID()}:`,
        }),
        404,
        'ERR3005',
      )
      await expectError(
        await invoke(server, 'deref', { s: 'pvlt:bogus:people:email:x:' }),
        400,
        'ERR1012',
      )
      const caught = await ok(
        invoke(server, 'guarded', { s: `pvlt:read_object:people:ssn:${objectId}:` }),
      )
      expect(caught.caught).toMatch(/policy violation/)
    })

    it('decrypts and detokenizes with the action role', async () => {
      const [ciphertext] = await encryptAll(server, 'people', [
        { object: { fields: { email: 'bob@example.com', ssn: '987-65-4321' } } },
      ])
      const decrypted = await ok(invoke(server, 'decrypt', { ciphertext, props: ['email'] }))
      expect(decrypted).toEqual([{ fields: { email: 'bob@example.com' } }])
      await expectError(
        await invoke(server, 'decrypt', { ciphertext, props: ['ssn'] }),
        403,
        'ERR1006',
      )
      const viaIdentifier = await ok(
        invoke(server, 'deref', { e: `pvlt:decrypt_object:people:email:${ciphertext}:` }),
      )
      expect(viaIdentifier).toEqual({ e: 'bob@example.com' })
      const tokenized = await ok(
        tokensOf(server, 'people').tokenize([
          { type: 'randomized', object: { fields: { email: 'cy@example.com' } } },
        ]),
      )
      const token = await ok(
        invoke(server, 'deref', { t: `pvlt:detokenize:people::${tokenized[0].token_id}:` }),
      )
      expect(token).toEqual({ t: { email: 'cy@example.com' } })
    })

    it('checks the action role capabilities too', async () => {
      await addAction(server, { name: 'powerless', function: 'hooks.deref', role: 'Powerless' })
      await expectError(
        await invoke(server, 'powerless', { e: `pvlt:read_object:people:email:${objectId}:` }),
        403,
        'ERR1007',
      )
    })

    it('fails cleanly when the function throws, spins, hangs or returns too much', async () => {
      const threw = await expectError(await invoke(server, 'fail'), 400, 'ERR9008')
      expect(threw.message).toBe('The function hooks.fail failed: it threw RangeError.')
      expect(threw.context).toEqual({ bundle: 'hooks', function: 'fail' })
      const spun = await expectError(await invoke(server, 'spin'), 503, 'ERR1009')
      expect(spun.message).toContain('time limit')
      const hung = await expectError(await invoke(server, 'hang'), 400, 'ERR9008')
      expect(hung.message).toContain('never settles')
      const big = await expectError(await invoke(server, 'big'), 400, 'ERR9008')
      expect(big.message).toContain('more data than the sandbox allows')
      expect((await ok(invoke(server, 'echo', 1))).body).toBe(1)
    })

    it('needs CapActionInvoker (403 ERR1007), an invoke policy (403 ERR1006) and a reason', async () => {
      await expectError(await invoke(server, 'echo', {}, { token: noCapability }), 403, 'ERR1007')
      await expectError(await invoke(server, 'echo', {}, { token: noPolicy }), 403, 'ERR1006')
      await expectError(
        await server.request('POST', `${API}/data/actions/echo`, { body: {} }),
        400,
        'ERR1001',
      )
      await expectError(await invoke(server, 'ghost'), 404, 'ERR1004')
    })

    it('records each invocation, and the objects a deref read, in the audit log', async () => {
      const res = await invoke(
        server,
        'deref',
        { e: `pvlt:read_object:people:email:${objectId}:` },
        { token: caller },
      )
      await ok(res)
      const requestId = res.headers.get('x-request-id')
      const event = (await auditRecords(server)).find((e) => e.request_id === requestId)
      expect(event).toMatchObject({
        operation: 'invoke_action',
        user: 'Caller',
        role: 'Caller',
        collection: 'people',
        properties: ['email'],
        object_ids: [objectId],
        reason: 'AppFunctionality',
        outcome: 'success',
      })
    })

    it('records what a refused deref touched, whether the action fails or catches it', async () => {
      const body = { e: `pvlt:read_object:people:ssn:${objectId}:` }
      const named = (event: Record<string, unknown> | undefined) => ({
        collection: event?.collection,
        properties: event?.properties,
        object_ids: event?.object_ids,
        outcome: event?.outcome,
        status: event?.status,
      })
      const failed = await invoke(server, 'deref', body, { token: caller })
      expect(failed.status).toBe(403)
      const failedId = failed.headers.get('x-request-id')
      const failure = (await auditRecords(server)).find((e) => e.request_id === failedId)
      expect(named(failure)).toEqual({
        collection: 'people',
        properties: ['ssn'],
        object_ids: undefined,
        outcome: 'failure',
        status: 403,
      })
      const caught = await invoke(server, 'guarded', body, { token: caller })
      expect(caught.status).toBe(200)
      const caughtId = caught.headers.get('x-request-id')
      const success = (await auditRecords(server)).find((e) => e.request_id === caughtId)
      expect(named(success)).toEqual({
        collection: 'people',
        properties: ['ssn'],
        object_ids: undefined,
        outcome: 'success',
        status: 200,
      })
    })

    it('records the properties an action decrypted', async () => {
      const [ciphertext] = await encryptAll(server, 'people', [
        { object: { fields: { email: 'bea@example.com' } } },
      ])
      const res = await invoke(
        server,
        'decrypt',
        { ciphertext, props: ['email'] },
        { token: caller },
      )
      expect(res.status, await res.clone().text()).toBe(200)
      const requestId = res.headers.get('x-request-id')
      const event = (await auditRecords(server)).find((e) => e.request_id === requestId)
      expect(event).toMatchObject({
        collection: 'people',
        properties: ['email'],
        outcome: 'success',
      })
    })
  })
})

describe.skipIf((await findTestPostgres()) === undefined)(
  'actions on two nodes (PostgreSQL)',
  () => {
    let nodes: TestServer[]
    let drop: () => Promise<void>
    beforeAll(async () => {
      const database = await sharedPostgres()
      drop = database.drop
      const env = { ...database.env, SVC_SERVICE_CACHE_REFRESH_INTERVAL: '1h' }
      const first = await startTestServer({ env })
      nodes = [first, await startTestServer({ env })]
    })
    afterAll(async () => {
      for (const node of nodes) await node.app.close()
      await drop()
    })

    it('invokes on one node an action another node added, once its cache reloads', async () => {
      const [a, b] = nodes as [TestServer, TestServer]
      await addBundle(a, 'hooks', HOOKS)
      await addAction(a, { name: 'echo', function: 'hooks.echo', role: 'PrivilegedService' })
      await expectError(await invoke(b, 'echo', 1), 404, 'ERR1004')
      expect((await ok(invoke(b, 'echo', 1, { query: '&reload_cache=true' }))).body).toBe(1)
    })
  },
)
