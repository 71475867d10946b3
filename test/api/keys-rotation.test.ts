// test/api/keys-rotation.test.ts: key rotation over HTTP: refusals, new versions, re-encryption under load, resume after a restart
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sealObjects } from '../../src/core/values/sealing.ts'
import { expectError } from '../helpers/collections.ts'
import { addCollection, cryptoCall, encryptAll, storeObject } from '../helpers/crypto.ts'
import { describeEngines } from '../helpers/engines.ts'
import { apiKeyOf, rolesToml, setIam } from '../helpers/iam.ts'
import { findTestPostgres } from '../helpers/postgres.ts'
import {
  API,
  type Json,
  sharedDatabase,
  startTestServer,
  type TestServer,
} from '../helpers/server.ts'

const ROTATE = `${API}/system/admin/keys/rotate`
const STATUS = `${API}/system/admin/keys/rotation`
const pgUrl = await findTestPostgres()

/** Fast settling for tests: every data call checks the key generation, calls time out after 3 s. */
const NODE_ENV = { SVC_SERVICE_CACHE_REFRESH_INTERVAL: '0', SVC_SERVICE_TIMEOUT_SECONDS: '3' }

async function statusOf(server: TestServer): Promise<Json> {
  const res = await server.request('GET', STATUS)
  expect(res.status).toBe(200)
  return res.json()
}

async function until(
  server: TestServer,
  condition: (status: Json) => boolean,
  seconds = 30,
): Promise<Json> {
  for (let i = 0; i < seconds * 20; i++) {
    const status = await statusOf(server)
    if (condition(status)) return status
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error('re-encryption did not reach the expected state in time')
}

/** The key versions of every sealed value of every object of a collection. */
async function sealedVersions(server: TestServer, collection: string): Promise<Set<number>> {
  const { store, services } = server.app
  const rows = await store.objects.search(
    { collection, state: 'all', now: services.clock() },
    [],
    undefined,
    100_000,
  )
  return new Set(
    rows.flatMap((row) =>
      Object.values(JSON.parse(row.sealed) as Record<string, string>).map((v) =>
        services.envelope.keyVersionOf(Buffer.from(v, 'base64')),
      ),
    ),
  ) as Set<number>
}

const versionOfCiphertext = (ciphertext: string) =>
  Buffer.from(ciphertext, 'base64').readUInt32BE(3)

describe('key rotation in in-memory mode', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(() => server.close())

  it('refuses rotation with 405 ERR1026 and reports idle', async () => {
    await expectError(await server.request('POST', ROTATE), 405, 'ERR1026')
    expect(await statusOf(server)).toMatchObject({
      status: 'idle',
      key_versions: { property: 1, token: 1, ciphertext: 1 },
      pass: 0,
    })
  })
})

