// src/core/crypto-api/blob.ts: encrypt and decrypt blobs (crypto.md §4): raw bytes of one BLOB-based property

import { type Audited, withFailureDetailsSync, withProperties } from '../audit/details.ts'
import type { StoredCollection } from '../collections/collection.ts'
import type { RequestContext } from '../context.ts'
import { VaultError } from '../errors.ts'
import { ownValue } from '../own.ts'
import type { EncryptionType } from './ciphertext.ts'
import { type CryptoDeps, collectionFor, propertyChecks, tagsFor } from './deps.ts'
import { propertyOrThrow } from './fields.ts'
import { assertLifecycle, expiryOf } from './lifecycle.ts'
import type { CiphertextContent } from './payload.ts'

export type EncryptBlobOptions = Readonly<{
  prop: string
  type: EncryptionType | undefined
  scope: string | undefined
  tags: readonly string[] | undefined
  expiration: string | undefined
}>

export type DecryptBlobOptions = Readonly<{
  prop: string
  scope: string | undefined
  archived: boolean
}>

/** `prop` must be a property (404 ERR3004) whose type is BLOB or based on it (400 ERR1012). */
function blobProperty(deps: CryptoDeps, collection: StoredCollection, prop: string): string {
  const property = propertyOrThrow(collection, prop)
  if (deps.types.get(property.dataType)?.base.name === 'BLOB') return property.name
  throw new VaultError('invalidRequest', {
    message: `The property ${property.name} is not a BLOB property.`,
    context: { field: 'prop', property: property.name },
  })
}

export function encryptBlob(
  deps: CryptoDeps,
  ctx: RequestContext,
  name: string,
  options: EncryptBlobOptions,
  bytes: Uint8Array,
): Audited<Buffer> {
  const { collection, audit: named } = collectionFor(deps, name)
  const { property, tags, expiresAt } = withFailureDetailsSync(named, () => {
    const property = blobProperty(deps, collection, options.prop)
    if (bytes.length > deps.limits.maxBlobLength) {
      throw new VaultError('payloadTooLarge', {
        message: `The blob is larger than ${deps.limits.maxBlobLength} bytes (SVC_DB_MAX_BLOB_LENGTH).`,
      })
    }
    const tags = tagsFor(deps, options.type ?? 'randomized', options.tags, 'tags')
    const expiresAt = expiryOf(options.expiration, deps.limits.tokenExpirationSecs, ctx.now)
    deps.iam.checkPolicies(ctx, propertyChecks('encrypt', collection, [property]))
    return { property, tags, expiresAt }
  })
  const audit = withProperties(named, [property])
  const type = options.type ?? 'randomized'
  const createdAt = type === 'randomized' ? ctx.now : undefined
  const [sealed] = withFailureDetailsSync(audit, () =>
    deps.ciphertexts.sealAll([
      {
        collection: collection.name,
        scope: options.scope ?? '',
        type,
        payload: {
          metadata: { expiresAt, tags, createdAt },
          content: { kind: 'blob', property, bytes },
        },
      },
    ]),
  )
  return { value: sealed as Buffer, audit }
}

/** The bytes of `property` in a ciphertext: a blob ciphertext for it, or a BLOB field (base64). */
function bytesOf(content: CiphertextContent, property: string): Buffer {
  if (content.kind === 'blob' && content.property === property) return Buffer.from(content.bytes)
  const value = content.kind === 'fields' ? ownValue(content.fields, property) : undefined
  if (typeof value === 'string') return Buffer.from(value, 'base64')
  throw new VaultError('invalidRequest', {
    message: `The ciphertext holds no value of property ${property}.`,
    context: { field: 'prop', property },
  })
}

export function decryptBlob(
  deps: CryptoDeps,
  ctx: RequestContext,
  name: string,
  options: DecryptBlobOptions,
  ciphertext: Uint8Array,
): Audited<Buffer> {
  const { collection, audit: named } = collectionFor(deps, name)
  const { property, opened, bytes } = withFailureDetailsSync(named, () => {
    const property = blobProperty(deps, collection, options.prop)
    const [opened] = deps.ciphertexts.openAll([
      { bytes: ciphertext, collection: collection.name, scope: options.scope ?? '' },
    ])
    if (opened === undefined) throw new Error('openAll returned no item')
    const bytes = bytesOf(opened.content, property)
    deps.iam.checkPolicies(ctx, propertyChecks('decrypt', collection, [property], options.archived))
    return { property, opened, bytes }
  })
  const audit = withProperties(named, [property])
  withFailureDetailsSync(audit, () => assertLifecycle(opened.metadata, options.archived, ctx.now))
  return { value: bytes, audit }
}
