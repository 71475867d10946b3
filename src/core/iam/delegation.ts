// src/core/iam/delegation.ts: role delegation: who may act for a role, and the principal that results
import type { Principal } from '../context.ts'
import { VaultError } from '../errors.ts'
import type { RoleState } from './state.ts'

/** A role listing trusted roles is meant to be acted for; it never signs in directly. */
export function mayAuthenticateDirectly(role: RoleState | undefined): boolean {
  return role === undefined || role.trustedRoles.size === 0
}

/**
 * The principal of a delegated call: capabilities and policies of the delegating role apply, and
 * the acting caller is kept for the audit. The acting role must be trusted by the delegating
 * role, else 403 ERR1007.
 */
export function delegate(
  actor: Principal,
  delegating: Principal,
  delegatingRole: RoleState | undefined,
): Principal {
  if (actor.isAdmin || !delegatingRole?.trustedRoles.has(actor.role)) {
    throw new VaultError('missingCapability', {
      message: `The role ${actor.role} is not trusted to act for the role ${delegating.role}.`,
      context: { username: actor.username },
    })
  }
  return { ...delegating, authKind: 'delegation', actor: actor.username }
}
