// src/core/crypto-api/crypto-api.ts: the crypto service: encrypt, update encrypted, decrypt, blobs and hash
import type {
  DecryptionRequest,
  EncryptionRequest,
  HashObjectRequest,
  UpdateEncryptionRequest,
} from '../../contract/crypto-api.ts'
import type { CollectionsService } from '../collections/collections.ts'
import type { RequestContext } from '../context.ts'
import { createDeterministicCipher } from '../crypto/deterministic.ts'
import type { DeterministicIds } from '../crypto/deterministic-id.ts'
import type { Envelope } from '../crypto/envelope.ts'
import type { Keyring } from '../crypto/keyring.ts'
import type { TypeRegistry } from '../data-types/registry.ts'
import type { IamService } from '../iam/iam.ts'
import type { StoredObjectReader } from '../objects/reader.ts'
import type { CustomTypeFunctions } from '../values/custom.ts'
import {
  type DecryptBlobOptions,
  decryptBlob,
  type EncryptBlobOptions,
  encryptBlob,
} from './blob.ts'
import { createCiphertexts } from './ciphertext.ts'
import { type DecryptOptions, decrypt } from './decrypt.ts'
import type { CryptoDeps, CryptoLimits } from './deps.ts'
import { encrypt, type UpdateOptions, updateEncrypted } from './encrypt.ts'
import { hash } from './hash.ts'
import type { CustomTransformerRunner } from './transform.ts'

export type CryptoServiceDeps = Readonly<{
  keyring: Keyring
  envelope: Envelope
  collections: CollectionsService
  types: TypeRegistry
  iam: IamService
  /** `object.id` sources; the objects service provides it once it exists. */
  reader: StoredObjectReader
  ids: DeterministicIds
  /** Custom data types' functions (validators, normalizers, transformers) in the sandbox. */
  custom: CustomTypeFunctions
  limits: CryptoLimits
}>

/** Decrypt's transformers through the custom type functions (one value per call). */
function customTransformerRunner(custom: CustomTypeFunctions): CustomTransformerRunner {
  return async (ctx, call) => {
    if (call.value === null || call.value === undefined) return null
    const names = custom.dependencies(call.function, call.collection)
    const object = Object.fromEntries(names.map((n) => [n, call.object[n] ?? null]))
    const [result] = await custom.transform(ctx, {
      function: call.function,
      collection: call.collection,
      property: call.property,
      items: [{ object, value: call.value }],
    })
    return result ?? null
  }
}

export function createCryptoService(deps: CryptoServiceDeps) {
  const ciphertexts = createCiphertexts({
    envelope: deps.envelope,
    siv: createDeterministicCipher(deps.keyring),
  })
  const d: CryptoDeps = {
    collections: deps.collections,
    types: deps.types,
    iam: deps.iam,
    ciphertexts,
    ids: deps.ids,
    reader: deps.reader,
    runCustomTransformer: customTransformerRunner(deps.custom),
    custom: deps.custom,
    limits: deps.limits,
  }
  type Ctx = RequestContext
  return {
    encrypt: (
      ctx: Ctx,
      collection: string,
      items: readonly EncryptionRequest[],
      expiration?: string,
    ) => encrypt(d, ctx, collection, items, expiration),
    updateEncrypted: (
      ctx: Ctx,
      collection: string,
      items: readonly UpdateEncryptionRequest[],
      options: UpdateOptions,
    ) => updateEncrypted(d, ctx, collection, items, options),
    decrypt: (
      ctx: Ctx,
      collection: string,
      items: readonly DecryptionRequest[],
      options: DecryptOptions,
    ) => decrypt(d, ctx, collection, items, options),
    encryptBlob: (ctx: Ctx, collection: string, options: EncryptBlobOptions, bytes: Uint8Array) =>
      encryptBlob(d, ctx, collection, options, bytes),
    decryptBlob: (ctx: Ctx, collection: string, options: DecryptBlobOptions, bytes: Uint8Array) =>
      decryptBlob(d, ctx, collection, options, bytes),
    hash: (ctx: Ctx, collection: string, items: readonly HashObjectRequest[]) =>
      hash(d, ctx, collection, items),
    /** The ciphertext format, for other capabilities that accept `encrypted` objects (tokens). */
    ciphertexts,
  }
}

export type CryptoService = ReturnType<typeof createCryptoService>
