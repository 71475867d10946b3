// src/core/iam/api-keys.ts: API keys: generation, hashing, expiry, the Admin key rules and storage
import { constantTimeEqual, randomSecret, sha256 } from '../crypto/hash.ts'
import type { MetaRepo } from '../store.ts'
import { formatSeconds, MICROS_PER_SECOND, type Micros } from '../time.ts'

/** The vault_meta key holding the SHA-256 (hex) of an Admin key set at run time. */
export const ADMIN_KEY_META = 'admin_api_key_sha256'

/** A new user key: 32 random bytes (256 bits), base64url without padding (43 characters). */
export function newApiKey(): string {
  return randomSecret(32)
}

/**
 * Keys are stored only as SHA-256. Keys are 256-bit random values (or a long Admin secret), so an
 * unsalted fast hash is enough: there is nothing to brute-force from a dictionary.
 */
export function hashApiKey(key: string): Uint8Array {
  return sha256(key)
}

export function keyHashEquals(a: Uint8Array, b: Uint8Array): boolean {
  return constantTimeEqual(a, b)
}

export function expiryAfter(now: Micros, seconds: number): Micros {
  return now + seconds * MICROS_PER_SECOND
}

/** RFC 3339 expiry; empty when there is none (no key, or a key that never expires). */
export function formatExpiry(expiresAt: Micros | undefined): string {
  return expiresAt === undefined ? '' : formatSeconds(expiresAt)
}

/**
 * Printable ASCII without spaces (`!` to `~`): what a client can send in an `Authorization` header
 * unchanged. A newline, a space, a control or non-ASCII character would make a key that no client
 * can present, and lock the Admin out.
 */
const PRINTABLE_ASCII = /^[\x21-\x7e]*$/

/** Whether `key` has only printable ASCII characters and no space (see PRINTABLE_ASCII). */
export function isPrintableAsciiKey(key: string): boolean {
  return PRINTABLE_ASCII.test(key)
}

/**
 * The set-api-key rule: 15 to 1024 printable ASCII characters without spaces, with a digit, a
 * lower-case and an upper-case letter.
 */
export function isStrongAdminKey(key: string): boolean {
  return (
    key.length >= 15 &&
    isPrintableAsciiKey(key) &&
    key.length <= 1024 &&
    /\d/.test(key) &&
    /[a-z]/.test(key) &&
    /[A-Z]/.test(key)
  )
}

export type AdminKeysDeps = Readonly<{ meta: MetaRepo; envKey: string; overrideOnRestart: boolean }>

/**
 * The Admin key in force: one set at run time (hash in vault_meta, shared by every node), else the
 * SVC_SERVICE_ADMIN_API_KEY value. It is read per request so a change applies at once everywhere.
 */
export function createAdminKeys(deps: AdminKeysDeps) {
  const envHash = hashApiKey(deps.envKey)

  /** The key in force, given the vault_meta value under ADMIN_KEY_META (if any). */
  function hashIn(stored: string | undefined): Uint8Array {
    return stored ? new Uint8Array(Buffer.from(stored, 'hex')) : envHash
  }

  return {
    async matches(hash: Uint8Array): Promise<boolean> {
      return keyHashEquals(hash, hashIn(await deps.meta.get(ADMIN_KEY_META)))
    },
    /** As `matches`, with the ADMIN_KEY_META value already read (IamRepo.findCredential). */
    matchesStored(hash: Uint8Array, stored: string | undefined): boolean {
      return keyHashEquals(hash, hashIn(stored))
    },
    /** Sets the key in force (through `meta`, a transaction's, when given). */
    async set(key: string, now: Micros, meta: MetaRepo = deps.meta): Promise<void> {
      await meta.set(ADMIN_KEY_META, Buffer.from(hashApiKey(key)).toString('hex'), now)
    },
    /** At start: with SVC_SERVICE_OVERRIDE_ADMIN_API_KEY_ON_RESTART the variable's key wins again. */
    async initialize(): Promise<void> {
      if (deps.overrideOnRestart) await deps.meta.delete(ADMIN_KEY_META)
    },
  }
}

export type AdminKeys = ReturnType<typeof createAdminKeys>
