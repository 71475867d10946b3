// test/api/crypto-api-errors.test.ts: every refusal of the crypto API over HTTP on both engines: a 4xx with the spec's code, never a 500
import { randomUUID } from 'node:crypto'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectError } from '../helpers/collections.ts'
import { addCollection, cryptoCall, encryptAll, storeObject } from '../helpers/crypto.ts'
import { describeEngines } from '../helpers/engines.ts'
import { type Json, startTestServer, type TestServer } from '../helpers/server.ts'

const INVALID = 'The ciphertext is not valid for this collection and scope.'

describeEngines('crypto API errors', (engine) => {
  let server: TestServer
  let ciphertext: string
  let deterministic: string
  beforeAll(async () => {
    server = await startTestServer({
      engine,
      env: {
        SVC_SERVICE_MAX_PAGE_SIZE: '5',
        SVC_SERVICE_DEFAULT_PAGE_SIZE: '5',
        SVC_DB_MAX_TOKEN_TAGS: '2',
      },
    })
    await addCollection(server)
    await addCollection(server, {
      name: 'others',
      type: 'DATA',
      properties: [{ name: 'name', data_type_name: 'NAME' }],
    })
    ;[ciphertext, deterministic] = (await encryptAll(server, 'people', [
      { object: { fields: { name: 'Jo Doe', ssn: '123-45-6789' } }, scope: 's' },
      {
        object: { fields: { name: 'Jo Doe', ssn: '123-45-6789' } },
        scope: 's',
        type: 'deterministic',
      },
    ])) as [string, string]
  })
  afterAll(() => server.close())

  const call = (path: string, body: unknown, query?: string) =>
    cryptoCall(server, path, body, { query })
  /** `scope` null: sent without a scope. */
  const decrypt = (ciphertext: string, scope: string | null = 's', collection = 'people') =>
    call(`${collection}/decrypt/objects`, [
      { encrypted_object: scope === null ? { ciphertext } : { ciphertext, scope } },
    ])
  async function expectInvalid(res: Awaited<ReturnType<typeof decrypt>>) {
    const body = await expectError(res, 400, 'ERR1012')
    expect(body.message).toBe(INVALID)
  }

  describe('ciphertexts that cannot be opened: one answer, whatever the reason', () => {
    it('refuses malformed base64', async () => {
      for (const text of ['not base64!', 'AQI', '', 'AQID=', `${ciphertext.slice(0, -1)}`])
        await expectInvalid(await decrypt(text))
    })

    it('refuses another scope, an absent scope and another collection', async () => {
      for (const text of [ciphertext, deterministic]) {
        await expectInvalid(await decrypt(text, 'other'))
        await expectInvalid(await decrypt(text, null))
        await expectInvalid(await decrypt(text, 's', 'others'))
      }
    })

    it.each([
      ['randomized', 0],
      ['deterministic', 1],
    ] as const)(
      'detects a flipped bit at every byte position of a %s ciphertext',
      async (_type, which) => {
        const bytes = Buffer.from(which === 0 ? ciphertext : deterministic, 'base64')
        for (let i = 0; i < bytes.length; i++) {
          const tampered = Buffer.from(bytes)
          tampered[i] = (tampered[i] as number) ^ 0x04
          await expectInvalid(await decrypt(tampered.toString('base64')))
        }
      },
    )

    it('refuses truncated and extended ciphertexts', async () => {
      const bytes = Buffer.from(ciphertext, 'base64')
      for (const length of [0, 1, 2, 7, 20, bytes.length - 1])
        await expectInvalid(await decrypt(bytes.subarray(0, length).toString('base64')))
      await expectInvalid(
        await decrypt(Buffer.concat([bytes, Buffer.from([0])]).toString('base64')),
      )
    })

    it('refuses them as encrypt sources and update sources too', async () => {
      const bad = `${ciphertext.slice(0, 10)}AAAA${ciphertext.slice(14)}`
      await expectInvalid(
        await call('people/encrypt/objects', [
          { object: { encrypted: { ciphertext: bad, scope: 's' } } },
        ]),
      )
      await expectInvalid(
        await cryptoCall(
          server,
          'people/encrypt/objects',
          [{ encrypted_object: { ciphertext, scope: 'x' }, fields: {} }],
          { method: 'PATCH' },
        ),
      )
      await expectInvalid(
        await call('people/hash/objects', [{ object: { encrypted: { ciphertext } } }]),
      )
    })

    it('fails the whole call when one item of a bulk is invalid', async () => {
      const res = await call('people/decrypt/objects', [
        { encrypted_object: { ciphertext, scope: 's' } },
        { encrypted_object: { ciphertext, scope: 'x' } },
      ])
      await expectInvalid(res)
    })
  })

  describe('request checks', () => {
    const encrypt = (items: unknown, query?: string) => call('people/encrypt/objects', items, query)

    it('answers 404 ERR1004 for an unknown collection', async () => {
      await expectError(
        await call('nobody/encrypt/objects', [{ object: { fields: {} } }]),
        404,
        'ERR1004',
      )
      await expectError(await decrypt(ciphertext, 's', 'nobody'), 404, 'ERR1004')
    })

    it('answers 404 ERR3004 for unknown properties in fields, props and decrypt props', async () => {
      await expectError(await encrypt([{ object: { fields: { nope: 1 } } }]), 404, 'ERR3004')
      await expectError(
        await encrypt([{ object: { fields: { name: 'Jo Doe' } }, props: ['nope'] }]),
        404,
        'ERR3004',
      )
      const ask = (props: string[]) =>
        call('people/decrypt/objects', [{ encrypted_object: { ciphertext, scope: 's' }, props }])
      await expectError(await ask(['nope']), 404, 'ERR3004')
      await expectError(await ask(['age']), 404, 'ERR3004')
      await expectError(await ask(['ssn.nope']), 404, 'ERR3004')
      await expectError(await ask(['name.age']), 404, 'ERR3004')
    })

    it('answers 400 ERR3002 for an invalid value and 400 ERR1012 for a read-only built-in', async () => {
      const body = await expectError(
        await encrypt([{ object: { fields: { ssn: '12' } } }]),
        400,
        'ERR3002',
      )
      expect(body.context).toEqual({ property: 'ssn' })
      expect(JSON.stringify(body)).not.toContain('"12"')
      await expectError(await encrypt([{ object: { fields: { age: 'old' } } }]), 400, 'ERR3002')
      await expectError(
        await encrypt([{ object: { fields: { _creation_time: '2024-01-01T00:00:00Z' } } }]),
        400,
        'ERR1012',
      )
    })

    it('answers 404 ERR3005 for unknown or archived stored objects', async () => {
      const id = randomUUID()
      const body = await expectError(await encrypt([{ object: { id } }]), 404, 'ERR3005')
      expect(body.context).toEqual({ ids: id })
      const archived = await storeObject(server.app, 'people', { name: 'Jo Doe' }, { expiresAt: 1 })
      await expectError(await encrypt([{ object: { id: archived } }]), 404, 'ERR3005')
      await expectError(
        await call('people/hash/objects', [{ object: { id: 'not-a-uuid' } }]),
        404,
        'ERR3005',
      )
    })

    it('answers 400 ERR1012 for objects without exactly one source and bad request indexes', async () => {
      await expectError(await encrypt([{ object: {} }]), 400, 'ERR1012')
      await expectError(
        await encrypt([{ object: { fields: {}, id: randomUUID() } }]),
        400,
        'ERR1012',
      )
      await expectError(await encrypt([{ object: { request_index: 0 } }]), 400, 'ERR1012')
      await expectError(
        await encrypt([{ object: { fields: {} } }, { object: { request_index: 2 } }]),
        400,
        'ERR1012',
      )
      await expectError(await encrypt([{ object: { request_index: -1 } }]), 400, 'ERR1012')
    })

    it('refuses tags with deterministic and more tags than SVC_DB_MAX_TOKEN_TAGS', async () => {
      await expectError(
        await encrypt([{ object: { fields: {} }, type: 'deterministic', tags: ['a'] }]),
        400,
        'ERR1012',
      )
      await expectError(
        await encrypt([{ object: { fields: {} }, tags: ['a', 'b', 'c'] }]),
        400,
        'ERR1012',
      )
      expect((await encrypt([{ object: { fields: {} }, tags: ['a', 'b', 'a'] }])).status).toBe(200)
    })

    it('refuses more items than SVC_SERVICE_MAX_PAGE_SIZE and bodies of the wrong shape', async () => {
      await expectError(
        await encrypt(Array.from({ length: 6 }, () => ({ object: { fields: {} } }))),
        400,
        'ERR1012',
      )
      await expectError(await encrypt({ object: { fields: {} } }), 400, 'ERR1012')
      await expectError(await encrypt([{ object: { fields: {} }, type: 'other' }]), 400, 'ERR1012')
      await expectError(await encrypt([{ object: { fields: 'x' } }]), 400, 'ERR1012')
      await expectError(
        await call('people/decrypt/objects', [{ encrypted_object: { ciphertext: 5 } }]),
        400,
        'ERR1012',
      )
      await expectError(await call('people/decrypt/objects', [], 'options=nope'), 400, 'ERR1012')
    })

    it('requires the access reason', async () => {
      const res = await cryptoCall(server, 'people/encrypt/objects', [], { noReason: true })
      await expectError(res, 400, 'ERR1001')
    })
  })

  describe('hash errors', () => {
    const hash = (items: unknown) => call('people/hash/objects', items)

    it('refuses items with nothing to hash and bad templates', async () => {
      await expectError(await hash([{ object: { fields: {} } }]), 400, 'ERR1012')
      await expectError(
        await hash([{ object: { fields: { name: 'Jo Doe' } }, fpprops: ['name'] }]),
        400,
        'ERR1012',
      )
      const fields = { name: 'Jo Doe', card: '4111111111111111' }
      await expectError(
        await hash([
          { object: { fields }, fptemplate: 'primary_account_number', fpprops: ['name'] },
        ]),
        400,
        'ERR1012',
      )
      await expectError(
        await hash([{ object: { fields }, fptemplate: 'primary_account_number' }]),
        400,
        'ERR1012',
      )
      await expectError(
        await hash([{ object: { fields }, fptemplate: 'other.template', fpprops: ['card'] }]),
        400,
        'ERR1012',
      )
      await expectError(
        await hash([
          {
            object: { fields: { name: 'Jo Doe' } },
            fptemplate: 'primary_account_number',
            fpprops: ['card'],
          },
        ]),
        400,
        'ERR1012',
      )
      await expectError(
        await hash([
          { object: { fields }, fptemplate: 'primary_account_number', fpprops: ['nope'] },
        ]),
        404,
        'ERR3004',
      )
    })
  })

  it('answers every random body with a status below 500 and the spec error body', async () => {
    const paths = ['people/encrypt/objects', 'people/decrypt/objects', 'people/hash/objects']
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...paths),
        fc.jsonValue(),
        fc.constantFrom('PATCH', 'POST'),
        async (path, body, method) => {
          const res = await cryptoCall(server, path, body, {
            method: path.includes('encrypt') ? method : 'POST',
          })
          expect(res.status).toBeLessThan(500)
          if (res.status >= 400) {
            const json: Json = await res.json()
            expect(json).toEqual({
              error_code: expect.stringMatching(/^ERR\d{4}$/),
              message: expect.stringMatching(/\.$/),
              context: expect.any(Object),
            })
          }
        },
      ),
      { numRuns: 150 },
    )
  })

  it('answers random items of the right shape with a status below 500', async () => {
    const object = fc.oneof(
      fc.record({
        fields: fc.dictionary(
          fc.constantFrom('name', 'ssn', 'age', 'notes', 'photo', 'card', 'x'),
          fc.jsonValue(),
        ),
      }),
      fc.record({
        encrypted: fc.record({
          ciphertext: fc.oneof(fc.base64String(), fc.constant(ciphertext)),
          scope: fc.constantFrom('s', ''),
        }),
      }),
      fc.record({ request_index: fc.nat(3) }),
      fc.record({ id: fc.oneof(fc.uuid(), fc.string()) }),
    )
    const item = fc.record(
      {
        object,
        props: fc.option(fc.array(fc.constantFrom('name', 'ssn', 'x', 'id', '_tenant_id')), {
          nil: undefined,
        }),
        type: fc.constantFrom('randomized', 'deterministic'),
        scope: fc.string(),
      },
      { requiredKeys: ['object'] },
    )
    await fc.assert(
      fc.asyncProperty(
        fc.array(item, { maxLength: 4 }),
        fc.constantFrom('encrypt', 'hash'),
        async (items, op) => {
          const res = await call(`people/${op}/objects`, items)
          expect(res.status).toBeLessThan(500)
        },
      ),
      { numRuns: 150 },
    )
  })
})
