// src/core/iam/jwt-claims.ts: a verified JWT's claims → role (roles_map, roles_claim) and tenants
import type { JWTPayload } from 'jose'
import type { IdpConfig } from './config.ts'

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value]
  return Array.isArray(value) ? value.filter((item) => typeof item === 'string') : []
}

/**
 * The role a token resolves to: `roles_map` by `sub`, then by `email`; else the first role named
 * by the roles claim that exists and is allowed. Undefined when no acceptable role is found.
 */
export function resolveJwtRole(
  config: IdpConfig,
  claims: JWTPayload,
  isKnownRole: (role: string) => boolean,
): string | undefined {
  const isAllowed = (role: string) =>
    isKnownRole(role) && (config.allowedRoles === undefined || config.allowedRoles.includes(role))
  for (const key of [claims.sub, claims.email]) {
    if (typeof key === 'string' && Object.hasOwn(config.rolesMap, key)) {
      const role = config.rolesMap[key] as string
      return isAllowed(role) ? role : undefined
    }
  }
  return strings(claims[config.rolesClaim]).find(isAllowed)
}

/** The caller's identity for audit: `sub`, else `email`; undefined when the token has neither. */
export function subjectOf(claims: JWTPayload): string | undefined {
  const subject = claims.sub ?? claims.email
  return typeof subject === 'string' && subject !== '' ? subject : undefined
}

function tenantList(value: unknown): string[] {
  const list = typeof value === 'string' ? value.split(',') : strings(value)
  return [...new Set(list.map((id) => id.trim()).filter((id) => id !== ''))]
}

/**
 * Object-level access data from the claim `namespace_top_claim` names: a tenant ID, a
 * comma-separated list, an array, or a table with `tenant_id` / `tenant_ids`. Undefined when the
 * IdP has no such claim configured or the token does not carry it (then X-Tenant-Id applies); a
 * claim of any other shape yields no tenants, so nothing tenant-bound is reachable (fail closed).
 */
export function tenantsFromClaims(config: IdpConfig, claims: JWTPayload): string[] | undefined {
  if (config.namespaceTopClaim === undefined) return undefined
  const value = claims[config.namespaceTopClaim]
  if (value === undefined) return undefined
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const table = value as Record<string, unknown>
    return tenantList(table.tenant_ids ?? table.tenant_id)
  }
  return tenantList(value)
}