describeEngines('key rotation', (engine) => {
  let server: TestServer
  let database: Awaited<ReturnType<typeof sharedDatabase>>
  beforeAll(async () => {
    database = await sharedDatabase(engine)
    server = await startTestServer({ env: { ...database.env, ...NODE_ENV } })
    await addCollection(server)
  })
  afterAll(async () => {
    await server.close()
    await database.drop()
  })

  it('needs CapKMSWriter to rotate and CapKMSReader to read progress', async () => {
    await setIam(
      server,
      `${rolesToml({
        Reader: { capabilities: ['CapKMSReader'] },
        Nobody: { capabilities: ['CapDataReader'] },
      })}\n[policies]\n`,
    )
    const reader = await apiKeyOf(server, 'Reader')
    const nobody = await apiKeyOf(server, 'Nobody')
    await expectError(await server.request('POST', ROTATE, { token: reader }), 403, 'ERR1007')
    await expectError(await server.request('GET', STATUS, { token: nobody }), 403, 'ERR1007')
    expect((await server.request('GET', STATUS, { token: reader })).status).toBe(200)
  })

  it('adds a key version for new writes while old ciphertexts still decrypt', async () => {
    const [before] = await encryptAll(server, 'people', [
      { object: { fields: { name: 'Jo Doe' } } },
    ])
    const versions = (await statusOf(server)).key_versions
    const res = await server.request('POST', ROTATE)
    expect(res.status).toBe(200)
    expect(await res.text()).toBe('')
    const status = await statusOf(server)
    expect(status.key_versions).toEqual({
      property: versions.property + 1,
      token: versions.token + 1,
      ciphertext: versions.ciphertext + 1,
    })
    const [after] = await encryptAll(server, 'people', [{ object: { fields: { name: 'Jo Doe' } } }])
    expect(versionOfCiphertext(after as string)).toBe(versionOfCiphertext(before as string) + 1)
    const decrypted = await cryptoCall(server, 'people/decrypt/objects', [
      { encrypted_object: { ciphertext: before } },
      { encrypted_object: { ciphertext: after } },
    ])
    expect(decrypted.status).toBe(200)
    await until(server, (s) => s.status === 'done')
  })

  it('refuses a rotation while the previous one is re-encrypting, with 409 ERR9005', async () => {
    await until(server, (s) => s.status === 'done')
    const versions = (await statusOf(server)).key_versions
    const [first, second] = await Promise.all([
      server.request('POST', ROTATE),
      server.request('POST', ROTATE),
    ])
    expect([first.status, second.status].sort()).toEqual([200, 409])
    const refused = first.status === 409 ? first : second
    const body = await expectError(refused, 409, 'ERR9005')
    expect(body.message).toMatch(/rotation is still running/)
    // Again right after: the re-encryption to the new versions has not finished settling.
    const again = await expectError(await server.request('POST', ROTATE), 409, 'ERR9005')
    expect(again.message).toMatch(/reports status done/)
    expect((await statusOf(server)).key_versions).toEqual({
      property: versions.property + 1,
      token: versions.token + 1,
      ciphertext: versions.ciphertext + 1,
    })
    await until(server, (s) => s.status === 'done')
    expect((await server.request('POST', ROTATE)).status).toBe(200)
    await until(server, (s) => s.status === 'done')
  })

  it('re-encrypts every object while writes and reads go on, with zero failed requests', async () => {
    const { app } = server
    const ids: string[] = []
    for (let i = 0; i < 150; i++)
      ids.push(await storeObject(app, 'people', { name: 'Jo Doe', ssn: '123-45-6789', age: i }))
    const oldVersion = (await statusOf(server)).key_versions.property
    const failures: string[] = []
    let isRunning = true

    async function writer(lane: number) {
      for (let round = 0; isRunning; round++) {
        for (const id of ids.filter((_, i) => i % 4 === lane)) {
          await app.services.cache.ensureFresh()
          const [row] = await app.store.objects.get('people', [id])
          if (!row) continue
          const [sealed] = sealObjects(app.services.envelope, [
            {
              collection: 'people',
              objectId: id,
              values: { name: 'Al Bo', ssn: '987-65-4321', age: round },
            },
          ])
          const ok = await app.store.objects.replace(
            { ...row, sealed: JSON.stringify(sealed), version: row.version + 1 },
            row.version,
          )
          if (!ok) failures.push(`write ${id}`)
          // SQLite answers without I/O: yield as a request handler would, so timers and HTTP run.
          await new Promise((resolve) => setImmediate(resolve))
        }
        ids.push(await storeObject(app, 'people', { name: 'Cy Di', age: round }))
      }
    }
    async function reader() {
      while (isRunning) {
        const id = ids[Math.floor(Math.random() * ids.length)]
        const res = await cryptoCall(server, 'people/encrypt/objects', [
          { object: { id }, props: ['name', 'ssn'] },
        ])
        if (res.status !== 200) failures.push(`encrypt ${res.status} ${await res.text()}`)
        else {
          const [{ ciphertext }] = await res.json()
          const back = await cryptoCall(server, 'people/decrypt/objects', [
            { encrypted_object: { ciphertext } },
          ])
          if (back.status !== 200) failures.push(`decrypt ${back.status}`)
        }
      }
    }

    const load = Promise.all([0, 1, 2, 3].map(writer).concat([reader(), reader(), reader()]))
    await new Promise((resolve) => setTimeout(resolve, 300))
    const rotated = await server.request('POST', ROTATE)
    expect(rotated.status).toBe(200)
    await until(server, (s) => s.scanned > 0 || s.status === 'done')
    await new Promise((resolve) => setTimeout(resolve, 700))
    isRunning = false
    await load
    expect(failures).toEqual([])
    const done = await until(server, (s) => s.status === 'done')
    expect(done.key_versions.property).toBe(oldVersion + 1)
    expect(done.target_versions).toEqual({
      property: oldVersion + 1,
      token: done.key_versions.token,
    })
    expect(await sealedVersions(server, 'people')).toEqual(new Set([oldVersion + 1]))
  })
})

