// test/api/tokens-export.test.ts: export and import of tokens between vaults sharing an export KMS
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectError } from '../helpers/collections.ts'
import { addCollection, addObject, objectsOf, ok } from '../helpers/objects.ts'
import { API, type Json, startTestServer, type TestServer } from '../helpers/server.ts'
import { CARDS, tokensOf } from '../helpers/tokens.ts'

const CARD = '4111111111111111'
const EXPORT_SEED = 'shared export seed of the token vaults'
const dirs: string[] = []

async function vault(mainSeed: string, env: Record<string, string> = {}): Promise<TestServer> {
  const dir = await mkdtemp(join(tmpdir(), 'strongroom-tokens-'))
  dirs.push(dir)
  return startTestServer({
    env: {
      SVC_BACKING_STORE: 'sqlite',
      SVC_DATA_DIR: dir,
      SVC_KMS_SEED: mainSeed,
      SVC_KMS_EXPORT_SEED: EXPORT_SEED,
      ...env,
    },
  })
}

/** Every exported token, following the cursor. */
async function exportAll(server: TestServer, query: string): Promise<Json[]> {
  const all: Json[] = []
  let cursor = ''
  for (;;) {
    const page = await ok(
      tokensOf(server, 'cards').export(`${query}&cursor=${encodeURIComponent(cursor)}`),
    )
    all.push(...page.results)
    cursor = page.paging.cursor
    if (cursor === '') return all
  }
}

