// src/core/context.ts: RequestContext, what every service method receives first
import { type AuditDetails, NO_DETAILS } from './audit/details.ts'
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
 * The call's audit slot: which operation on which route (set once by the HTTP layer), and the
 * details it touched so far. `details` is an immutable value, replaced (never changed in place)
 * as the service goes; the audit record is written from the value passed to `record`.
 */
export type AuditDraft = {
  readonly operation: string
  readonly method: string
  readonly path: string
  details: AuditDetails
}

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
  audit: AuditDraft
}>

export function newAuditDraft(operation: string, method: string, path: string): AuditDraft {
  return { operation, method, path, details: NO_DETAILS }
}
