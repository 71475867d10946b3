// test/api/tokens-reencryption.test.ts: key rotation re-encrypts token data (purpose token) on both engines
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { describeEngines } from '../helpers/engines.ts'
import { addCollection, ok } from '../helpers/objects.ts'
import { API, type Json, startTestServer, type TestServer } from '../helpers/server.ts'
import { CARDS, tokensOf } from '../helpers/tokens.ts'

const NODE_ENV = { SVC_SERVICE_CACHE_REFRESH_INTERVAL: '0', SVC_SERVICE_TIMEOUT_SECONDS: '3' }

async function rotationDone(server: TestServer): Promise<Json> {
  for (let i = 0; i < 600; i++) {
    const status = await ok(server.request('GET', `${API}/system/admin/keys/rotation`))
    if (status.status === 'done') return status
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error('re-encryption did not finish in time')
}

/** The key versions of every token row's sealed data. */
async function sealedVersions(server: TestServer): Promise<Set<number | undefined>> {
  const { store, services } = server.app
  const rows = await store.tokens.page(undefined, undefined, 100_000)
  return new Set(rows.flatMap((r) => (r.sealed ? [services.envelope.keyVersionOf(r.sealed)] : [])))
}

describeEngines('token data re-encryption', (engine) => {
  let server: TestServer
  let dir: string | undefined
  beforeAll(async () => {
    if (engine === 'sqlite') {
      dir = await mkdtemp(join(tmpdir(), 'strongroom-tokens-keys-'))
      const env = { SVC_BACKING_STORE: 'sqlite', SVC_DATA_DIR: dir, ...NODE_ENV }
      server = await startTestServer({ env })
    } else server = await startTestServer({ engine, env: NODE_ENV })
    await addCollection(server, CARDS)
  })
  afterAll(async () => {
    await server.close()
    if (dir !== undefined) await rm(dir, { recursive: true, force: true })
  })

  it('leaves no token row sealed under the old key version once the job is done', async () => {
    const api = tokensOf(server, 'cards')
    const items = Array.from({ length: 40 }, (_, i) => ({
      type: ['randomized', 'pci', 'deterministic', 'pci_oneway'][i % 4],
      object: { fields: { name: `Name ${i}` } },
    }))
    const ids = (await ok(api.tokenize(items))).map((t: Json) => t.token_id as string)
    const random = ids.filter((_id: string, i: number) => i % 4 === 0)
    const query = random.map((id: string) => `token_ids=${id}`).join('&')
    const before = await ok(api.detokenize(query))
    const old = (await ok(server.request('GET', `${API}/system/admin/keys/rotation`))).key_versions
      .token
    expect(await sealedVersions(server)).toEqual(new Set([old]))
    expect((await server.request('POST', `${API}/system/admin/keys/rotate`)).status).toBe(200)
    const done = await rotationDone(server)
    expect(done.key_versions.token).toBe(old + 1)
    expect(await sealedVersions(server)).toEqual(new Set([old + 1]))
    expect(await ok(api.detokenize(query))).toEqual(before)
    const again = await ok(api.tokenize(items.slice(0, 4)))
    expect(again.map((t: Json) => t.token_id).slice(1, 3)).toEqual(ids.slice(1, 3))
  })
})
