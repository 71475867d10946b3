// src/core/iam/state.ts: a parsed IAM configuration compiled for fast lookups (roles, policies, IdPs)
import { type Capability, grantedCapabilities } from './capabilities.ts'
import type { IamConfig, ParsedIamConfig, PolicyConfig } from './config.ts'
import { createIdp, type Idp } from './jwt.ts'
import { compilePattern, LEGACY_POLICY_OPERATIONS, type Policy } from './policy.ts'

export type RoleState = Readonly<{
  capabilities: ReadonlySet<Capability>
  policies: readonly Policy[]
  /** Roles allowed to act on this role's behalf; a role with any cannot sign in directly. */
  trustedRoles: ReadonlySet<string>
}>

export type IamState = Readonly<{
  config: IamConfig
  /** The stored configuration, normalized (what GET /ctl/iam/conf answers). */
  toml: string
  roles: ReadonlyMap<string, RoleState>
  idps: readonly Idp[]
}>

export const EMPTY_STATE: IamState = {
  config: { users: new Map(), roles: new Map(), policies: new Map(), idps: new Map() },
  toml: '',
  roles: new Map(),
  idps: [],
}

export function compilePolicy(name: string, policy: PolicyConfig): Policy {
  return {
    name,
    isAllow: policy.isAllow,
    operations: new Set(policy.operations.filter((op) => !LEGACY_POLICY_OPERATIONS.includes(op))),
    reasons: new Set(policy.reasons),
    resources: policy.resources.map(compilePattern),
  }
}

function rolePolicies(names: readonly string[], all: ReadonlyMap<string, Policy>): Policy[] {
  if (names.includes('*')) return [...all.values()]
  return names.flatMap((name) => {
    const policy = all.get(name)
    return policy ? [policy] : []
  })
}

export function compileState(parsed: ParsedIamConfig): IamState {
  const { config } = parsed
  const policies = new Map(
    [...config.policies].map(([name, policy]) => [name, compilePolicy(name, policy)] as const),
  )
  const roles = new Map<string, RoleState>()
  for (const [name, role] of config.roles) {
    roles.set(name, {
      capabilities: grantedCapabilities(role.capabilities),
      policies: rolePolicies(role.policies, policies),
      trustedRoles: new Set(role.trustedRoles),
    })
  }
  const idps = [...config.idps].map(([name, idp]) => createIdp(name, idp))
  return { config, toml: parsed.toml, roles, idps }
}