describeEngines('key rotation across a restart', (engine) => {
  let database: Awaited<ReturnType<typeof sharedDatabase>>
  beforeAll(async () => {
    database = await sharedDatabase(engine)
  })
  afterAll(() => database.drop())

  it('resumes re-encryption where the stopped node left off', async () => {
    const env = {
      ...database.env,
      ...NODE_ENV,
      SVC_KMS_REENCRYPT_BATCH_SIZE: '10',
      SVC_KMS_REENCRYPT_PAUSE: '150ms',
    }
    const first = await startTestServer({ env })
    await addCollection(first)
    for (let i = 0; i < 60; i++) await storeObject(first.app, 'people', { name: 'Jo Doe', age: i })
    expect((await first.request('POST', ROTATE)).status).toBe(200)
    const partial = await until(first, (s) => s.scanned >= 10)
    await first.close()
    expect(partial).toMatchObject({ status: 'running', pass: 1 })
    expect(partial.reencrypted).toBeLessThan(60)

    const second = await startTestServer({ env: { ...env, SVC_KMS_REENCRYPT_PAUSE: '0' } })
    try {
      const done = await until(second, (s) => s.status === 'done')
      // Counts continue from the saved state: a restart from scratch would count only the rest.
      expect(done.reencrypted).toBe(60)
      expect(done.rotated_at).toBe(partial.rotated_at)
      expect(await sealedVersions(second, 'people')).toEqual(new Set([2]))
    } finally {
      await second.close()
    }
  })
})

describe.skipIf(pgUrl === undefined)('key rotation on two nodes sharing PostgreSQL', () => {
  let database: Awaited<ReturnType<typeof sharedDatabase>>
  let a: TestServer
  let b: TestServer
  beforeAll(async () => {
    database = await sharedDatabase('postgres')
    a = await startTestServer({
      env: { ...database.env, ...NODE_ENV, SVC_KMS_REENCRYPT_BATCH_SIZE: '20' },
    })
    b = await startTestServer({
      env: { ...database.env, ...NODE_ENV, SVC_KMS_REENCRYPT_BATCH_SIZE: '20' },
    })
    await addCollection(a)
  })
  afterAll(async () => {
    await Promise.all([a.close(), b.close()])
    await database.drop()
  })

  it('re-encrypts once for the cluster while the other node keeps writing with the keys it refreshes', async () => {
    const ids: string[] = []
    for (let i = 0; i < 100; i++)
      ids.push(await storeObject(a.app, 'people', { name: 'Jo Doe', age: i }))
    let isRunning = true
    const failures: string[] = []
    const writes = (async () => {
      while (isRunning) {
        // A data call on node B refreshes its keys first (caching is off in these nodes).
        await b.app.services.cache.ensureFresh()
        ids.push(await storeObject(b.app, 'people', { name: 'Al Bo' }))
        const res = await cryptoCall(b, 'people/encrypt/objects', [{ object: { id: ids[0] } }])
        if (res.status !== 200) failures.push(String(res.status))
      }
    })()
    expect((await a.request('POST', ROTATE)).status).toBe(200)
    await until(a, (s) => s.scanned >= 100)
    isRunning = false
    await writes
    expect(failures).toEqual([])
    const fromA = await until(a, (s) => s.status === 'done')
    const fromB = await until(b, (s) => s.status === 'done')
    expect(fromB).toEqual(fromA)
    expect(await sealedVersions(b, 'people')).toEqual(new Set([2]))
  })
})
