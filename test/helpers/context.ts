// test/helpers/context.ts: a RequestContext for service and unit tests
import { auditRoute, type Principal, type RequestContext } from '../../src/core/context.ts'

export const ADMIN_PRINCIPAL: Principal = {
  username: 'Admin',
  role: 'Admin',
  isAdmin: true,
  authKind: 'api_key',
}

export function testContext(
  principal: Principal = ADMIN_PRINCIPAL,
  overrides: Partial<RequestContext> = {},
): RequestContext {
  return {
    requestId: 'test-request',
    principal,
    now: Date.UTC(2030, 0, 1) * 1000,
    signal: new AbortController().signal,
    reason: undefined,
    customAudit: undefined,
    tenantIds: [],
    transParam: undefined,
    remoteAddr: undefined,
    audit: auditRoute('test', 'GET', '/'),
    ...overrides,
  }
}
