// src/core/actions/principal.ts: acting with another IAM role (an action's role, the http_call role)
import type { RequestContext } from '../context.ts'

/**
 * The call's context with `role` for capability and policy checks: the caller stays the user
 * named in the audit record and error contexts, tenants and reason are the call's own. The
 * built-in Admin's privileges never carry over to a role.
 */
export function withRole(ctx: RequestContext, role: string): RequestContext {
  return { ...ctx, principal: { ...ctx.principal, role, isAdmin: false } }
}
