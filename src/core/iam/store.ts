// src/core/iam/store.ts: the IAM capability's storage port: the stored configuration and users' hashed API keys
import type { Micros } from '../time.ts'

export type StoredApiKey = {
  readonly username: string
  readonly keyHash: Uint8Array
  readonly expiresAt: Micros | undefined
  readonly createdAt: Micros
}

export type IamRepo = {
  getConfig(): Promise<{ readonly toml: string; readonly version: number } | undefined>
  /** Replaces the IAM configuration; returns the new version. */
  setConfig(toml: string, now: Micros): Promise<number>
  findApiKeyByHash(keyHash: Uint8Array): Promise<StoredApiKey | undefined>
  /**
   * What authenticating an API key needs, in one round trip: the user key with this hash, if any,
   * and the vault_meta value under `metaKey` (the Admin key's hash when one was set at run time).
   * Nothing is cached: a regenerated or replaced key stops working at once, on every node.
   */
  findCredential(
    keyHash: Uint8Array,
    metaKey: string,
  ): Promise<{ key: StoredApiKey | undefined; meta: string | undefined }>
  getApiKey(username: string): Promise<StoredApiKey | undefined>
  /** Sets (replaces) a user's key: the previous key stops working at once. */
  setApiKey(key: StoredApiKey): Promise<void>
  updateApiKeyExpiry(username: string, expiresAt: Micros | undefined): Promise<boolean>
  /** Removes the keys of users not in the list (they left the IAM configuration). */
  deleteApiKeysExcept(usernames: readonly string[]): Promise<number>
}
