// src/core/iam/authenticate.ts: bearer credential (API key or JWT) and delegation JWT → principal
import type { Principal } from '../context.ts'
import { VaultError } from '../errors.ts'
import type { Store } from '../store.ts'
import type { Clock } from '../time.ts'
import { ADMIN_KEY_META, type AdminKeys, hashApiKey, keyHashEquals } from './api-keys.ts'
import { delegate, mayAuthenticateDirectly } from './delegation.ts'
import { JwtRejected, looksLikeJwt, verifyJwt } from './jwt.ts'
import { resolveJwtRole, subjectOf, tenantsFromClaims } from './jwt-claims.ts'
import type { IamState } from './state.ts'

export const ADMIN = 'Admin'

export type AuthenticateDeps = Readonly<{
  store: Store
  clock: Clock
  adminKeys: AdminKeys
  state: () => IamState
}>

export function unauthorized(
  why = 'The request is unauthorized: the credential is missing or invalid.',
): VaultError {
  return new VaultError('unauthorized', { message: why })
}

const ADMIN_PRINCIPAL: Principal = {
  username: ADMIN,
  role: ADMIN,
  isAdmin: true,
  authKind: 'api_key',
}

export function createAuthenticator(deps: AuthenticateDeps) {
  /**
   * Key lookups hit the database on every call, so a regenerated key is dead at once everywhere:
   * the user key and the run-time Admin key are read by one statement.
   */
  async function byApiKey(credential: string): Promise<Principal> {
    const hash = hashApiKey(credential)
    const { key, meta } = await deps.store.iam.findCredential(hash, ADMIN_KEY_META)
    if (key === undefined || !keyHashEquals(key.keyHash, hash)) {
      if (deps.adminKeys.matchesStored(hash, meta)) return ADMIN_PRINCIPAL
      throw unauthorized()
    }
    if (key.expiresAt !== undefined && key.expiresAt <= deps.clock()) throw unauthorized()
    const user = deps.state().config.users.get(key.username)
    if (user === undefined) throw unauthorized()
    if (user.isDisabled)
      throw new VaultError('userDisabled', { context: { username: key.username } })
    return { username: key.username, role: user.role, isAdmin: false, authKind: 'api_key' }
  }

  async function byJwt(token: string): Promise<Principal> {
    const state = deps.state()
    let verified: Awaited<ReturnType<typeof verifyJwt>>
    try {
      verified = await verifyJwt(token, state.idps, deps.clock())
    } catch (error) {
      if (!(error instanceof JwtRejected)) throw error
      throw unauthorized(`The JWT is not accepted: ${error.message}.`)
    }
    const { idp, claims } = verified
    const subject = subjectOf(claims)
    if (subject === undefined) throw unauthorized('The JWT is not accepted: it has no sub claim.')
    const role = resolveJwtRole(idp.config, claims, (name) => state.roles.has(name))
    if (role === undefined)
      throw unauthorized('The JWT is not accepted: it does not resolve to an allowed role.')
    const tenantIds = tenantsFromClaims(idp.config, claims)
    return {
      username: `${idp.name}:${subject}`,
      role,
      isAdmin: false,
      authKind: 'jwt',
      idp: idp.name,
      tenantIds,
    }
  }

  async function direct(credential: string): Promise<Principal> {
    const principal = looksLikeJwt(credential)
      ? await byJwt(credential)
      : await byApiKey(credential)
    if (!mayAuthenticateDirectly(deps.state().roles.get(principal.role))) {
      throw unauthorized(
        `The request is unauthorized: the role ${principal.role} may act only through delegation.`,
      )
    }
    return principal
  }

  /**
   * Resolves `Authorization: Bearer` (API key or JWT) and, when present, `X-Pvault-Delegation`
   * (a JWT only). Missing, unknown, expired or refused credentials give 401 ERR1005.
   */
  async function authenticate(
    credential: string | undefined,
    delegation?: string,
  ): Promise<Principal> {
    if (credential === undefined || credential === '') throw unauthorized()
    const actor = await direct(credential)
    if (delegation === undefined) return actor
    if (!looksLikeJwt(delegation))
      throw unauthorized('The request is unauthorized: X-Pvault-Delegation must carry a JWT.')
    const delegating = await byJwt(delegation)
    return delegate(actor, delegating, deps.state().roles.get(delegating.role))
  }

  return { authenticate }
}
