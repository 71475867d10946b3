// test/client/objects.test.ts: the published client's objects operations (and export key, GC) work unchanged
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { VaultClient } from '@piiano/vault-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PEOPLE } from '../helpers/objects.ts'
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.ts'

const reason = 'AppFunctionality' as const

describe('published client: objects', () => {
  let server: TestServer
  let client: VaultClient
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'strongroom-client-'))
    server = await startTestServer({ env: { SVC_BACKING_STORE: 'sqlite', SVC_DATA_DIR: dir } })
    client = new VaultClient({ vaultURL: server.baseUrl, apiKey: ADMIN_KEY })
    await client.collections.addCollection({ requestBody: PEOPLE as never })
  })
  afterAll(async () => {
    await server.close()
    await rm(dir, { recursive: true, force: true })
  })

  it('adds, gets, updates and deletes one object', async () => {
    const { id } = await client.objects.addObject({
      collection: 'people',
      reason,
      requestBody: { name: 'Ann Lee', ssn: '123-45-6789', email: 'ann@example.com' },
      expirationSecs: '3600',
    })
    const got = await client.objects.getObjectById({
      collection: 'people',
      id,
      reason,
      props: ['name', 'ssn.mask', 'email'],
      xTransParam: 'x',
    })
    expect(got).toEqual({ name: 'Ann Lee', 'ssn.mask': '***-**-6789', email: 'ann@example.com' })
    await client.objects.updateObjectById({
      collection: 'people',
      id,
      reason,
      requestBody: { email: null },
    })
    const unsafe = await client.objects.getObjectById({
      collection: 'people',
      id,
      reason,
      options: ['unsafe', 'show_builtins'],
    })
    expect(unsafe).toMatchObject({ id, email: null, _expiration_time: expect.any(String) })
    await client.objects.deleteObjectById({ collection: 'people', id, reason })
    const archived = await client.objects.getObjectById({
      collection: 'people',
      id,
      reason,
      options: ['archived'],
      props: ['name'],
    })
    expect(archived).toEqual({ name: 'Ann Lee' })
  })

  it('adds, updates and deletes in bulk, lists with paging and ids, searches and counts', async () => {
    const added = await client.objects.addObjects({
      collection: 'people',
      reason,
      requestBody: [
        { name: 'Bo Smith', ssn: '111-22-3333', age: 30 },
        { name: 'Cy Smith', ssn: '111-22-4444', age: 31 },
        { name: 'Di Jones', ssn: '111-22-5555', age: 30 },
      ],
    })
    expect(added.ok).toBe(true)
    const ids = added.results.map((r) => r.id as string)
    const page = await client.objects.listObjects({
      collection: 'people',
      reason,
      props: ['name'],
      pageSize: 2,
    })
    expect(page.paging).toMatchObject({ size: 2, remaining_count: 1 })
    const next = await client.objects.listObjects({
      collection: 'people',
      reason,
      props: ['name'],
      pageSize: 2,
      cursor: page.paging.cursor,
    })
    expect(next.paging).toEqual({ size: 1, remaining_count: 0, cursor: '' })
    const byIds = await client.objects.listObjects({
      collection: 'people',
      reason,
      ids: [ids[2] as string, ids[0] as string],
      props: ['id'],
    })
    expect(byIds.results).toEqual([{ id: ids[2] }, { id: ids[0] }])
    const found = await client.objects.searchObjects({
      collection: 'people',
      reason,
      requestBody: { like: { name: '*smith*' }, match: { age: 30 } },
      props: ['name'],
    })
    expect(found.results).toEqual([{ name: 'Bo Smith' }])
    const updated = await client.objects.updateObjects({
      collection: 'people',
      reason,
      requestBody: [
        { id: ids[0], age: 40 },
        { id: ids[1], age: 41 },
      ],
    })
    expect(updated.ok).toBe(true)
    const deleted = await client.objects.deleteObjects({
      collection: 'people',
      reason,
      requestBody: [{ id: ids[2] as string }],
    })
    expect(deleted).toEqual({ ok: true, results: [{ ok: true, id: ids[2] }] })
    expect(await client.objects.getObjectsCount({ collection: 'people', reason })).toEqual({
      active: 2,
      archived: 2,
      total: 4,
    })
  })

  it('surfaces per-item and whole-request errors with the spec body', async () => {
    const result = await client.objects.addObjects({
      collection: 'people',
      reason,
      requestBody: [{ name: 'Ed', ssn: 'bad' }],
    })
    expect(result).toMatchObject({
      ok: false,
      results: [{ ok: false, error: { error_code: 'ERR3002' } }],
    })
    await expect(
      client.objects.getObjectById({
        collection: 'people',
        id: crypto.randomUUID(),
        reason,
        props: ['name'],
      }),
    ).rejects.toMatchObject({
      status: 404,
      body: { error_code: 'ERR3005', context: { ids: expect.any(String) } },
    })
  })

  it('reads the export key, exports objects and runs garbage collection', async () => {
    const { export_key } = await client.system.getExportKey()
    expect(export_key.length).toBeGreaterThan(40)
    const exported = await client.objects.listObjects({
      collection: 'people',
      reason,
      options: ['unsafe'],
      _export: true,
    })
    expect(exported.results[0]?.id).toEqual(expect.any(String))
    expect(await client.system.garbageCollection({ reason, dryRun: true })).toEqual([])
  })
})
