// src/core/context.ts: RequestContext, what every service method receives first
import type { Reason } from './iam/reasons.ts'
import type { Micros } from './time.ts'

export type AuthKind = 'api_key' | 'jwt' | 'delegation'

/** Who is calling, resolved from the credential before anything else happens. */
export type Principal = Readonly<{
  /** `Admin`, a user name from the IAM configuration, or `<idp>:<sub>` for JWT callers. */
  username: string
  role: string
  isAdmin: boolean
  authKind: AuthKind
  /** The identity provider that accepted a JWT. */
  idp?: string
  /** Tenants a JWT's object-level claims allow; they take precedence over X-Tenant-Id. */
  tenantIds?: readonly string[]
  /** With role delegation: the caller that acts on behalf of `username` (X-Pvault-Delegation). */
  actor?: string
}>

export type AccessReason = Readonly<{
  reason: Reason
  adhocReason: string | undefined
  /** True when no reason was sent and the default was used (SVC_SERVICE_FORCE_ACCESS_REASON=false). */
  isDefaulted: boolean
}>

/**
 * Which operation on which route the call is, set once by the HTTP layer, for its audit record.
 * What the call touched is not here: services pass it along as a value (`AuditDetails`).
 */
export type AuditRoute = Readonly<{ operation: string; method: string; path: string }>

export type RequestContext = Readonly<{
  requestId: string
  principal: Principal
  now: Micros
  /** Aborted when the call's time is up; transactions roll back instead of committing. */
  signal: AbortSignal
  reason: AccessReason | undefined
  customAudit: string | undefined
  tenantIds: readonly string[]
  transParam: string | undefined
  remoteAddr: string | undefined
  audit: AuditRoute
}>

export function auditRoute(operation: string, method: string, path: string): AuditRoute {
  return Object.freeze({ operation, method, path })
}
