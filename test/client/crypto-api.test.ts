// test/client/crypto-api.test.ts: the published client's crypto operations and key administration work unchanged
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { VaultClient } from '@piiano/vault-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addCollection, DATA, REASON, storeObject } from '../helpers/crypto.ts'
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.ts'

const reason = 'AppFunctionality'

describe('published client: crypto and keys', () => {
  let server: TestServer
  let client: VaultClient
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'strongroom-client-'))
    server = await startTestServer({ env: { SVC_BACKING_STORE: 'sqlite', SVC_DATA_DIR: dir } })
    client = new VaultClient({ vaultURL: server.baseUrl, apiKey: ADMIN_KEY })
    await addCollection(server)
  })
  afterAll(async () => {
    await server.close()
    await rm(dir, { recursive: true, force: true })
  })

  it('encrypts, decrypts with metadata and transformers, and updates ciphertexts', async () => {
    const id = await storeObject(server.app, 'people', { name: 'Jo Doe', ssn: '123-45-6789' })
    const encrypted = await client.crypto.encrypt({
      collection: 'people',
      reason,
      expirationSecs: '3600',
      requestBody: [
        { object: { fields: { name: 'Jo Doe', ssn: '123-45-6789' } }, scope: 's', tags: ['t'] },
        { object: { id }, props: ['ssn'], type: 'deterministic' },
        { object: { request_index: 0 }, props: ['name'] },
      ],
    })
    expect(encrypted).toHaveLength(3)
    const decrypted = await client.crypto.decrypt({
      collection: 'people',
      reason,
      options: ['include_metadata'],
      requestBody: [
        {
          encrypted_object: { ciphertext: encrypted[0]?.ciphertext as string, scope: 's' },
          props: ['name', 'ssn.mask'],
        },
        { encrypted_object: { ciphertext: encrypted[1]?.ciphertext as string } },
      ],
    })
    expect(decrypted[0]?.fields).toEqual({ name: 'Jo Doe', 'ssn.mask': '***-**-6789' })
    expect(decrypted[0]?.metadata).toMatchObject({ type: 'randomized', scope: 's', tags: ['t'] })
    expect(decrypted[1]?.fields).toEqual({ ssn: '123-45-6789' })
    const updated = await client.crypto.updateEncrypted({
      collection: 'people',
      reason,
      requestBody: [
        {
          encrypted_object: { ciphertext: encrypted[0]?.ciphertext as string, scope: 's' },
          fields: { name: 'Al Bo' },
          scope: 'new',
        },
      ],
    })
    const [again] = await client.crypto.decrypt({
      collection: 'people',
      reason,
      requestBody: [
        { encrypted_object: { ciphertext: updated[0]?.ciphertext as string, scope: 'new' } },
      ],
    })
    expect(again?.fields).toEqual({ name: 'Al Bo', ssn: '123-45-6789' })
  })

  it('hashes objects like deterministic token IDs, with the PAN template', async () => {
    const hashed = await client.crypto.hashObjects({
      collection: 'people',
      reason,
      requestBody: [
        { object: { fields: { name: 'Jo Doe' } }, scope: 'global:x' },
        {
          object: { fields: { card: '4111111111111111' } },
          fptemplate: 'primary_account_number',
          fpprops: ['card'],
        },
      ],
    })
    expect(hashed[0]?.token_id).toMatch(/^[0-9a-f-]{36}$/)
    expect(hashed[1]?.token_id).toMatch(/^411111\d{6}1111$/)
  })

  it('decrypts blobs and sends encrypt-blob requests (the client reads binary responses as text)', async () => {
    const sealed = await server.request(
      'POST',
      `${DATA}/people/encrypt/blob?${REASON}&prop=photo&scope=default`,
      {
        body: new TextEncoder().encode('hello blob'),
        headers: { 'content-type': 'application/octet-stream' },
      },
    )
    const ciphertext = new Uint8Array(await sealed.arrayBuffer())
    const plain = await client.crypto.decryptBlob({
      collection: 'people',
      reason,
      prop: 'photo',
      requestBody: new Blob([ciphertext]),
    })
    expect(String(plain)).toBe('hello blob')
    const encrypted = await client.crypto.encryptBlob({
      collection: 'people',
      reason,
      prop: 'photo',
      requestBody: new Blob(['bytes']),
    })
    expect(encrypted).toBeTruthy()
  })

  it('rotates keys, reads KMS status, and surfaces crypto errors with the spec body', async () => {
    await client.system.rotateKeys()
    expect(await client.system.getKms()).toEqual({ kms: { status: 'pass', type: 'LOCAL' } })
    await expect(
      client.crypto.decrypt({
        collection: 'people',
        reason,
        requestBody: [{ encrypted_object: { ciphertext: 'AAAA' } }],
      }),
    ).rejects.toMatchObject({
      status: 400,
      body: { error_code: 'ERR1012', context: { field: 'ciphertext' } },
    })
  })
})

describe('published client: rotation in in-memory mode', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(() => server.close())

  it('rejects rotateKeys with 405 ERR1026', async () => {
    const client = new VaultClient({ vaultURL: server.baseUrl, apiKey: ADMIN_KEY })
    await expect(client.system.rotateKeys()).rejects.toMatchObject({
      status: 405,
      body: { error_code: 'ERR1026' },
    })
  })
})
