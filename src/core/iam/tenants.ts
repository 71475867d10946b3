// src/core/iam/tenants.ts: tenant rules (spec iam.md §10): which tenants a call may touch and create in
import type { RequestContext } from '../context.ts'
import { VaultError } from '../errors.ts'

/**
 * The tenants a call is limited to: a JWT's object-level claims (`namespace_top_claim`) take
 * precedence over `X-Tenant-Id`; undefined when neither limits the call.
 */
export function effectiveTenants(ctx: RequestContext): readonly string[] | undefined {
  if (ctx.principal.tenantIds !== undefined) return ctx.principal.tenantIds
  return ctx.tenantIds.length > 0 ? ctx.tenantIds : undefined
}

/** Whether a resource owned by `tenantId` (undefined: no tenant) is within the call's tenants. */
export function isTenantAllowed(ctx: RequestContext, tenantId: string | undefined): boolean {
  const tenants = effectiveTenants(ctx)
  if (tenants === undefined) return true
  return tenantId !== undefined && tenants.includes(tenantId)
}

function tenantViolation(ctx: RequestContext, why: string): VaultError {
  // The resource's own tenant is not named: it could reveal another tenant's ID.
  return new VaultError('policyDenied', {
    message: `The request is forbidden due to a tenant violation: ${why}.`,
    context: { username: ctx.principal.username },
  })
}

/**
 * For every object or token a call touches: one outside the call's tenants (or without a tenant,
 * when the call is limited) fails the whole request with 403 ERR1006.
 */
export function assertTenantAllowed(ctx: RequestContext, tenantId: string | undefined): void {
  if (!isTenantAllowed(ctx, tenantId))
    throw tenantViolation(ctx, 'a resource belongs to a tenant the request is not limited to')
}

/** Searches and listings are filtered to the call's tenants instead of failing. */
export function filterByTenant<T>(
  ctx: RequestContext,
  items: readonly T[],
  tenantOf: (item: T) => string | undefined,
): T[] {
  return items.filter((item) => isTenantAllowed(ctx, tenantOf(item)))
}

/**
 * The `_tenant_id` a new object gets: the body's, which must be one of the call's tenants; or,
 * when the body has none and the call is limited to exactly one tenant, that tenant.
 */
export function tenantForCreate(
  ctx: RequestContext,
  bodyTenantId: string | undefined,
): string | undefined {
  const tenants = effectiveTenants(ctx)
  if (tenants === undefined) return bodyTenantId
  if (bodyTenantId !== undefined) {
    if (!tenants.includes(bodyTenantId))
      throw tenantViolation(ctx, '_tenant_id is not one of the tenants of the request')
    return bodyTenantId
  }
  return tenants.length === 1 ? tenants[0] : undefined
}
