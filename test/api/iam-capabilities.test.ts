// test/api/iam-capabilities.test.ts: every registered operation is refused without its capability and allowed with it
import type { RouteOptions } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { CAPABILITIES, type Capability } from '../../src/core/iam/capabilities.ts'
import { OPERATIONS, type Operation, type Requirement } from '../../src/core/iam/operations.ts'
import { describeEngines } from '../helpers/engines.ts'
import { apiKeyOf, rolesToml, setIam } from '../helpers/iam.ts'
import { startTestServer, type TestServer } from '../helpers/server.ts'

type Route = Readonly<{ method: string; url: string; operation: Operation | undefined }>

/** A role holding exactly these capabilities, or one holding every capability but these. */
type Grant = Readonly<{ name: string; capabilities: readonly string[] }>

const EVERY = CAPABILITIES.filter((cap) => cap !== 'CapSystem')
const without = (caps: readonly Capability[]) => EVERY.filter((cap) => !caps.includes(cap))

/** The roles that must pass and those that must be refused, for one requirement. */
function grantsFor(operation: Operation, requirement: Requirement) {
  switch (requirement.kind) {
    case 'anyOf':
      return {
        allowed: requirement.capabilities.map((cap) => ({
          name: `Has_${cap}`,
          capabilities: [cap],
        })),
        refused: [{ name: `Lacks_${operation}`, capabilities: without(requirement.capabilities) }],
      }
    case 'allOf':
      return {
        allowed: [{ name: `All_${operation}`, capabilities: requirement.capabilities }],
        refused: requirement.capabilities.map((cap) => ({
          name: `Lacks_${operation}_${cap}`,
          capabilities: without([cap]),
        })),
      }
    case 'authenticated':
      return { allowed: [{ name: 'Nothing', capabilities: [] }], refused: [] }
    case 'admin':
      return { allowed: [], refused: [{ name: 'Everything', capabilities: ['*'] }] }
    case 'public':
      return { allowed: [], refused: [] }
  }
}

function pathOf(route: Route): string {
  return route.url.replace(/:\w+/g, 'x')
}

describeEngines('capability matrix', (engine) => {
  let server: TestServer
  const routes: Route[] = []
  const keys = new Map<string, string>()
  beforeAll(async () => {
    server = await startTestServer({
      engine,
      routes(app) {
        app.server.addHook('onRoute', (route: RouteOptions) => {
          for (const method of [route.method].flat()) {
            if (method !== 'HEAD')
              routes.push({ method, url: route.url, operation: route.config?.operation })
          }
        })
      },
    })
    const grants = new Map<string, Grant>()
    for (const route of routes) {
      if (route.operation === undefined) continue
      const { allowed, refused } = grantsFor(route.operation, OPERATIONS[route.operation])
      for (const grant of [...allowed, ...refused]) grants.set(grant.name, grant)
    }
    const roles = Object.fromEntries(
      [...grants.values()].map((grant) => [grant.name, { capabilities: [...grant.capabilities] }]),
    )
    await setIam(server, `${rolesToml(roles)}\n[policies]\n`)
    for (const name of grants.keys()) keys.set(name, await apiKeyOf(server, name))
  })
  afterAll(() => server.close())

  const call = (route: Route, user?: string) =>
    server.request(route.method, pathOf(route), { token: user ? keys.get(user) : null })

  it('finds the routes, and every API route names its operation', () => {
    const api = routes.filter((route) => route.url.startsWith('/api/pvlt/1.0/'))
    const operations = new Set(api.map((route) => route.operation))
    for (const operation of ['data_health', 'get_version', 'set_iam_conf', 'set_admin_api_key'])
      expect(operations).toContain(operation)
    expect(api.filter((route) => route.operation === undefined)).toEqual([])
  })

  it('refuses every operation to a role without its capability', async () => {
    const failures: string[] = []
    for (const route of routes.filter((r) => r.operation !== undefined)) {
      const operation = route.operation as Operation
      const { refused } = grantsFor(operation, OPERATIONS[operation])
      for (const grant of refused) {
        const res = await call(route, grant.name)
        const body = await res.json()
        const expected = OPERATIONS[operation].kind === 'admin' ? 'ERR2021' : 'ERR1007'
        if (
          res.status !== 403 ||
          body.error_code !== expected ||
          body.context.username !== grant.name
        )
          failures.push(
            `${route.method} ${route.url} as ${grant.name}: ${res.status} ${body.error_code}`,
          )
      }
    }
    expect(failures).toEqual([])
  })

  it('lets every operation past the capability gate with any one capability that grants it', async () => {
    const failures: string[] = []
    for (const route of routes.filter((r) => r.operation !== undefined)) {
      const operation = route.operation as Operation
      const { allowed } = grantsFor(operation, OPERATIONS[operation])
      const users =
        OPERATIONS[operation].kind === 'public' ? [undefined] : allowed.map((g) => g.name)
      for (const user of users) {
        const res = await call(route, user)
        const code = res.status >= 400 ? (await res.json()).error_code : ''
        if (res.status === 401 || (res.status === 403 && ['ERR1007', 'ERR2021'].includes(code)))
          failures.push(`${route.method} ${route.url} as ${user}: ${res.status} ${code}`)
      }
    }
    expect(failures).toEqual([])
  })

  it('refuses every non-public operation without a credential', async () => {
    const failures: string[] = []
    for (const route of routes.filter((r) => r.operation !== undefined)) {
      if (OPERATIONS[route.operation as Operation].kind === 'public') continue
      const res = await call(route)
      if (res.status !== 401) failures.push(`${route.method} ${route.url}: ${res.status}`)
    }
    expect(failures).toEqual([])
  })
})
