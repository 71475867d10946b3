// src/core/iam/users.ts: users' API keys: regenerate, change expiry, read a user, set the Admin key

import type { AuditedWrites } from '../audit/audit.ts'
import { NO_DETAILS } from '../audit/details.ts'
import type { RequestContext } from '../context.ts'
import { VaultError } from '../errors.ts'
import type { Store } from '../store.ts'
import type { Micros } from '../time.ts'
import {
  type AdminKeys,
  expiryAfter,
  hashApiKey,
  isPrintableAsciiKey,
  isStrongAdminKey,
  newApiKey,
} from './api-keys.ts'
import { ADMIN } from './authenticate.ts'
import type { IamState } from './state.ts'

export type UsersDeps = Readonly<{
  store: Store
  audit: AuditedWrites
  adminKeys: AdminKeys
  state: () => IamState
  /** Lifetime of a regenerated key (SVC_SERVICE_API_KEY_EXPIRATION_SECS). */
  apiKeyExpirationSecs: number
}>

export type UserKey = Readonly<{ name: string; expiresAt: Micros | undefined }>

function adminNotAllowed(ctx: RequestContext, what: string): VaultError {
  return new VaultError('adminNotAllowed', {
    message: `The Admin user's API key cannot be ${what}; use set Admin API key.`,
    context: { username: ctx.principal.username },
  })
}

function userNotFound(name: string, why = 'is not found'): VaultError {
  return new VaultError('userNotFound', {
    message: `The user ${name} ${why}.`,
    context: { user: name },
  })
}

export function createUsers(deps: UsersDeps) {
  function assertConfigured(ctx: RequestContext, name: string, what: string): void {
    if (name === ADMIN) throw adminNotAllowed(ctx, what)
    if (!deps.state().config.users.has(name)) throw userNotFound(name)
  }

  /** A new random key, shown once; the previous key stops working at once (one row per user). */
  async function regenerateApiKey(
    ctx: RequestContext,
    name: string,
  ): Promise<UserKey & { apiKey: string }> {
    assertConfigured(ctx, name, 'regenerated')
    const apiKey = newApiKey()
    const expiresAt = expiryAfter(ctx.now, deps.apiKeyExpirationSecs)
    await deps.audit.transaction(ctx, NO_DETAILS, (tx) =>
      tx.iam.setApiKey({
        username: name,
        keyHash: hashApiKey(apiKey),
        expiresAt,
        createdAt: ctx.now,
      }),
    )
    return { name, apiKey, expiresAt }
  }

  async function updateApiKeyExpiration(
    ctx: RequestContext,
    name: string,
    seconds: number,
  ): Promise<UserKey> {
    assertConfigured(ctx, name, 'changed')
    const expiresAt = expiryAfter(ctx.now, seconds)
    await deps.audit.transaction(ctx, NO_DETAILS, async (tx) => {
      const isUpdated = await tx.iam.updateApiKeyExpiry(name, expiresAt)
      if (!isUpdated) throw userNotFound(name, 'has no API key; regenerate one first')
    })
    return { name, expiresAt }
  }

  async function getUser(_ctx: RequestContext, name: string): Promise<UserKey> {
    if (name === ADMIN) return { name, expiresAt: undefined }
    if (!deps.state().config.users.has(name)) throw userNotFound(name)
    const key = await deps.store.iam.getApiKey(name)
    return { name, expiresAt: key?.expiresAt }
  }

  /** Admin only (the capability gate); the key must be strong, as it grants everything. */
  async function setAdminApiKey(ctx: RequestContext, key: string): Promise<void> {
    if (!isPrintableAsciiKey(key)) {
      throw new VaultError('invalidRequest', {
        message:
          'The Admin API key must use only printable ASCII characters (! to ~): no spaces, line breaks, control or non-ASCII characters.',
        context: { field: 'key' },
      })
    }
    if (!isStrongAdminKey(key)) {
      throw new VaultError('invalidRequest', {
        message:
          'The Admin API key is too weak: it needs at least 15 characters with a digit, a lower-case and an upper-case letter.',
        context: { field: 'key' },
      })
    }
    await deps.audit.transaction(ctx, NO_DETAILS, (tx) => deps.adminKeys.set(key, ctx.now, tx.meta))
  }

  return { regenerateApiKey, updateApiKeyExpiration, getUser, setAdminApiKey }
}
