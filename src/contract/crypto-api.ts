// src/contract/crypto-api.ts: wire shapes of the crypto operations (endpoints §5, crypto.md §1–5)
import type { Static } from 'typebox'
import { DataQuery, QueryList } from './common.ts'
import { Type } from './schema.ts'

/**
 * `randomized` (default): a fresh random IV, equal inputs give different ciphertexts.
 * `deterministic`: equal inputs (collection, scope, fields, expiration) give equal ciphertexts.
 * @example "deterministic"
 */
export const EncryptionType = Type.Union([
  Type.Literal('randomized'),
  Type.Literal('deterministic'),
])
export type EncryptionType = Static<typeof EncryptionType>

/**
 * A ciphertext from the encrypt operation (base64) and the scope it was encrypted with
 * (absent: `""`).
 * @example { "ciphertext": "AQEB…", "scope": "pii" }
 */
export const EncryptedObjectInput = Type.Object({
  ciphertext: Type.String(),
  scope: Type.Optional(Type.String()),
})
export type EncryptedObjectInput = Static<typeof EncryptedObjectInput>

/**
 * The object of a request item: exactly one of a stored object's `id`, `fields`, another
 * `encrypted` object, or the `request_index` of an earlier item of the same request.
 * @example { "fields": { "ssn": "123-45-6789" } }
 */
export const InputObject = Type.Object({
  id: Type.Optional(Type.String()),
  fields: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  encrypted: Type.Optional(EncryptedObjectInput),
  request_index: Type.Optional(Type.Integer({ minimum: 0 })),
})
export type InputObject = Static<typeof InputObject>

/**
 * One item of encrypt objects.
 * @example { "type": "randomized", "object": { "id": "7f2c…" }, "props": ["ssn"], "scope": "pii", "tags": ["t1"] }
 */
export const EncryptionRequest = Type.Object({
  type: Type.Optional(EncryptionType),
  object: InputObject,
  props: Type.Optional(Type.Array(Type.String())),
  scope: Type.Optional(Type.String()),
  tags: Type.Optional(Type.Array(Type.String())),
})
export type EncryptionRequest = Static<typeof EncryptionRequest>

/** @example { "ciphertext": "AQEB…" } */
export const EncryptedValue = Type.Object({ ciphertext: Type.String() })
export type EncryptedValue = Static<typeof EncryptedValue>

/**
 * One item of decrypt objects; `props` may request transformations (`ssn.mask`).
 * @example { "encrypted_object": { "ciphertext": "AQEB…", "scope": "pii" }, "props": ["ssn.mask"] }
 */
export const DecryptionRequest = Type.Object({
  encrypted_object: EncryptedObjectInput,
  props: Type.Optional(Type.Array(Type.String())),
})
export type DecryptionRequest = Static<typeof DecryptionRequest>

/** @example { "type": "randomized", "scope": "pii", "expiration": null, "tags": ["t1"] } */
export const EncryptedObjectMetadata = Type.Object({
  type: EncryptionType,
  scope: Type.String(),
  expiration: Type.Union([Type.String(), Type.Null()]),
  tags: Type.Array(Type.String()),
})

/** @example { "fields": { "ssn.mask": "***-**-6789" }, "metadata": { … } } */
export const DecryptedObject = Type.Object({
  fields: Type.Record(Type.String(), Type.Unknown()),
  metadata: Type.Optional(EncryptedObjectMetadata),
})
export type DecryptedObject = Static<typeof DecryptedObject>

/**
 * One item of update encrypted: `fields` overlay the decrypted source.
 * @example { "encrypted_object": { "ciphertext": "AQEB…" }, "fields": { "email": "a@b.co" }, "scope": "new" }
 */
export const UpdateEncryptionRequest = Type.Object({
  type: Type.Optional(EncryptionType),
  encrypted_object: EncryptedObjectInput,
  fields: Type.Record(Type.String(), Type.Unknown()),
  props: Type.Optional(Type.Array(Type.String())),
  scope: Type.Optional(Type.String()),
})
export type UpdateEncryptionRequest = Static<typeof UpdateEncryptionRequest>

/**
 * One item of hash objects. `fptemplate` `primary_account_number` needs `fpprops` naming one
 * CC_NUMBER property; empty or absent: a UUID.
 * @example { "object": { "fields": { "ssn": "123-45-6789" } }, "scope": "global:ssn" }
 */
export const HashObjectRequest = Type.Object({
  object: InputObject,
  props: Type.Optional(Type.Array(Type.String())),
  scope: Type.Optional(Type.String()),
  fpprops: Type.Optional(Type.Array(Type.String())),
  fptemplate: Type.Optional(Type.String()),
})
export type HashObjectRequest = Static<typeof HashObjectRequest>

/** @example { "token_id": "4f1c2a9e-…" } */
export const TokenValue = Type.Object({ token_id: Type.String() })

/** `expiration_secs`: absent → SVC_EXPIRATION_TOKENS; empty → never; `N` → now + N seconds. */
const Expiration = Type.Optional(Type.String())

/** @example ?reason=AppFunctionality&expiration_secs=3600 */
export const EncryptQuery = Type.Object({ ...DataQuery.properties, expiration_secs: Expiration })
export type EncryptQuery = Static<typeof EncryptQuery>

/** @example ?reason=AppFunctionality&options=archived */
export const UpdateEncryptedQuery = Type.Object({
  ...DataQuery.properties,
  expiration_secs: Expiration,
  options: Type.Optional(Type.Array(Type.Literal('archived'))),
})
export type UpdateEncryptedQuery = Static<typeof UpdateEncryptedQuery>

/** @example ?reason=AppFunctionality&options=include_metadata */
export const DecryptQuery = Type.Object({
  ...DataQuery.properties,
  options: Type.Optional(
    Type.Array(Type.Union([Type.Literal('archived'), Type.Literal('include_metadata')])),
  ),
})
export type DecryptQuery = Static<typeof DecryptQuery>

/** @example ?reason=AppFunctionality&prop=photo&scope=s&tags=a,b */
export const EncryptBlobQuery = Type.Object({
  ...DataQuery.properties,
  prop: Type.String(),
  type: Type.Optional(EncryptionType),
  scope: Type.Optional(Type.String()),
  tags: Type.Optional(QueryList),
  expiration_secs: Expiration,
})
export type EncryptBlobQuery = Static<typeof EncryptBlobQuery>

/** @example ?reason=AppFunctionality&prop=photo&scope=s */
export const DecryptBlobQuery = Type.Object({
  ...DataQuery.properties,
  prop: Type.String(),
  scope: Type.Optional(Type.String()),
  options: Type.Optional(Type.Array(Type.Literal('archived'))),
})
export type DecryptBlobQuery = Static<typeof DecryptBlobQuery>
