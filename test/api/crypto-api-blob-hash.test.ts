// test/api/crypto-api-blob-hash.test.ts: encrypt/decrypt blob and hash objects over HTTP on both engines
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { luhnSum } from '../../src/core/crypto/deterministic-id.ts'
import { expectError } from '../helpers/collections.ts'
import {
  addCollection,
  cryptoCall,
  DATA,
  encryptAll,
  REASON,
  storeObject,
} from '../helpers/crypto.ts'
import { describeEngines } from '../helpers/engines.ts'
import { type Json, startTestServer, type TestServer } from '../helpers/server.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const OCTETS = { 'content-type': 'application/octet-stream' }

describeEngines('crypto API: blobs and hashes', (engine) => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ engine, env: { SVC_DB_MAX_BLOB_LENGTH: '4096' } })
    await addCollection(server)
    await addCollection(server, {
      name: 'files',
      type: 'DATA',
      properties: [
        { name: 'photo', data_type_name: 'BLOB', is_nullable: true },
        { name: 'doc', data_type_name: 'BLOB', is_nullable: true },
        { name: 'name', data_type_name: 'NAME', is_nullable: true },
      ],
    })
  })
  afterAll(() => server.close())

  const blob = (
    op: 'encrypt' | 'decrypt',
    query: string,
    body: Uint8Array | string,
    headers = OCTETS,
  ) => server.request('POST', `${DATA}/files/${op}/blob?${REASON}&${query}`, { body, headers })
  async function bytesOf(res: Response): Promise<Buffer> {
    expect(res.status, res.status === 200 ? '' : await res.clone().text()).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/octet-stream')
    return Buffer.from(await res.arrayBuffer())
  }

  describe('blobs', () => {
    it('round-trips raw bytes, bound to property and scope', async () => {
      const data = randomBytes(2000)
      const sealed = await bytesOf(await blob('encrypt', 'prop=photo&scope=s', data))
      expect(sealed.includes(data.subarray(0, 64))).toBe(false)
      expect(
        (await bytesOf(await blob('decrypt', 'prop=photo&scope=s', sealed))).equals(data),
      ).toBe(true)
      await expectError(await blob('decrypt', 'prop=photo', sealed), 400, 'ERR1012')
      await expectError(await blob('decrypt', 'prop=doc&scope=s', sealed), 400, 'ERR1012')
    })

    it('is the binary form of the same envelope: JSON decrypt sees the BLOB as base64, and back', async () => {
      const data = randomBytes(100)
      const sealed = await bytesOf(await blob('encrypt', 'prop=photo', data))
      const res = await cryptoCall(server, 'files/decrypt/objects', [
        { encrypted_object: { ciphertext: sealed.toString('base64') } },
      ])
      expect(await res.json()).toEqual([{ fields: { photo: data.toString('base64') } }])
      const [ciphertext] = await encryptAll(server, 'files', [
        { object: { fields: { photo: data.toString('base64'), name: 'Jo Doe' } } },
      ])
      const plain = await bytesOf(
        await blob('decrypt', 'prop=photo', Buffer.from(ciphertext as string, 'base64')),
      )
      expect(plain.equals(data)).toBe(true)
    })

    it('takes type, tags (comma-separated), expiration and any content type', async () => {
      const data = Buffer.from('plain text body')
      const text = { 'content-type': 'text/plain' }
      const a = await bytesOf(await blob('encrypt', 'prop=photo&type=deterministic', data, text))
      const b = await bytesOf(await blob('encrypt', 'prop=photo&type=deterministic', data))
      expect(a.equals(b)).toBe(true)
      const tagged = await bytesOf(
        await blob('encrypt', 'prop=photo&tags=a,b&expiration_secs=3600', data),
      )
      const res = await cryptoCall(
        server,
        'files/decrypt/objects',
        [{ encrypted_object: { ciphertext: tagged.toString('base64') } }],
        { query: 'options=include_metadata' },
      )
      const [{ metadata }] = await res.json()
      expect(metadata).toMatchObject({
        type: 'randomized',
        tags: ['a', 'b'],
        expiration: expect.any(String),
      })
      expect((await bytesOf(await blob('decrypt', 'prop=photo', a))).equals(data)).toBe(true)
    })

    it('encrypts an empty body', async () => {
      const sealed = await bytesOf(await blob('encrypt', 'prop=photo', new Uint8Array(0)))
      expect((await bytesOf(await blob('decrypt', 'prop=photo', sealed))).length).toBe(0)
    })

    it('refuses blobs over SVC_DB_MAX_BLOB_LENGTH, non-BLOB and unknown properties, tags with deterministic', async () => {
      await expectError(await blob('encrypt', 'prop=photo', randomBytes(4097)), 413, 'ERR1012')
      expect((await blob('encrypt', 'prop=photo', randomBytes(4096))).status).toBe(200)
      await expectError(await blob('encrypt', 'prop=name', Buffer.from('x')), 400, 'ERR1012')
      await expectError(await blob('encrypt', 'prop=nope', Buffer.from('x')), 404, 'ERR3004')
      await expectError(await blob('encrypt', 'type=randomized', Buffer.from('x')), 400, 'ERR1012')
      await expectError(
        await blob('encrypt', 'prop=photo&type=deterministic&tags=a', Buffer.from('x')),
        400,
        'ERR1012',
      )
      await expectError(await blob('decrypt', 'prop=name', Buffer.from('x')), 400, 'ERR1012')
    })

    it('refuses tampered, truncated and foreign blob ciphertexts, and applies the archived rule', async () => {
      const sealed = await bytesOf(
        await blob('encrypt', 'prop=photo&expiration_secs=3600', randomBytes(50)),
      )
      for (const i of [0, 1, 2, 6, 30, sealed.length - 1]) {
        const tampered = Buffer.from(sealed)
        tampered[i] = (tampered[i] as number) ^ 0x10
        await expectError(await blob('decrypt', 'prop=photo', tampered), 400, 'ERR1012')
      }
      await expectError(await blob('decrypt', 'prop=photo', sealed.subarray(0, 10)), 400, 'ERR1012')
      await expectError(await blob('decrypt', 'prop=photo', Buffer.alloc(0)), 400, 'ERR1012')
      await expectError(
        await blob('decrypt', 'prop=photo&options=archived', sealed),
        400,
        'ERR3233',
      )
      const [other] = await encryptAll(server, 'people', [
        { object: { fields: { photo: 'AAAA', name: 'Jo Doe' } } },
      ])
      await expectError(
        await blob('decrypt', 'prop=photo', Buffer.from(other as string, 'base64')),
        400,
        'ERR1012',
      )
    })
  })

  describe('hash objects', () => {
    const hash = async (items: unknown[]): Promise<string[]> => {
      const res = await cryptoCall(server, 'people/hash/objects', items)
      expect(res.status, await res.clone().text()).toBe(200)
      return (await res.json()).map((item: Json) => item.token_id)
    }
    const fields = { name: 'Jo Doe', ssn: '123-45-6789' }

    it('gives equal lower-case UUIDs for equal normalized values, whatever their spelling or order', async () => {
      const [a, b, c] = await hash([
        { object: { fields } },
        { object: { fields: { ssn: '123456789', name: 'Jo Doe' } } },
        { object: { fields: { ...fields, age: 1 } }, props: ['ssn', 'name'] },
      ])
      expect(a).toMatch(UUID)
      expect(b).toBe(a)
      expect(c).toBe(a)
    })

    it('depends on scope and collection, except for global: scopes', async () => {
      const [plain, scoped, global] = await hash([
        { object: { fields: { name: 'Jo Doe' } } },
        { object: { fields: { name: 'Jo Doe' } }, scope: 'x' },
        { object: { fields: { name: 'Jo Doe' } }, scope: 'global:x' },
      ])
      expect(new Set([plain, scoped, global]).size).toBe(3)
      const res = await cryptoCall(server, 'files/hash/objects', [
        { object: { fields: { name: 'Jo Doe' } } },
        { object: { fields: { name: 'Jo Doe' } }, scope: 'global:x' },
      ])
      const [other, otherGlobal] = (await res.json()).map((item: Json) => item.token_id)
      expect(other).not.toBe(plain)
      expect(otherGlobal).toBe(global)
    })

    it('hashes a stored object like the same fields, and a ciphertext like its fields', async () => {
      const values = { ...fields, email: 'jo@example.com', age: 30 }
      const id = await storeObject(server.app, 'people', values)
      const [ciphertext] = await encryptAll(server, 'people', [
        { object: { fields: values }, scope: 's' },
      ])
      const [stored, given, encrypted, indexed] = await hash([
        { object: { id } },
        { object: { fields: values } },
        { object: { encrypted: { ciphertext, scope: 's' } } },
        { object: { request_index: 0 }, props: ['ssn'] },
      ])
      expect(stored).toBe(given)
      expect(encrypted).toBe(given)
      expect(indexed).toBe((await hash([{ object: { fields: { ssn: fields.ssn } } }]))[0])
    })

    it('formats the primary_account_number template as a valid PAN keeping the card ends', async () => {
      const card = '4111 1111 1111 1111'
      const item = {
        object: { fields: { card, name: 'Jo Doe' } },
        fptemplate: 'primary_account_number',
        fpprops: ['card'],
      }
      const [pan, again, scoped] = await hash([item, item, { ...item, scope: 's' }])
      expect(pan).toMatch(/^411111\d{6}1111$/)
      expect(pan).not.toBe('4111111111111111')
      expect(luhnSum(pan as string) % 10).toBe(0)
      expect(again).toBe(pan)
      expect(scoped).not.toBe(pan)
    })
  })
})
