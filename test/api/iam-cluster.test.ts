// test/api/iam-cluster.test.ts: two API nodes on one PostgreSQL database see IAM changes of each other at once
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type App, createApp } from '../../src/app.ts'
import { setIam } from '../helpers/iam.ts'
import { policyRoutes, TEST_DATA } from '../helpers/policy-routes.ts'
import { createTestDatabase, findTestPostgres } from '../helpers/postgres.ts'
import { ADMIN_KEY, API, fetchJson, type TestServer, testConfig } from '../helpers/server.ts'

const pgUrl = await findTestPostgres()

const CONFIG = `
[users.App1]
role = "App"
[roles.App]
capabilities = ["CapIAMReader", "CapDataReader"]
policies = ["PolRead"]
[policies.PolRead]
policy_type = "allow"
operations = ["read"]
reasons = ["*"]
resources = ["*/properties/email"]
`

/** A node as a TestServer, so the IAM helpers work against either node. */
async function startNode(env: Record<string, string>): Promise<TestServer> {
  const app: App = await createApp(testConfig(env))
  policyRoutes(app)
  const baseUrl = await app.listen()
  return {
    app,
    baseUrl,
    request(method, path, init = {}) {
      const headers: Record<string, string> = { ...init.headers }
      const token = init.token === undefined ? ADMIN_KEY : init.token
      if (token !== null) headers.authorization = `Bearer ${token}`
      const isJson = init.body !== undefined && typeof init.body !== 'string'
      if (isJson) headers['content-type'] ??= 'application/json'
      const body = isJson ? JSON.stringify(init.body) : (init.body as string | undefined)
      return fetchJson(`${baseUrl}${path}`, { method, headers, body })
    },
    close: () => app.close(),
  }
}

describe.skipIf(pgUrl === undefined)('IAM on two nodes sharing PostgreSQL', () => {
  let a: TestServer
  let b: TestServer
  let drop: () => Promise<void>
  beforeAll(async () => {
    const database = await createTestDatabase(pgUrl as string)
    drop = database.drop
    const { options } = database
    const env = {
      SVC_BACKING_STORE: 'postgres',
      SVC_DB_HOSTNAME: options.host,
      SVC_DB_PORT: String(options.port),
      SVC_DB_NAME: options.database,
      SVC_DB_USER: options.user,
      SVC_DB_PASSWORD: options.password,
    }
    a = await startNode(env)
    b = await startNode(env)
  })
  afterAll(async () => {
    await a.close()
    await b.close()
    await drop()
  })

  const regen = async (node: TestServer, name: string, token = ADMIN_KEY) => {
    const res = await node.request('POST', `${API}/ctl/iam/user/regen`, { token, body: { name } })
    return (await res.json()).api_key as string
  }
  const statusOn = async (node: TestServer, token: string, path = `${API}/ctl/iam/conf`) =>
    (await node.request('GET', path, { token })).status

  it('serves a user added on one node from the other at once', async () => {
    await setIam(a, CONFIG)
    const key = await regen(a, 'App1')
    expect(await statusOn(b, key)).toBe(200)
  })

  it('invalidates a regenerated key on every node at once', async () => {
    const old = await regen(a, 'App1')
    expect(await statusOn(b, old)).toBe(200)
    const fresh = await regen(a, 'App1')
    expect(await statusOn(b, old)).toBe(401)
    expect(await statusOn(b, fresh)).toBe(200)
    await b.request('POST', `${API}/ctl/iam/user/update-expiration`, {
      body: { name: 'App1', expiration_secs: 0 },
    })
    expect(await statusOn(a, fresh)).toBe(401)
  })

  it('applies an Admin key set on one node on the other at once', async () => {
    const res = await a.request('POST', `${API}/ctl/iam/admin/set-api-key`, {
      body: { key: 'Cluster-Admin-Key-9' },
    })
    expect(res.status).toBe(200)
    expect(await statusOn(b, ADMIN_KEY)).toBe(401)
    expect(await statusOn(b, 'Cluster-Admin-Key-9')).toBe(200)
    await b.request('POST', `${API}/ctl/iam/admin/set-api-key`, {
      token: 'Cluster-Admin-Key-9',
      body: { key: 'Cluster-Admin-Key-10' },
    })
    expect(await statusOn(a, 'Cluster-Admin-Key-10')).toBe(200)
  })

  it('gives data operations the new policies on the next refresh or with reload_cache', async () => {
    const admin = 'Cluster-Admin-Key-10'
    const key = await regen(a, 'App1', admin)
    const read = `${TEST_DATA}/read?props=ssn&reason=Analytics`
    expect(await statusOn(b, key, read)).toBe(403)
    await setIam(a, CONFIG.replace('*/properties/email', '*/properties/*'), admin)
    expect(await statusOn(b, key, `${read}&reload_cache=true`)).toBe(200)
  })
})
