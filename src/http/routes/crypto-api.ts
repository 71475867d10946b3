// src/http/routes/crypto-api.ts: HTTP binding for encrypt, update encrypted, decrypt, blobs and hash

import { CollectionParams } from '../../contract/collections.ts'
import { DataQuery } from '../../contract/common.ts'
import {
  DecryptBlobQuery,
  DecryptedObject,
  DecryptionRequest,
  DecryptQuery,
  EncryptBlobQuery,
  EncryptedValue,
  EncryptionRequest,
  EncryptQuery,
  HashObjectRequest,
  TokenValue,
  UpdateEncryptedQuery,
  UpdateEncryptionRequest,
} from '../../contract/crypto-api.ts'
import { Type } from '../../contract/schema.ts'
import { audited } from '../audited.ts'
import type { RoutesPlugin } from './types.ts'

const BASE = '/api/pvlt/1.0/data/collections/:collection'
const OBJECTS = `${BASE}/encrypt/objects`
const Ciphertexts = { 200: Type.Array(EncryptedValue) }

/** Blob bodies are raw bytes whatever their content type (the client may label them). */
const blobRoutes: RoutesPlugin = async (app, { services }) => {
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body))
  const bytes = (body: unknown) => (Buffer.isBuffer(body) ? body : Buffer.alloc(0))

  app.post(
    `${BASE}/encrypt/blob`,
    {
      config: {
        operation: 'encrypt_blob',
        errors: [
          'collectionNotFound',
          'propertyNotFound',
          'invalidPropertyValue',
          'payloadTooLarge',
        ],
      },
      schema: {
        operationId: 'crypto.encryptBlob',
        summary: 'Encrypt a blob',
        description:
          'Encrypts the raw request body as a value of a BLOB property and answers the raw ciphertext.',
        tags: ['Crypto'],
        params: CollectionParams,
        querystring: EncryptBlobQuery,
      },
    },
    async (req, reply) => {
      const { prop, type, scope, tags, expiration_secs: expiration } = req.query
      const options = { prop, type, scope, tags, expiration }
      const sealed = services.crypto.encryptBlob(
        req.ctx,
        req.params.collection,
        options,
        bytes(req.body),
      )
      // Returned, not sent: the response leaves only after the call's audit record is written.
      reply.type('application/octet-stream')
      return audited(sealed)
    },
  )

  app.post(
    `${BASE}/decrypt/blob`,
    {
      config: {
        operation: 'decrypt_blob',
        errors: [
          'collectionNotFound',
          'propertyNotFound',
          'encryptedObjectArchived',
          'payloadTooLarge',
        ],
      },
      schema: {
        operationId: 'crypto.decryptBlob',
        summary: 'Decrypt a blob',
        description: 'Decrypts a raw blob ciphertext and answers the raw bytes.',
        tags: ['Crypto'],
        params: CollectionParams,
        querystring: DecryptBlobQuery,
      },
    },
    async (req, reply) => {
      const { prop, scope } = req.query
      const options = { prop, scope, archived: req.query.options?.includes('archived') === true }
      const plain = services.crypto.decryptBlob(
        req.ctx,
        req.params.collection,
        options,
        bytes(req.body),
      )
      reply.type('application/octet-stream')
      return audited(plain)
    },
  )
}

export const cryptoRoutes: RoutesPlugin = async (app, options) => {
  const { services } = options
  const { crypto } = services

  app.post(
    OBJECTS,
    {
      config: {
        operation: 'encrypt',
        errors: [
          'collectionNotFound',
          'objectNotFound',
          'propertyNotFound',
          'invalidPropertyValue',
        ],
      },
      schema: {
        operationId: 'crypto.encrypt',
        summary: 'Encrypt',
        description:
          'Encrypts objects (given values or stored objects) into ciphertexts bound to the collection, in request order. Atomic.',
        tags: ['Crypto'],
        params: CollectionParams,
        querystring: EncryptQuery,
        body: Type.Array(EncryptionRequest),
        response: Ciphertexts,
      },
    },
    async (req) =>
      audited(
        await crypto.encrypt(req.ctx, req.params.collection, req.body, req.query.expiration_secs),
      ),
  )

  app.patch(
    OBJECTS,
    {
      config: {
        operation: 'update_encrypted',
        errors: [
          'collectionNotFound',
          'propertyNotFound',
          'invalidPropertyValue',
          'encryptedObjectArchived',
        ],
      },
      schema: {
        operationId: 'crypto.updateEncrypted',
        summary: 'Update encrypted objects',
        description: 'Decrypts ciphertexts, applies the given fields and answers new ciphertexts.',
        tags: ['Crypto'],
        params: CollectionParams,
        querystring: UpdateEncryptedQuery,
        body: Type.Array(UpdateEncryptionRequest),
        response: Ciphertexts,
      },
    },
    async (req) => {
      const options = {
        archived: req.query.options?.includes('archived') === true,
        expiration: req.query.expiration_secs,
      }
      return audited(
        await crypto.updateEncrypted(req.ctx, req.params.collection, req.body, options),
      )
    },
  )

  app.post(
    `${BASE}/decrypt/objects`,
    {
      config: {
        operation: 'decrypt',
        errors: ['collectionNotFound', 'propertyNotFound', 'encryptedObjectArchived'],
      },
      schema: {
        operationId: 'crypto.decrypt',
        summary: 'Decrypt',
        description:
          'Answers the fields of ciphertexts, optionally transformed, with their metadata on request.',
        tags: ['Crypto'],
        params: CollectionParams,
        querystring: DecryptQuery,
        body: Type.Array(DecryptionRequest),
        response: { 200: Type.Array(DecryptedObject) },
      },
    },
    async (req) => {
      const options = req.query.options ?? []
      const flags = {
        archived: options.includes('archived'),
        includeMetadata: options.includes('include_metadata'),
      }
      return audited(await crypto.decrypt(req.ctx, req.params.collection, req.body, flags))
    },
  )

  app.post(
    `${BASE}/hash/objects`,
    {
      config: {
        operation: 'hash_objects',
        errors: [
          'collectionNotFound',
          'objectNotFound',
          'propertyNotFound',
          'invalidPropertyValue',
        ],
      },
      schema: {
        operationId: 'crypto.hashObjects',
        summary: 'Hash objects',
        description: 'Answers the deterministic token ID of each input without storing anything.',
        tags: ['Crypto'],
        params: CollectionParams,
        querystring: DataQuery,
        body: Type.Array(HashObjectRequest),
        response: { 200: Type.Array(TokenValue) },
      },
    },
    async (req) => audited(await crypto.hash(req.ctx, req.params.collection, req.body)),
  )

  app.register(blobRoutes, options)
}
