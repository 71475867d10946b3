// test/api/stateless.test.ts: stateless nodes (SVC_BACKING_STORE=none, config.md §8) started from configuration files
import { readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectError } from '../helpers/collections.ts'
import { API, type Json } from '../helpers/server.ts'
import {
  APP_KEY,
  configDir,
  FILES,
  type StatelessNode,
  startStatelessNode,
} from '../helpers/stateless.ts'
import { startUpstream, type Upstream } from '../helpers/upstream.ts'

const REASON = 'reason=AppFunctionality'
const DATA = `${API}/data/collections`

const JO = { name: 'Jo Doe', email: 'jo@example.com' }

describe('stateless mode', () => {
  let dir: string
  let node: StatelessNode
  let other: StatelessNode
  let upstream: Upstream
  const ok = async (res: Response): Promise<Json> => {
    expect(res.status, await res.clone().text()).toBe(200)
    return res.headers.get('content-type')?.startsWith('application/json') ? res.json() : res
  }
  const encrypt = async (n: StatelessNode, items: unknown[], key?: string): Promise<string[]> =>
    (await ok(await n.request('POST', `${DATA}/people/encrypt/objects?${REASON}`, items, key))).map(
      (c: Json) => c.ciphertext ?? c,
    )

  beforeAll(async () => {
    upstream = await startUpstream()
    dir = await configDir(FILES)
    const env = { SVC_SERVICE_ALLOWED_HTTP_DESTINATIONS: `${upstream.origin}/` }
    node = await startStatelessNode(dir, env)
    other = await startStatelessNode(dir, env)
  })
  afterAll(async () => {
    await node.close()
    await other.close()
    await upstream.close()
    await rm(dir, { recursive: true, force: true })
  })

  it('serves the collections and IAM of its files, and says it has no store', async () => {
    const collections = await ok(await node.request('GET', `${API}/ctl/collections`))
    expect(collections.map((c: Json) => c.name)).toEqual(['notes', 'people'])
    const conf = await node.request('GET', `${API}/ctl/iam/conf`)
    expect(await conf.text()).toContain('[users.App]')
    const configuration = await ok(await node.request('GET', `${API}/system/info/configuration`))
    expect(configuration.backing_store).toBe('none')
  })

  it('answers every control-plane and system read', async () => {
    for (const path of [
      '/ctl/collections/people',
      '/ctl/collections/people/properties',
      '/ctl/collections/people/properties/email',
      '/ctl/types',
      '/ctl/types/EMAIL',
      '/ctl/bundles',
      '/ctl/actions',
      '/ctl/iam/user/App',
      '/data/info/health',
      '/ctl/info/health',
      '/system/info/version',
      '/system/info/license',
      '/system/info/kms',
    ]) {
      const res = await node.request('GET', `${API}${path}`)
      expect({ path, status: res.status }).toEqual({ path, status: 200 })
    }
    const user = await ok(await node.request('GET', `${API}/ctl/iam/user/App`, undefined, APP_KEY))
    expect(user.api_key_expiry ?? null).toBeNull()
  })

  it('encrypts, updates, decrypts and hashes with the key hash of secrets.toml', async () => {
    const [ciphertext] = await encrypt(node, [{ object: { fields: JO } }], APP_KEY)
    const decrypted = await ok(
      await node.request(
        'POST',
        `${DATA}/people/decrypt/objects?${REASON}`,
        [{ encrypted_object: { ciphertext } }],
        APP_KEY,
      ),
    )
    expect(decrypted).toEqual([{ fields: JO }])
    const updated = await ok(
      await node.request(
        'PATCH',
        `${DATA}/people/encrypt/objects?${REASON}`,
        [{ encrypted_object: { ciphertext }, fields: { email: 'jo@example.org' } }],
        APP_KEY,
      ),
    )
    const [changed] = updated.map((c: Json) => c.ciphertext ?? c)
    const reopened = await ok(
      await node.request('POST', `${DATA}/people/decrypt/objects?${REASON}`, [
        { encrypted_object: { ciphertext: changed } },
      ]),
    )
    expect(reopened).toEqual([{ fields: { ...JO, email: 'jo@example.org' } }])
    const hashes = await ok(
      await node.request(
        'POST',
        `${DATA}/people/hash/objects?${REASON}`,
        [{ object: { fields: { name: 'Jo Doe' } } }, { object: { encrypted: { ciphertext } } }],
        APP_KEY,
      ),
    )
    expect(hashes).toHaveLength(2)
    await expectError(
      await node.request('GET', `${API}/ctl/collections`, undefined, 'nope'),
      401,
      'ERR1005',
    )
  })

  it('encrypts and decrypts blobs', async () => {
    const data = new Uint8Array([1, 2, 3, 250])
    const sealed = await node.request(
      'POST',
      `${DATA}/people/encrypt/blob?${REASON}&prop=photo`,
      data,
    )
    expect(sealed.status).toBe(200)
    const opened = await node.request(
      'POST',
      `${DATA}/people/decrypt/blob?${REASON}&prop=photo`,
      new Uint8Array(await sealed.arrayBuffer()),
    )
    expect(new Uint8Array(await opened.arrayBuffer())).toEqual(data)
  })

  it('opens the ciphertexts of another node with the same KMS configuration', async () => {
    const [fromNode] = await encrypt(node, [{ object: { fields: JO } }])
    const [fromOther] = await encrypt(other, [{ object: { fields: JO }, type: 'deterministic' }])
    const [again] = await encrypt(node, [{ object: { fields: JO }, type: 'deterministic' }])
    expect(again).toBe(fromOther)
    for (const [reader, ciphertext] of [
      [other, fromNode],
      [node, fromOther],
    ] as const) {
      const res = await reader.request('POST', `${DATA}/people/decrypt/objects?${REASON}`, [
        { encrypted_object: { ciphertext } },
      ])
      expect(await ok(res)).toEqual([{ fields: JO }])
    }
  })

  it('does not open the ciphertexts of a node with another KMS seed', async () => {
    const [ciphertext] = await encrypt(node, [{ object: { fields: JO } }])
    const stranger = await startStatelessNode(dir, { SVC_KMS_SEED: 'another seed entirely' })
    try {
      const res = await stranger.request('POST', `${DATA}/people/decrypt/objects?${REASON}`, [
        { encrypted_object: { ciphertext } },
      ])
      await expectError(res, 400, 'ERR1012')
    } finally {
      await stranger.close()
    }
  })

  it('runs analysis and http_call with decrypt_object identifiers', async () => {
    const contains = await ok(
      await node.request('POST', `${API}/data/analysis/contains?${REASON}`, {
        text: ['Write to jo@example.com'],
      }),
    )
    expect(JSON.stringify(contains)).toContain('EMAIL')
    const [ciphertext] = await encrypt(node, [{ object: { fields: JO } }])
    const result = await ok(
      await other.request('POST', `${API}/data/actions/http_call?${REASON}`, {
        template_variables: { email: `pvlt:decrypt_object:people:email:${ciphertext}:` },
        request: { url: `${upstream.origin}/hook`, method: 'POST', body: '{{ .email }}' },
      }),
    )
    expect(result.status_code).toBe(200)
    expect(upstream.seen.at(-1)?.body).toBe('jo@example.com')
  })

  it('keeps dynamic configuration variables on the node', async () => {
    await ok(await node.request('POST', `${API}/system/confvar/log_level`, { value: 'debug' }))
    expect((await ok(await node.request('GET', `${API}/system/confvar/log_level`))).value).toBe(
      'debug',
    )
    expect(
      (await ok(await other.request('GET', `${API}/system/confvar/log_level`))).value,
    ).not.toBe('debug')
  })

  it('refuses object id references with 501 ERR2001, before anything is sent', async () => {
    const id = '8d0f1c1e-8b6c-4ec3-a7f4-3b1ad8a0ad4e'
    await expectError(
      await node.request('POST', `${DATA}/people/encrypt/objects?${REASON}`, [{ object: { id } }]),
      501,
      'ERR2001',
    )
    await expectError(
      await node.request('POST', `${DATA}/people/hash/objects?${REASON}`, [{ object: { id } }]),
      501,
      'ERR2001',
    )
    const before = upstream.seen.length
    await expectError(
      await node.request('POST', `${API}/data/actions/http_call?${REASON}`, {
        template_variables: { name: `pvlt:read_object:people:name:${id}:` },
        request: { url: `${upstream.origin}/hook`, method: 'POST', body: '{{ .name }}' },
      }),
      501,
      'ERR2001',
    )
    expect(upstream.seen.length).toBe(before)
  })

  it('writes its audit records to the line sink', async () => {
    const lines = (await readFile(join(dir, 'audit.log'), 'utf8')).trim().split('\n')
    expect(lines.length).toBeGreaterThan(0)
    expect(lines.map((line) => JSON.parse(line).operation)).toContain('encrypt')
  })
})
