// src/core/tokens/store.ts: the part of the Store port that persists tokens, their IDs, reuse fingerprints and transaction IDs
import type { Micros } from '../time.ts'

export type TokenType = 'randomized' | 'pointer' | 'pci' | 'pci_oneway' | 'deterministic'

/**
 * One stored token. Several rows may share a `tokenId` (pci reuse, deterministic). `sealed` holds
 * the values (purpose `token`, bound to collection and row id); pointer tokens have none.
 * `fingerprint` is the keyed digest of the canonical values (pci, deterministic), never plaintext.
 */
export type TokenRecord = Readonly<{
  rowId: string
  collection: string
  tokenId: string
  type: TokenType
  scope: string
  props: readonly string[]
  objectId: string | undefined
  tenantId: string | undefined
  sealed: Uint8Array | undefined
  fingerprint: Uint8Array | undefined
  tags: readonly string[]
  createdAt: Micros
  modifiedAt: Micros
  expiresAt: Micros | undefined
  fptemplate: string | undefined
  fpprops: readonly string[] | undefined
  transactionId: string | undefined
}>

/** Selection criteria combined with AND; an absent criterion does not narrow. */
export type TokenSelection = Readonly<{
  collection: string
  tokenIds?: readonly string[]
  objectIds?: readonly string[]
  tags?: readonly string[]
}>

export type TokenMetaChange = Readonly<{
  rowId: string
  tags: readonly string[]
  expiresAt: Micros | undefined
  modifiedAt: Micros
}>

export type TokenDataChange = Readonly<{
  rowId: string
  sealed: Uint8Array
  fingerprint: Uint8Array | undefined
  props: readonly string[]
  modifiedAt: Micros
}>

export type TokensRepo = {
  insert(rows: readonly TokenRecord[]): Promise<void>
  /** Claims token IDs in a collection; returns the IDs that were already taken. */
  claimIds(
    collection: string,
    claims: readonly Readonly<{ tokenId: string; type: TokenType }>[],
  ): Promise<ReadonlySet<string>>
  /** The type an ID was claimed with, or undefined when unclaimed. */
  claimedType(collection: string, tokenId: string): Promise<TokenType | undefined>
  /** Claims a reuse fingerprint for `tokenId`, or returns the ID that already holds it. */
  claimReuse(namespace: string, fingerprint: Uint8Array, tokenId: string): Promise<string>
  findReuse(namespace: string, fingerprint: Uint8Array): Promise<string | undefined>
  /** Points a fingerprint at a token ID (data update), replacing any previous holder. */
  setReuse(namespace: string, fingerprint: Uint8Array, tokenId: string): Promise<void>
  releaseReuse(tokenId: string): Promise<void>
  select(selection: TokenSelection): Promise<TokenRecord[]>
  /** Tokens of a collection carrying a tag (for tenant-unique tags). */
  withTag(collection: string, tag: string): Promise<TokenRecord[]>
  byTransaction(collection: string, transactionId: string): Promise<TokenRecord[]>
  updateMeta(changes: readonly TokenMetaChange[]): Promise<void>
  updateData(changes: readonly TokenDataChange[]): Promise<void>
  /** Swaps a row's sealed data if it is still `from` (re-encryption); false when it changed. */
  replaceSealed(rowId: string, from: Uint8Array, to: Uint8Array): Promise<boolean>
  /** Moves every token and reuse entry of an ID to a new ID the caller claimed; the old claim goes (rotate). */
  rename(collection: string, from: string, to: string): Promise<void>
  /** Removes rows for good; IDs left without rows lose their claims and reuse entries. */
  delete(collection: string, rowIds: readonly string[]): Promise<void>
  /** Claims a transaction ID; false when the collection already used it. */
  insertTransaction(collection: string, transactionId: string, now: Micros): Promise<boolean>
  hasTransaction(collection: string, transactionId: string): Promise<boolean>
  /** Transaction IDs no token refers to any more, at most `limit`. */
  orphanTransactions(
    limit: number,
  ): Promise<Readonly<{ collection: string; transactionId: string }>[]>
  deleteTransactions(
    entries: readonly Readonly<{ collection: string; transactionId: string }>[],
  ): Promise<void>
  /** Rows whose own expiry is before `before` (garbage collection). */
  expired(before: Micros, limit: number): Promise<TokenRecord[]>
  /** Rows in row-id order after `after` (export, re-encryption); all collections when undefined. */
  page(
    collection: string | undefined,
    after: string | undefined,
    limit: number,
  ): Promise<TokenRecord[]>
  deleteCollection(collection: string): Promise<void>
  /** Drops a property from every token of the collection; tokens of only that property go. */
  removeProperty(collection: string, property: string): Promise<void>
}
