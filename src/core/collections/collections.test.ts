// src/core/collections/collections.test.ts: the service on a real store, with the object-data port observed
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { databaseAudit, openTestStore, type TestStore } from '../../../test/helpers/store.ts'
import { createControlCache } from '../cache.ts'
import { auditRoute, type RequestContext } from '../context.ts'
import { createTypeRegistry } from '../data-types/registry.ts'
import { VaultError } from '../errors.ts'
import { createCollectionsService } from './collections.ts'
import type { CollectionDataPort } from './data-port.ts'

const NOW = 1_700_000_000_000_000

function context(): RequestContext {
  return {
    requestId: 'r',
    principal: { username: 'Admin', role: 'Admin', isAdmin: true, authKind: 'api_key' },
    now: NOW,
    signal: new AbortController().signal,
    reason: undefined,
    customAudit: undefined,
    tenantIds: [],
    transParam: undefined,
    remoteAddr: undefined,
    audit: auditRoute('test', 'POST', '/'),
  }
}

/** Records what the service asks of object data; `hasObjects` and failures are set per test. */
function observedData() {
  const calls: string[] = []
  const state = { hasObjects: false, failOn: '' }
  const record = async (call: string) => {
    calls.push(call)
    if (state.failOn === call.split(' ')[0]) throw new Error(`failed ${call}`)
  }
  const port: CollectionDataPort = {
    hasObjects: async () => state.hasObjects,
    onIndexChanged: (_tx, c, p, change) =>
      record(
        `index ${c.name}.${p.name} ${change.before.isIndex}->${change.after.isIndex} unique ${change.before.isUnique}->${change.after.isUnique}`,
      ),
    deleteCollectionData: (_tx, c) => record(`deleteCollection ${c.name}`),
    deletePropertyData: (_tx, c, p) => record(`deleteProperty ${c.name}.${p.name}`),
  }
  return { port, calls, state }
}

async function codeOf(work: Promise<unknown>): Promise<string> {
  try {
    await work
  } catch (error) {
    if (error instanceof VaultError) return error.code
    throw error
  }
  return 'none'
}

describe('collections service', () => {
  let handle: TestStore
  let data: ReturnType<typeof observedData>
  let service: ReturnType<typeof createCollectionsService>
  const ctx = context

  function build(isEncryptionEnabled = true) {
    const { store } = handle
    const cache = createControlCache({
      store,
      clock: () => NOW,
      refreshIntervalMs: 30_000,
      worker: { id: 'w', priority: 0, components: [] },
    })
    const audit = databaseAudit(handle.store, NOW)
    const types = createTypeRegistry({
      limits: { maxStringLength: 450, maxBlobLength: 1000, isLuhnCheckEnabled: true },
    })
    const built = createCollectionsService({
      store,
      types,
      cache,
      audit,
      data: data.port,
      isEncryptionEnabled,
    })
    cache.register('collections', built.load)
    return built
  }

  beforeEach(async () => {
    handle = await openTestStore()
    data = observedData()
    service = build()
    await service.create(ctx(), {
      name: 'people',
      type: 'PERSONS',
      properties: [
        { name: 'ssn', dataType: 'SSN', isUnique: true },
        { name: 'email', dataType: 'EMAIL' },
      ],
    })
  })
  afterEach(() => handle.close())

  it('makes new properties nullable-only once the collection holds objects', async () => {
    data.state.hasObjects = true
    expect(
      await codeOf(
        service.addProperty(ctx(), 'people', 'age', { name: 'age', dataType: 'INTEGER' }),
      ),
    ).toBe('ERR1012')
    const input = {
      name: 'people',
      type: 'PERSONS',
      properties: [{ name: 'age', dataType: 'INTEGER' }],
    }
    expect(await codeOf(service.update(ctx(), 'people', input))).toBe('ERR1012')
    expect((await service.getOrThrow(ctx(), 'people')).value.properties.map((p) => p.name)).toEqual(
      ['ssn', 'email'],
    )
    const nullable = { name: 'age', dataType: 'INTEGER', isNullable: true }
    expect((await service.addProperty(ctx(), 'people', 'age', nullable)).isNullable).toBe(true)
  })

  it('asks object data to follow index and uniqueness changes, and nothing else', async () => {
    await service.updateProperty(ctx(), 'people', 'ssn', { description: 'only text' })
    await service.updateProperty(ctx(), 'people', 'ssn', { isUnique: false })
    await service.update(ctx(), 'people', {
      name: 'people',
      type: 'PERSONS',
      properties: [{ name: 'email', dataType: 'EMAIL', isIndex: true }],
    })
    expect(data.calls).toEqual([
      'index people.ssn false->false unique true->false',
      'index people.email false->true unique false->false',
    ])
  })

  it('rolls the schema change back when object data cannot follow', async () => {
    data.state.failOn = 'index'
    await expect(
      service.updateProperty(ctx(), 'people', 'email', { isIndex: true }),
    ).rejects.toThrow('failed')
    expect((await service.getProperty(ctx(), 'people', 'email')).value.isIndex).toBe(false)
    data.state.failOn = 'deleteCollection'
    await expect(service.delete(ctx(), 'people')).rejects.toThrow('failed')
    expect(await service.get(ctx(), 'people')).toBeDefined()
  })

  it('deletes object data with the property and with the collection', async () => {
    await service.deleteProperty(ctx(), 'people', 'email')
    await service.delete(ctx(), 'people')
    expect(data.calls).toEqual(['deleteProperty people.email', 'deleteCollection people'])
  })

  it('keeps the per-node cache in step with every control write', async () => {
    expect(service.getCached('people')?.properties).toHaveLength(2)
    await service.addProperty(ctx(), 'people', 'age', {
      name: 'age',
      dataType: 'INTEGER',
      isNullable: true,
    })
    expect(service.getCached('people')?.properties).toHaveLength(3)
    await service.delete(ctx(), 'people')
    expect(service.getCached('people')).toBeUndefined()
    expect(() => service.getCachedOrThrow('people')).toThrow(VaultError)
  })

  it('writes the audit record in the same transaction as the change', async () => {
    const call = ctx()
    await service.addProperty(call, 'people', 'age', {
      name: 'age',
      dataType: 'INTEGER',
      isNullable: true,
    })
    const rows = await handle.store.audit.list({ limit: 100 })
    expect(rows.map((row) => JSON.parse(row.record).properties)).toContainEqual(['age'])
  })

  it('stores properties plain and reports is_encrypted false when encryption is off', async () => {
    const plain = build(false)
    const created = await plain.create(ctx(), {
      name: 'plain',
      type: 'DATA',
      properties: [{ name: 'a', dataType: 'STRING', isEncrypted: true }],
    })
    expect(created.properties[0]?.isEncrypted).toBe(false)
  })

  it('lists collections by name in code-unit order, whatever the database collation', async () => {
    for (const name of ['b', 'C', 'a_c', 'ab'])
      await service.create(ctx(), { name, type: 'DATA', properties: [] })
    expect((await service.list(ctx())).map((c) => c.name)).toEqual([
      'C',
      'a_c',
      'ab',
      'b',
      'people',
    ])
  })
})
