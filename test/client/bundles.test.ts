// test/client/bundles.test.ts: the published client's bundles and actions operations work unchanged
import { VaultClient } from '@piiano/vault-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { code } from '../helpers/bundles.ts'
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.ts'
import { startUpstream, type Upstream } from '../helpers/upstream.ts'

const SCRIPT = `
exports.greet = { type: 'action', description: 'Greets.', handler: (context) => 'hello ' + context.body.name }
exports.lower = { type: 'normalizer', handler: (value) => value.toLowerCase() }
`

describe('published client: bundles and actions', () => {
  let server: TestServer
  let upstream: Upstream
  let client: VaultClient
  beforeAll(async () => {
    upstream = await startUpstream()
    server = await startTestServer({
      env: { SVC_SERVICE_ALLOWED_HTTP_DESTINATIONS: `${upstream.origin}/` },
    })
    client = new VaultClient({ vaultURL: server.baseUrl, apiKey: ADMIN_KEY })
  })
  afterAll(async () => {
    await server.close()
    await upstream.close()
  })

  it('adds, gets, lists and updates a bundle', async () => {
    const added = await client.bundles.addBundle({
      requestBody: { name: 'greetings', description: 'Greetings', code: code(SCRIPT) },
    })
    expect(added.exports?.actions).toEqual([
      { name: 'greet', type: 'action', description: 'Greets.' },
    ])
    expect(added.exports?.normalizers).toEqual([{ name: 'lower', type: 'normalizer' }])
    expect((await client.bundles.getBundle({ bundle: 'greetings' })).code).toBe(code(SCRIPT))
    expect((await client.bundles.listBundles()).map((b) => b.name)).toEqual(['greetings'])
    const updated = await client.bundles.updateBundle({
      bundle: 'greetings',
      requestBody: { description: 'Hello' },
    })
    expect(updated.description).toBe('Hello')
  })

  it('adds, lists, gets and invokes an action, and calls http_call', async () => {
    await client.actions.addAction({
      requestBody: { name: 'greet', function: 'greetings.greet', role: 'PrivilegedService' },
    })
    const listed = await client.actions.listActions()
    expect(listed.map((a) => [a.name, a.is_builtin])).toEqual([
      ['http_call', true],
      ['greet', false],
    ])
    expect((await client.actions.getActionByName({ action: 'greet' })).role).toBe(
      'PrivilegedService',
    )
    const result = await client.actions.invokeAction({
      action: 'greet',
      reason: 'AppFunctionality',
      requestBody: { name: 'Ann' },
    })
    expect(result).toBe('hello Ann')
    const call = await client.actions.invokeHttpCallAction({
      reason: 'AppFunctionality',
      requestBody: {
        template_variables: {},
        request: { url: `${upstream.origin}/hook`, method: 'POST', body: 'ping' },
        include_response_body: true,
      },
    })
    expect(call.status_code).toBe(200)
    expect(JSON.parse(call.body ?? '')).toEqual({ method: 'POST', path: '/hook', body: 'ping' })
  })

  it('surfaces refusals with the spec error body, and deletes', async () => {
    await expect(
      client.bundles.deleteBundle({ bundle: 'greetings', options: ['force'] }),
    ).rejects.toMatchObject({ status: 409, body: { error_code: 'ERR9005' } })
    await client.actions.deleteAction({ action: 'greet' })
    await client.bundles.deleteBundle({ bundle: 'greetings' })
    await expect(client.bundles.getBundle({ bundle: 'greetings' })).rejects.toMatchObject({
      status: 404,
      body: { error_code: 'ERR1004', context: { bundle: 'greetings' } },
    })
  })
})
