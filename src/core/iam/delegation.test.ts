// src/core/iam/delegation.test.ts: who may act for a role, and which principal results
import { describe, expect, it } from 'vitest'
import type { Principal } from '../context.ts'
import { VaultError } from '../errors.ts'
import { delegate, mayAuthenticateDirectly } from './delegation.ts'
import type { RoleState } from './state.ts'

const role = (trusted: string[]): RoleState => ({
  capabilities: new Set(),
  policies: [],
  trustedRoles: new Set(trusted),
})

const actor: Principal = { username: 'svc', role: 'Actor', isAdmin: false, authKind: 'api_key' }
const boss: Principal = {
  username: 'idp:alice',
  role: 'Boss',
  isAdmin: false,
  authKind: 'jwt',
  idp: 'idp',
  tenantIds: ['t1'],
}

describe('role delegation', () => {
  it('keeps roles with trusted roles from signing in directly', () => {
    expect(mayAuthenticateDirectly(role([]))).toBe(true)
    expect(mayAuthenticateDirectly(undefined)).toBe(true)
    expect(mayAuthenticateDirectly(role(['Actor']))).toBe(false)
  })

  it('acts as the delegating role and keeps the actor for the audit', () => {
    expect(delegate(actor, boss, role(['Actor']))).toEqual({
      ...boss,
      authKind: 'delegation',
      actor: 'svc',
    })
  })

  it.each([
    ['an untrusted role', actor, role(['Other'])],
    ['Admin', { ...actor, username: 'Admin', role: 'Admin', isAdmin: true }, role(['Admin'])],
    ['an unknown delegating role', actor, undefined],
  ])('refuses %s with 403 ERR1007', (_what, acting, delegatingRole) => {
    let error: unknown
    try {
      delegate(acting, boss, delegatingRole)
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(VaultError)
    expect((error as VaultError).code).toBe('ERR1007')
    expect((error as VaultError).context).toEqual({ username: acting.username })
  })
})
