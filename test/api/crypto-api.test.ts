// test/api/crypto-api.test.ts: encrypt, decrypt and update encrypted over HTTP on both engines: sources, props, scope, types, expiry, metadata
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MICROS_PER_SECOND } from '../../src/core/time.ts'
import { expectError } from '../helpers/collections.ts'
import { addCollection, cryptoCall, encryptAll, storeObject } from '../helpers/crypto.ts'
import { describeEngines } from '../helpers/engines.ts'
import { API, type Json, startTestServer, type TestServer } from '../helpers/server.ts'

const START = Date.UTC(2030, 0, 1) * 1000
const JO = { name: 'Jo Doe', ssn: '123-45-6789', email: 'jo@example.com', age: 42 }

describeEngines('crypto API', (engine) => {
  let server: TestServer
  let now = START
  beforeAll(async () => {
    server = await startTestServer({ engine, clock: () => now })
    await addCollection(server)
    await addCollection(server, {
      name: 'others',
      type: 'DATA',
      properties: [{ name: 'name', data_type_name: 'NAME' }],
    })
  })
  afterAll(() => server.close())

  const decrypt = (items: unknown[], query?: string) =>
    cryptoCall(server, 'people/decrypt/objects', items, { query })
  const decrypted = async (items: unknown[], query?: string): Promise<Json[]> => {
    const res = await decrypt(items, query)
    expect(res.status, await res.clone().text()).toBe(200)
    return res.json()
  }
  const one = (ciphertext: string, extra: Json = {}) => ({
    encrypted_object: { ciphertext, ...extra.object },
    ...extra.item,
  })

  describe('encrypt and decrypt', () => {
    it('round-trips fields, normalized, without the values appearing in the ciphertext', async () => {
      const [ciphertext] = await encryptAll(server, 'people', [
        { object: { fields: { ...JO, ssn: '123456789' } } },
      ])
      expect(ciphertext).toMatch(/^[A-Za-z0-9+/]+=*$/)
      expect(Buffer.from(ciphertext as string, 'base64').toString('latin1')).not.toContain('Jo Doe')
      expect(await decrypted([one(ciphertext as string)])).toEqual([
        { fields: { ...JO, ssn: '123-45-6789' } },
      ])
    })

    it('gives a new ciphertext each time for randomized and the same one for deterministic', async () => {
      const item = { object: { fields: { name: 'Jo Doe' } } }
      const [a, b] = await encryptAll(server, 'people', [item, { ...item, type: 'randomized' }])
      expect(a).not.toBe(b)
      const [c, d] = await encryptAll(server, 'people', [
        { ...item, type: 'deterministic' },
        { object: { fields: { name: 'Jo Doe' } }, type: 'deterministic' },
      ])
      expect(c).toBe(d)
      const [e] = await encryptAll(server, 'people', [
        { ...item, type: 'deterministic', scope: 's' },
      ])
      const [f] = await encryptAll(server, 'people', [{ ...item, type: 'deterministic' }])
      expect(e).not.toBe(c)
      expect(f).toBe(c)
      expect(await decrypted([one(c as string)])).toEqual([{ fields: { name: 'Jo Doe' } }])
    })

    it('binds the scope: decrypt needs the same one, absent meaning ""', async () => {
      const [ciphertext] = await encryptAll(server, 'people', [
        { object: { fields: JO }, scope: 'pii' },
      ])
      expect(
        await decrypted([one(ciphertext as string, { object: { scope: 'pii' } })]),
      ).toHaveLength(1)
      await expectError(await decrypt([one(ciphertext as string)]), 400, 'ERR1012')
    })

    it('keeps only props, leaving out listed properties that are absent or null', async () => {
      const [ciphertext] = await encryptAll(server, 'people', [
        { object: { fields: { ...JO, card: null } }, props: ['name', 'age', 'card', 'photo'] },
      ])
      expect(await decrypted([one(ciphertext as string)])).toEqual([
        { fields: { name: 'Jo Doe', age: 42 } },
      ])
    })

    it('encrypts a stored object: every property and built-in but the id, or only props', async () => {
      const id = await storeObject(server.app, 'people', JO)
      const [all, some] = await encryptAll(server, 'people', [
        { object: { id } },
        { object: { id: id.toUpperCase() }, props: ['ssn', '_creation_time', 'id'] },
      ])
      const [full, part] = await decrypted([one(all as string), one(some as string)])
      expect(full.fields).toEqual({
        ...JO,
        _creation_time: expect.any(String),
        _modification_time: expect.any(String),
      })
      expect(part.fields).toEqual({ ssn: JO.ssn, _creation_time: full.fields._creation_time })
    })

    it('re-encrypts another ciphertext with fewer props, another type and scope', async () => {
      const [source] = await encryptAll(server, 'people', [{ object: { fields: JO }, scope: 'a' }])
      const [copy] = await encryptAll(server, 'people', [
        {
          object: { encrypted: { ciphertext: source, scope: 'a' } },
          props: ['name'],
          type: 'deterministic',
          scope: 'b',
        },
      ])
      const [result] = await decrypted(
        [one(copy as string, { object: { scope: 'b' } })],
        'options=include_metadata',
      )
      expect(result).toEqual({
        fields: { name: 'Jo Doe' },
        metadata: { type: 'deterministic', scope: 'b', expiration: null, tags: [] },
      })
    })

    it('reuses the object of an earlier item through request_index', async () => {
      const [a, b] = await encryptAll(server, 'people', [
        { object: { fields: JO } },
        { object: { request_index: 0 }, props: ['ssn'], scope: 's' },
      ])
      const [first] = await decrypted([one(a as string)])
      const [second] = await decrypted([one(b as string, { object: { scope: 's' } })])
      expect(first.fields).toEqual(JO)
      expect(second.fields).toEqual({ ssn: JO.ssn })
    })

    it('answers items in request order and an empty array for no items', async () => {
      const names = ['Al Bo', 'Cy Di', 'Ed Fu']
      const ciphertexts = await encryptAll(
        server,
        'people',
        names.map((name) => ({ object: { fields: { name } } })),
      )
      const results = await decrypted(ciphertexts.map((c) => one(c)))
      expect(results.map((r) => r.fields.name)).toEqual(names)
      expect(await encryptAll(server, 'people', [])).toEqual([])
    })
  })

  describe('props with transformers and metadata', () => {
    it('returns requested props keyed as spelled, transformed by built-in transformers', async () => {
      const [ciphertext] = await encryptAll(server, 'people', [
        { object: { fields: { ...JO, card: '4111 1111 1111 1111' } } },
      ])
      const [result] = await decrypted([
        one(ciphertext as string, {
          item: { props: ['name.mask', 'ssn.mask', 'ssn', 'card.mask', 'ssn.token'] },
        }),
      ])
      expect(result).toEqual({
        fields: {
          'name.mask': 'J* D**',
          'ssn.mask': '***-**-6789',
          ssn: '123-45-6789',
          'card.mask': '************1111',
          'ssn.token': null,
        },
      })
    })

    it('shows metadata with include_metadata: type, scope, tags and expiration', async () => {
      const [ciphertext] = await encryptAll(
        server,
        'people',
        [{ object: { fields: { name: 'Jo Doe' } }, scope: 's', tags: ['t1', 't2', 't1'] }],
        'expiration_secs=3600',
      )
      const [result] = await decrypted(
        [one(ciphertext as string, { object: { scope: 's' } })],
        'options=include_metadata',
      )
      expect(result.metadata).toEqual({
        type: 'randomized',
        scope: 's',
        expiration: new Date(START / 1000 + 3_600_000).toISOString().replace('.000Z', 'Z'),
        tags: ['t1', 't2'],
      })
    })
  })

  describe('expiry', () => {
    it('decrypts an expired ciphertext only with options=archived, and an active one only without', async () => {
      const [ciphertext] = await encryptAll(
        server,
        'people',
        [{ object: { fields: { name: 'Jo Doe' } } }],
        'expiration_secs=60',
      )
      const item = one(ciphertext as string)
      expect(await decrypted([item])).toHaveLength(1)
      await expectError(await decrypt([item], 'options=archived'), 400, 'ERR3233')
      now = START + 61 * MICROS_PER_SECOND
      try {
        await expectError(await decrypt([item]), 400, 'ERR3233')
        expect((await decrypted([item], 'options=archived'))[0].fields).toEqual({ name: 'Jo Doe' })
        const res = await cryptoCall(server, 'people/encrypt/objects', [
          { object: { encrypted: { ciphertext } } },
        ])
        await expectError(res, 400, 'ERR3233')
      } finally {
        now = START
      }
    })

    it('never expires with an empty expiration_secs, and refuses a malformed one', async () => {
      const [ciphertext] = await encryptAll(
        server,
        'people',
        [{ object: { fields: { name: 'Jo Doe' } } }],
        'expiration_secs=',
      )
      const [result] = await decrypted([one(ciphertext as string)], 'options=include_metadata')
      expect(result.metadata.expiration).toBeNull()
      for (const value of ['abc', '-1', '0', '1.5']) {
        const res = await cryptoCall(
          server,
          'people/encrypt/objects',
          [{ object: { fields: { name: 'Jo Doe' } } }],
          { query: `expiration_secs=${value}` },
        )
        await expectError(res, 400, 'ERR1012')
      }
    })
  })

  describe('update encrypted', () => {
    const update = (items: unknown[], query?: string) =>
      cryptoCall(server, 'people/encrypt/objects', items, { method: 'PATCH', query })

    it('overlays fields, keeps props, keeps the type, scope and tags by default', async () => {
      const [source] = await encryptAll(server, 'people', [
        { object: { fields: JO }, scope: 's', tags: ['t'] },
      ])
      const res = await update([
        {
          encrypted_object: { ciphertext: source, scope: 's' },
          fields: { name: 'Al Bo', age: null },
        },
      ])
      expect(res.status).toBe(200)
      const [{ ciphertext }] = await res.json()
      const [result] = await decrypted(
        [one(ciphertext, { object: { scope: 's' } })],
        'options=include_metadata',
      )
      expect(result).toEqual({
        fields: { name: 'Al Bo', ssn: JO.ssn, email: JO.email },
        metadata: { type: 'randomized', scope: 's', expiration: null, tags: ['t'] },
      })
    })

    it('changes type, scope and props when asked, dropping tags for deterministic', async () => {
      const [source] = await encryptAll(server, 'people', [{ object: { fields: JO }, tags: ['t'] }])
      const body = [
        {
          encrypted_object: { ciphertext: source },
          fields: {},
          props: ['name', 'ssn'],
          type: 'deterministic',
          scope: 'new',
        },
      ]
      const [first] = await (await update(body)).json()
      const [second] = await (await update(body)).json()
      expect(first.ciphertext).toBe(second.ciphertext)
      const [result] = await decrypted(
        [one(first.ciphertext, { object: { scope: 'new' } })],
        'options=include_metadata',
      )
      expect(result).toEqual({
        fields: { name: JO.name, ssn: JO.ssn },
        metadata: { type: 'deterministic', scope: 'new', expiration: null, tags: [] },
      })
    })

    it('updates an expired source only with options=archived, validating the new fields', async () => {
      const [source] = await encryptAll(
        server,
        'people',
        [{ object: { fields: JO } }],
        'expiration_secs=10',
      )
      now = START + 11 * MICROS_PER_SECOND
      try {
        const item = { encrypted_object: { ciphertext: source }, fields: {} }
        await expectError(await update([item]), 400, 'ERR3233')
        expect((await update([item], 'options=archived')).status).toBe(200)
        await expectError(
          await update([{ ...item, fields: { ssn: 'nope' } }], 'options=archived'),
          400,
          'ERR3002',
        )
      } finally {
        now = START
      }
    })
  })

  describe('audit', () => {
    it('records the collection, properties and object ids, never values', async () => {
      const id = await storeObject(server.app, 'people', JO)
      await encryptAll(
        server,
        'people',
        [{ object: { id }, props: ['ssn'] }],
        'custom_audit=crypto-audit',
      )
      const events = await server.app.store.audit.list({ limit: 1000 })
      const event = events
        .map((e) => JSON.parse(e.record))
        .find((e) => e.custom_audit === 'crypto-audit')
      expect(event).toMatchObject({
        operation: 'encrypt',
        collection: 'people',
        properties: ['ssn'],
        object_ids: [id],
        status: 200,
      })
      expect(JSON.stringify(events)).not.toContain(JO.ssn)
    })
  })

  it('serves the other collection with its own binding', async () => {
    const [ciphertext] = await encryptAll(server, 'others', [
      { object: { fields: { name: 'Jo Doe' } } },
    ])
    await expectError(await decrypt([one(ciphertext as string)]), 400, 'ERR1012')
    const res = await cryptoCall(server, 'others/decrypt/objects', [one(ciphertext as string)])
    expect(res.status).toBe(200)
  })

  it('is served under the data family path', async () => {
    const res = await server.request(
      'POST',
      `${API}/data/collections/people/decrypt/objects?reason=AppFunctionality`,
      { body: [] },
    )
    expect(res.status).toBe(200)
  })
})

describe('crypto API defaults', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ env: { SVC_EXPIRATION_TOKENS: '120' }, clock: () => START })
    await addCollection(server)
  })
  afterAll(() => server.close())

  it('gives ciphertexts the SVC_EXPIRATION_TOKENS lifetime unless expiration_secs says otherwise', async () => {
    const [defaulted, never] = [
      ...(await encryptAll(server, 'people', [{ object: { fields: { name: 'Jo Doe' } } }])),
      ...(await encryptAll(
        server,
        'people',
        [{ object: { fields: { name: 'Jo Doe' } } }],
        'expiration_secs=',
      )),
    ]
    const res = await cryptoCall(
      server,
      'people/decrypt/objects',
      [
        { encrypted_object: { ciphertext: defaulted } },
        { encrypted_object: { ciphertext: never } },
      ],
      { query: 'options=include_metadata' },
    )
    const [a, b] = await res.json()
    expect(a.metadata.expiration).toBe('2030-01-01T00:02:00Z')
    expect(b.metadata.expiration).toBeNull()
  })
})
