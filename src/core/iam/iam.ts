// src/core/iam/iam.ts: the IAM service: credential → principal, the capability gate, the policy gate
import type { Principal, RequestContext } from '../context.ts'
import { constantTimeEqual, sha256 } from '../crypto/hash.ts'
import { VaultError } from '../errors.ts'
import type { Store } from '../store.ts'
import type { Clock } from '../time.ts'
import type { Capability } from './capabilities.ts'
import { meetsRequirement, OPERATIONS, type Operation } from './operations.ts'

export const ADMIN = 'Admin'

/** One data-policy question: may the caller do `operation` on any of these resource strings? */
export type PolicyCheck = Readonly<{ operation: string; resources: readonly string[] }>

export type IamDeps = {
  readonly store: Store
  readonly clock: Clock
  /** The Admin key in force at start (SVC_SERVICE_ADMIN_API_KEY, dev default `pvaultauth`). */
  readonly adminApiKey: string
  readonly adminMayReadData: boolean
  readonly policyEnforcement: boolean
}

/** What the gate needs from the IAM configuration: users' roles and roles' capabilities. */
export type IamState = Readonly<{
  users: ReadonlyMap<string, Readonly<{ role: string; isDisabled: boolean }>>
  roles: ReadonlyMap<string, ReadonlySet<Capability>>
}>

const EMPTY_STATE: IamState = { users: new Map(), roles: new Map() }

function unauthorized(): VaultError {
  return new VaultError('unauthorized', {
    message: 'The request is unauthorized: the credential is missing or invalid.',
  })
}

export function createIamService(deps: IamDeps) {
  const adminKeyHash = sha256(deps.adminApiKey)
  let state: IamState = EMPTY_STATE

  async function authenticateApiKey(credential: string): Promise<Principal> {
    const hash = sha256(credential)
    if (constantTimeEqual(hash, adminKeyHash)) {
      return { username: ADMIN, role: ADMIN, isAdmin: true, authKind: 'api_key' }
    }
    const key = await deps.store.iam.findApiKeyByHash(hash)
    if (key === undefined || !constantTimeEqual(key.keyHash, hash)) throw unauthorized()
    if (key.expiresAt !== undefined && key.expiresAt <= deps.clock()) throw unauthorized()
    const user = state.users.get(key.username)
    if (user === undefined) throw unauthorized()
    if (user.isDisabled)
      throw new VaultError('userDisabled', { context: { username: key.username } })
    return { username: key.username, role: user.role, isAdmin: false, authKind: 'api_key' }
  }

  /** Resolves a bearer credential; missing, unknown or expired credentials give 401 ERR1005. */
  async function authenticate(credential: string | undefined): Promise<Principal> {
    if (credential === undefined || credential === '') throw unauthorized()
    return authenticateApiKey(credential)
  }

  function capabilitiesOf(principal: Principal): ReadonlySet<Capability> {
    if (principal.isAdmin) return new Set<Capability>(['CapSystem'])
    return state.roles.get(principal.role) ?? new Set()
  }

  /** The capability gate: 403 ERR1007 naming the user when the role lacks what the operation needs. */
  function authorize(ctx: RequestContext, operation: Operation): void {
    const requirement = OPERATIONS[operation]
    if (requirement.kind === 'admin' && !ctx.principal.isAdmin) {
      throw new VaultError('adminNotAllowed', {
        message: 'The operation is allowed only for the Admin user.',
        context: { username: ctx.principal.username },
      })
    }
    if (!meetsRequirement(requirement, capabilitiesOf(ctx.principal), ctx.principal.isAdmin)) {
      throw new VaultError('missingCapability', { context: { username: ctx.principal.username } })
    }
  }

  /**
   * The data-policy gate: every check must be allowed, else 403 ERR1006. Admin passes only when
   * SVC_SERVICE_ADMIN_MAY_READ_DATA is on; with no policies, everyone else is denied (fail closed).
   */
  function checkPolicies(ctx: RequestContext, checks: readonly PolicyCheck[]): void {
    if (!deps.policyEnforcement || checks.length === 0) return
    if (ctx.principal.isAdmin && deps.adminMayReadData) return
    throw new VaultError('policyDenied', { context: { username: ctx.principal.username } })
  }

  return {
    authenticate,
    authorize,
    checkPolicies,
    /** Replaces users and roles (called when the IAM configuration is loaded or changes). */
    setState(next: IamState) {
      state = next
    },
    capabilitiesOf,
  }
}

export type IamService = ReturnType<typeof createIamService>
