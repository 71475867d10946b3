// test/helpers/policy-routes.ts: stand-in data routes that call the policy and tenant gates as objects/tokens will
import type { App } from '../../src/app.ts'
import type { PolicyCheck } from '../../src/core/iam/iam.ts'
import type { Operation } from '../../src/core/iam/operations.ts'
import { collectionResource, propertyResources, tokensResource } from '../../src/core/iam/policy.ts'
import { assertTenantAllowed, tenantForCreate } from '../../src/core/iam/tenants.ts'
import { API } from './server.ts'

/** The stand-in collection: property → data type. */
export const PEOPLE: Readonly<Record<string, string>> = {
  id: 'STRING',
  _tenant_id: 'STRING',
  name: 'NAME',
  email: 'EMAIL',
  ssn: 'SSN',
}

export const TEST_DATA = `${API}/data/test/collections/people`

function propertyChecks(operation: string, props: readonly string[]): PolicyCheck[] {
  return props.map((prop) => {
    const [property = '', transformer] = prop.split('.')
    const type = PEOPLE[property] ?? 'STRING'
    return {
      operation,
      resources: propertyResources({ collection: 'people', property, type, transformer }),
    }
  })
}

function listOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String)
  return typeof value === 'string' ? value.split(',') : []
}

/** Policy operation(s) → the route (and capability operation) that checks them. */
const ROUTES: readonly [path: string, operation: Operation, policies: readonly string[]][] = [
  ['read', 'get_object', ['read']],
  ['write', 'add_object', ['write']],
  ['delete', 'delete_object', ['delete']],
  ['search', 'search_objects', ['search']],
  ['tokenize', 'tokenize', ['tokenize']],
  ['detokenize', 'detokenize', ['detokenize', 'read']],
]

/**
 * `GET /data/test/collections/people/<op>?props=a,b.mask` checks `op` on each property and
 * answers `{ props }` only if every check passes; `count` checks `stats` on the collection,
 * `tokens` checks `read` on the token resource; `tenants/<id|none>` and `create` apply the
 * tenant rules.
 */
export function policyRoutes(app: App): void {
  const { iam } = app.services
  for (const [path, operation, policies] of ROUTES) {
    app.server.get(`${TEST_DATA}/${path}`, { config: { operation } }, async (req) => {
      const props = listOf((req.query as Record<string, unknown>).props)
      iam.checkPolicies(
        req.ctx,
        policies.flatMap((policy) => propertyChecks(policy, props)),
      )
      return { props }
    })
  }
  app.server.get(`${TEST_DATA}/count`, { config: { operation: 'count_objects' } }, async (req) => {
    iam.checkPolicies(req.ctx, [{ operation: 'stats', resources: collectionResource('people') }])
    return { ok: true }
  })
  app.server.get(`${TEST_DATA}/tokens`, { config: { operation: 'search_tokens' } }, async (req) => {
    iam.checkPolicies(req.ctx, [{ operation: 'read', resources: tokensResource('people') }])
    return { ok: true }
  })
  app.server.get(
    `${TEST_DATA}/tenants/:tenant`,
    { config: { operation: 'get_object' } },
    async (req) => {
      const { tenant } = req.params as { tenant: string }
      assertTenantAllowed(req.ctx, tenant === 'none' ? undefined : tenant)
      return { tenant }
    },
  )
  app.server.get(`${TEST_DATA}/create`, { config: { operation: 'add_object' } }, async (req) => {
    const body = (req.query as Record<string, string | undefined>)._tenant_id
    return { tenant: tenantForCreate(req.ctx, body) ?? null }
  })
}