describe('tokens export and import', () => {
  let source: TestServer
  let target: TestServer
  let key: string
  const ids: Record<string, string> = {}
  let objectId: string

  beforeAll(async () => {
    source = await vault('source main seed')
    target = await vault('target main seed')
    await addCollection(source, CARDS)
    await addCollection(target, CARDS)
    key = (await ok(source.request('GET', `${API}/system/admin/export_key`))).export_key
    objectId = await addObject(objectsOf(source, 'cards'), { card: CARD, name: 'Owner' })
    const tokenize = async (name: string, item: unknown) => {
      ids[name] = (await ok(tokensOf(source, 'cards').tokenize([item])))[0].token_id
    }
    await tokenize('randomized', {
      type: 'randomized',
      object: { fields: { card: CARD, name: 'Ann' } },
      tags: ['t1'],
    })
    await tokenize('pci', { type: 'pci', object: { fields: { card: '5500000000000004' } } })
    await tokenize('deterministic', {
      type: 'deterministic',
      object: { fields: { name: 'Dee' } },
    })
    await tokenize('oneway', { type: 'pci_oneway', object: { fields: { card: CARD } } })
    await tokenize('pointer', { type: 'pointer', object: { id: objectId }, props: ['name'] })
  })
  afterAll(async () => {
    await source.close()
    await target.close()
    for (const dir of dirs) await rm(dir, { recursive: true, force: true })
  })

  it('exports every kind but pci_oneway in pages, values sealed with the export key', async () => {
    const exported = await exportAll(source, 'page_size=2')
    const byId = new Map(exported.map((t) => [t.token_id, t]))
    expect([...byId.keys()].sort()).toEqual(
      [ids.randomized, ids.pci, ids.deterministic, ids.pointer].sort(),
    )
    expect(JSON.stringify(exported)).not.toContain(CARD)
    expect(JSON.stringify(exported)).not.toContain('Ann')
    const random = byId.get(ids.randomized)
    expect(random).toMatchObject({
      token_type: 'randomized',
      props: ['card', 'name'],
      tags: ['t1'],
    })
    expect(random.fields.card).toMatch(/^[A-Za-z0-9+/]+=*$/)
    const pointer = byId.get(ids.pointer)
    expect(pointer).toMatchObject({ token_type: 'pointer', object_id: objectId, props: ['name'] })
    expect(pointer.fields).toBeUndefined()
    const onlyPci = await exportAll(source, 'token_types=pci')
    expect(onlyPci.map((t) => t.token_id)).toEqual([ids.pci])
  })

  it('counts the tokens left after each page; the last page has no cursor', async () => {
    const tokens = tokensOf(source, 'cards')
    // Four exportable tokens: randomized, pci, deterministic, pointer (pci_oneway never is).
    const first = await ok(tokens.export('page_size=3'))
    expect(first.paging).toMatchObject({ size: 3, remaining_count: 1 })
    const second = await ok(
      tokens.export(`page_size=3&cursor=${encodeURIComponent(first.paging.cursor)}`),
    )
    expect(second.paging).toEqual({ size: 1, remaining_count: 0, cursor: '' })
    const exact = await ok(tokens.export('page_size=2'))
    expect(exact.paging).toMatchObject({ size: 2, remaining_count: 2 })
    const last = await ok(
      tokens.export(`page_size=2&cursor=${encodeURIComponent(exact.paging.cursor)}`),
    )
    expect(last.paging).toEqual({ size: 2, remaining_count: 0, cursor: '' })
  })

  it('answers 400 ERR1012 when pci_oneway is asked for, or for a cursor of another query', async () => {
    const api = tokensOf(source, 'cards')
    await expectError(await api.export('token_types=pci_oneway'), 400, 'ERR1012')
    const page = await ok(api.export('page_size=1'))
    expect(page.paging.cursor).not.toBe('')
    await expectError(
      await api.export(`token_types=pci&cursor=${page.paging.cursor}`),
      400,
      'ERR1012',
    )
  })

  it('imports into a vault with another main key, rejecting the deterministic token', async () => {
    const exported = await exportAll(source, 'page_size=100')
    const objects = await ok(
      objectsOf(source, 'cards').list('options=unsafe,show_builtins&export=true'),
    )
    await ok(
      objectsOf(target, 'cards').addMany(
        objects.results,
        `import=true&export_key=${encodeURIComponent(key)}`,
      ),
    )
    const api = tokensOf(target, 'cards')
    const refused = await ok(api.import(exported, key))
    expect(refused.ok).toBe(false)
    const failed = refused.results.filter((r: Json) => !r.ok)
    expect(failed).toEqual([
      {
        token_id: ids.deterministic,
        ok: false,
        error: expect.objectContaining({ error_code: 'ERR1012' }),
      },
    ])
    expect((await ok(api.count())).total).toBe(0)
    const importable = exported.filter((t) => t.token_type !== 'deterministic')
    expect(await ok(api.import(importable, key))).toEqual({
      ok: true,
      results: importable.map((t) => ({ token_id: t.token_id, ok: true })),
    })
    const query = `token_ids=${ids.randomized}&token_ids=${ids.pci}&token_ids=${ids.pointer}`
    const before = await ok(tokensOf(source, 'cards').detokenize(query))
    const after = await ok(api.detokenize(query))
    const sorted = (list: Json[]) => [...list].sort((a, b) => a.token_id.localeCompare(b.token_id))
    expect(sorted(after)).toEqual(sorted(before))
    expect(after.find((t: Json) => t.token_id === ids.pointer).fields).toEqual({ name: 'Owner' })
    const again = await ok(
      api.tokenize([{ type: 'pci', object: { fields: { card: '5500000000000004' } } }]),
    )
    expect(again[0].token_id).toBe(ids.pci)
  })

  it('reports taken token IDs and already tokenized pci data per item, writing nothing', async () => {
    const exported = await exportAll(source, 'token_types=randomized&token_types=pci')
    const api = tokensOf(target, 'cards')
    const count = (await ok(api.count())).total
    const fresh = { ...exported.find((t) => t.token_type === 'randomized'), token_id: 'fresh-id' }
    const pciCopy = { ...exported.find((t) => t.token_type === 'pci'), token_id: 'pci-copy' }
    const result = await ok(api.import([...exported, fresh, pciCopy, fresh], key))
    expect(result.ok).toBe(false)
    const codes = result.results.map((r: Json) => r.error?.error_code ?? 'ok')
    expect(codes).toEqual(['ERR9001', 'ERR9001', 'ok', 'ERR9001', 'ERR9001'])
    expect((await ok(api.count())).total).toBe(count)
  })

  it('gives a token without an owner the single tenant of the import call', async () => {
    const [exported] = await exportAll(source, 'token_types=randomized')
    const api = tokensOf(target, 'cards')
    const tenantToken = { ...exported, token_id: 'tenant-acme' }
    expect((await ok(api.import([tenantToken], key, { 'x-tenant-id': 'acme' }))).ok).toBe(true)
    const query = 'token_ids=tenant-acme'
    const own = await ok(api.detokenize(query, { 'x-tenant-id': 'acme' }))
    expect(own.map((t: Json) => t.token_id)).toEqual(['tenant-acme'])
    await expectError(await api.detokenize(query, { 'x-tenant-id': 'other' }), 403, 'ERR1006')
  })

  it('keeps the cursor when SVC_SERVICE_MAX_PAGINATION_REMAINING_COUNT caps the count at 0', async () => {
    const capped = await vault('capped main seed', {
      SVC_SERVICE_MAX_PAGINATION_REMAINING_COUNT: '0',
    })
    try {
      await addCollection(capped, CARDS)
      const api = tokensOf(capped, 'cards')
      const items = ['Ann', 'Bob'].map((name) => ({
        type: 'randomized',
        object: { fields: { card: CARD, name } },
      }))
      await ok(api.tokenize(items))
      const first = await ok(api.export('page_size=1'))
      expect(first.paging.remaining_count).toBe(0)
      expect(first.paging.cursor).not.toBe('')
      const second = await ok(
        api.export(`page_size=1&cursor=${encodeURIComponent(first.paging.cursor)}`),
      )
      expect(second.paging).toEqual({ size: 1, remaining_count: 0, cursor: '' })
    } finally {
      await capped.close()
    }
  })

  it('answers 400 ERR1012 for a wrong export key', async () => {
    const exported = await exportAll(source, 'token_types=randomized')
    const forged = Buffer.alloc(60, 7).toString('base64')
    const renamed = exported.map((t) => ({ ...t, token_id: `${t.token_id}-x` }))
    await expectError(await tokensOf(target, 'cards').import(renamed, forged), 400, 'ERR1012')
  })
})

describe('tokens export and import in in-memory mode', () => {
  it('refuses both with 405 ERR1026', async () => {
    const server = await startTestServer()
    await addCollection(server, CARDS)
    const api = tokensOf(server, 'cards')
    await expectError(await api.export(), 405, 'ERR1026')
    await expectError(await api.import([], 'abc'), 405, 'ERR1026')
    await server.close()
  })
})
