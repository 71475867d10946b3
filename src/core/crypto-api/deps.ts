// src/core/crypto-api/deps.ts: what the crypto operations need, and the request checks they share
import { type AuditDetails, NO_DETAILS, withFailureDetailsSync } from '../audit/details.ts'
import type { StoredCollection } from '../collections/collection.ts'
import type { CollectionsService } from '../collections/collections.ts'
import { namedDetails } from '../collections/errors.ts'
import type { DeterministicIds } from '../crypto/deterministic-id.ts'
import type { TypeRegistry } from '../data-types/registry.ts'
import { VaultError } from '../errors.ts'
import type { PolicyCheck } from '../iam/evaluate.ts'
import type { IamService } from '../iam/iam.ts'
import { propertyResources } from '../iam/policy.ts'
import type { StoredObjectReader } from '../objects/reader.ts'
import type { CustomTypeFunctions } from '../values/custom.ts'
import type { Ciphertexts, EncryptionType } from './ciphertext.ts'
import { dataTypeOf } from './fields.ts'
import type { CustomTransformerRunner } from './transform.ts'

export type CryptoLimits = Readonly<{
  /** SVC_SERVICE_MAX_PAGE_SIZE: items per bulk call. */
  maxItems: number
  /** SVC_DB_MAX_TOKEN_TAGS. */
  maxTags: number
  /** SVC_DB_MAX_BLOB_LENGTH, in bytes. */
  maxBlobLength: number
  /** SVC_EXPIRATION_TOKENS: the default ciphertext lifetime; undefined: never expires. */
  tokenExpirationSecs: number | undefined
}>

export type CryptoDeps = Readonly<{
  collections: CollectionsService
  types: TypeRegistry
  iam: IamService
  ciphertexts: Ciphertexts
  ids: DeterministicIds
  reader: StoredObjectReader
  runCustomTransformer: CustomTransformerRunner | undefined
  custom: CustomTypeFunctions
  limits: CryptoLimits
}>

/** The collection from this node's cache (404 ERR1004), and the audit details naming it. */
export function collectionFor(
  deps: CryptoDeps,
  name: string,
): Readonly<{ collection: StoredCollection; audit: AuditDetails }> {
  // Named even when it is not found, if the name is a name at all.
  const audit = namedDetails(NO_DETAILS, name)
  return withFailureDetailsSync(audit, () => ({
    collection: deps.collections.getCachedOrThrow(name),
    audit,
  }))
}

function invalid(message: string, field: string): VaultError {
  return new VaultError('invalidRequest', { message, context: { field } })
}

/** A bulk call holds at most SVC_SERVICE_MAX_PAGE_SIZE items (README: bulk semantics). */
export function assertItemCount(deps: CryptoDeps, count: number): void {
  if (count > deps.limits.maxItems)
    throw invalid(
      `The request has ${count} items; at most ${deps.limits.maxItems} are allowed.`,
      'body',
    )
}

/** Tags: none with `deterministic` (they would be part of its input), at most SVC_DB_MAX_TOKEN_TAGS. */
export function tagsFor(
  deps: CryptoDeps,
  type: EncryptionType,
  tags: readonly string[] | undefined,
  field: string,
): string[] {
  const unique = [...new Set(tags ?? [])]
  if (type === 'deterministic' && unique.length > 0)
    throw invalid('Tags are not allowed with the deterministic encryption type.', field)
  if (unique.length > deps.limits.maxTags)
    throw invalid(`At most ${deps.limits.maxTags} tags are allowed.`, field)
  return unique
}

/** The check of `operation` on each named property (raw values), each once; `archived/` with options=archived. */
export function propertyChecks(
  operation: string,
  collection: StoredCollection,
  names: Iterable<string>,
  isArchived = false,
): PolicyCheck[] {
  return [...new Set(names)].map((property) => ({
    operation,
    resources: propertyResources({
      collection: collection.name,
      property,
      type: dataTypeOf(collection, property),
      isArchived,
    }),
  }))
}

/** Each distinct check once: bulk calls repeat the same properties item after item. */
export function uniqueChecks(checks: readonly PolicyCheck[]): PolicyCheck[] {
  const seen = new Map<string, PolicyCheck>()
  for (const check of checks)
    seen.set(`${check.operation}\u0000${check.resources.join('\u0000')}`, check)
  return [...seen.values()]
}
