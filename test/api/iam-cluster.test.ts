// test/api/iam-cluster.test.ts: two API nodes on one PostgreSQL database see IAM changes of each other at once
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { setIam } from '../helpers/iam.ts'
import { policyRoutes, TEST_DATA } from '../helpers/policy-routes.ts'
import { findTestPostgres } from '../helpers/postgres.ts'
import {
  ADMIN_KEY,
  API,
  sharedPostgres,
  startTestServer,
  type TestServer,
} from '../helpers/server.ts'

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

describe.skipIf(pgUrl === undefined)('IAM on two nodes sharing PostgreSQL', () => {
  let a: TestServer
  let b: TestServer
  let drop: () => Promise<void>
  beforeAll(async () => {
    const database = await sharedPostgres()
    drop = database.drop
    a = await startTestServer({ env: database.env, routes: policyRoutes })
    b = await startTestServer({ env: database.env, routes: policyRoutes })
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
