// src/core/iam/tenants.test.ts: which tenants a call may touch, list and create in
import { describe, expect, it } from 'vitest'
import { testContext } from '../../../test/helpers/context.ts'
import type { Principal, RequestContext } from '../context.ts'
import { VaultError } from '../errors.ts'
import {
  assertTenantAllowed,
  effectiveTenants,
  filterByTenant,
  isTenantAllowed,
  tenantForCreate,
} from './tenants.ts'

function ctx(header: string[], claims?: string[]): RequestContext {
  const principal: Principal = {
    username: 'u',
    role: 'R',
    isAdmin: false,
    authKind: claims ? 'jwt' : 'api_key',
    tenantIds: claims,
  }
  return testContext(principal, { tenantIds: header })
}

function codeOf(work: () => unknown): string | undefined {
  try {
    work()
    return undefined
  } catch (error) {
    return error instanceof VaultError ? `${error.status} ${error.code}` : 'other'
  }
}

describe('tenants', () => {
  it('do not limit a call without X-Tenant-Id or tenant claims', () => {
    expect(effectiveTenants(ctx([]))).toBeUndefined()
    expect(isTenantAllowed(ctx([]), undefined)).toBe(true)
    expect(isTenantAllowed(ctx([]), 't9')).toBe(true)
  })

  it('come from X-Tenant-Id, or from JWT claims, which take precedence', () => {
    expect(effectiveTenants(ctx(['t1', 't2']))).toEqual(['t1', 't2'])
    expect(effectiveTenants(ctx(['t1'], ['t3']))).toEqual(['t3'])
    expect(effectiveTenants(ctx([], []))).toEqual([])
  })

  it('refuse resources of other tenants or without a tenant with 403 ERR1006', () => {
    const limited = ctx(['t1', 't2'])
    expect(codeOf(() => assertTenantAllowed(limited, 't1'))).toBeUndefined()
    expect(codeOf(() => assertTenantAllowed(limited, 't3'))).toBe('403 ERR1006')
    expect(codeOf(() => assertTenantAllowed(limited, undefined))).toBe('403 ERR1006')
    expect(codeOf(() => assertTenantAllowed(ctx(['t1'], ['t3']), 't1'))).toBe('403 ERR1006')
  })

  it('filter listings instead of failing', () => {
    const items = [{ t: 't1' }, { t: 't2' }, { t: undefined }, { t: 't3' }]
    expect(filterByTenant(ctx(['t1', 't3']), items, (item) => item.t)).toEqual([
      { t: 't1' },
      { t: 't3' },
    ])
    expect(filterByTenant(ctx([]), items, (item) => item.t)).toHaveLength(4)
  })

  it('give a new object the only tenant of the call, and refuse a body tenant outside it', () => {
    expect(tenantForCreate(ctx(['t1']), undefined)).toBe('t1')
    expect(tenantForCreate(ctx(['t1', 't2']), undefined)).toBeUndefined()
    expect(tenantForCreate(ctx(['t1', 't2']), 't2')).toBe('t2')
    expect(tenantForCreate(ctx([]), 'any')).toBe('any')
    expect(codeOf(() => tenantForCreate(ctx(['t1']), 't2'))).toBe('403 ERR1006')
  })
})
