// test/api/system.test.ts: health, version, cluster, configuration, license, confvars, trigger-error
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { describeEngines } from '../helpers/engines.ts'
import { API, startTestServer, type TestServer } from '../helpers/server.ts'

describeEngines('system API', (engine) => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({
      engine,
      env: { SVC_SERVICE_LICENSE: 'lic-123', SVC_KMS_SEED: 'a-secret-seed' },
    })
  })
  afterAll(() => server.close())

  it.each(['/data/info/health', '/ctl/info/health'])(
    'answers %s without credentials',
    async (path) => {
      const res = await server.request('GET', `${API}${path}`, { token: null })
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual({ status: 'pass' })
    },
  )

  it('answers health 503 fail when the database is gone', async () => {
    const broken = await startTestServer({ engine })
    await broken.app.store.close()
    const res = await broken.request('GET', `${API}/data/info/health`, { token: null })
    expect(res.status).toBe(503)
    expect(await res.json()).toEqual({ status: 'fail' })
    await broken.app.server.close()
  })

  it('reports version, vault id and schema version to any authenticated caller', async () => {
    const res = await server.request('GET', `${API}/system/info/version`)
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body).toEqual({
      vault_id: expect.any(String),
      vault_version: '0.1.0',
      db_schema_version: expect.any(Number),
    })
    expect(body.db_schema_version).toBeGreaterThanOrEqual(1)
  })

  it('keeps the vault id stable across calls', async () => {
    const a = await (await server.request('GET', `${API}/system/info/version`)).json()
    const b = await (await server.request('GET', `${API}/system/info/version`)).json()
    expect(a.vault_id).toBe(b.vault_id)
  })

  it('lists this node in the cluster information', async () => {
    const res = await server.request('GET', `${API}/ctl/info/cluster`)
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body.vault).toEqual({
      generation_number: expect.any(Number),
      modified_at: expect.any(String),
    })
    expect(body.workers).toHaveLength(1)
    expect(body.workers[0]).toMatchObject({
      refresh_interval_seconds: 30,
      priority: 0,
      component: 'data,control',
    })
  })

  it('shows the configuration with secrets masked', async () => {
    const res = await server.request('GET', `${API}/system/info/configuration`)
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(Object.keys(body)).toEqual(
      expect.arrayContaining([
        'db',
        'devmode',
        'backing_store',
        'features',
        'kms',
        'log',
        'service',
        'tls',
        'expiration',
      ]),
    )
    expect(body.devmode).toBe(true)
    expect(body.backing_store).toBe(engine === 'sqlite' ? 'memory' : 'postgres')
    expect(body.kms.seed).toBe('***')
    expect(body.service.admin_api_key).toBe('***')
    expect(JSON.stringify(body)).not.toContain('a-secret-seed')
    expect(JSON.stringify(body)).not.toContain('pvaultauth')
  })

  it('reports the local KMS passing a wrap/unwrap round trip', async () => {
    const res = await server.request('GET', `${API}/system/info/kms`)
    expect(await res.json()).toEqual({ kms: { status: 'pass', type: 'LOCAL' } })
  })

  it('creates and wraps the data keys on first start; the database holds only wrapped keys', async () => {
    const keys = await server.app.store.keys.list()
    expect(keys.map((key) => key.purpose).sort()).toEqual([
      'blind_index',
      'ciphertext',
      'deterministic',
      'property',
      'siv',
      'substring',
      'token',
    ])
    const property = server.app.services.keyring.current('property').key
    expect(keys.some((key) => Buffer.from(key.wrapped).includes(Buffer.from(property)))).toBe(false)
  })

  it('gets and sets the license without enforcing it', async () => {
    expect(await (await server.request('GET', `${API}/system/info/license`)).json()).toEqual({
      key: 'lic-123',
      expiration: '',
    })
    const set = await server.request('POST', `${API}/system/info/license`, {
      body: { key: 'lic-456' },
    })
    expect(set.status).toBe(200)
    expect(await set.text()).toBe('')
    expect((await (await server.request('GET', `${API}/system/info/license`)).json()).key).toBe(
      'lic-456',
    )
  })

  describe('dynamic configuration variables', () => {
    it('gets a variable with its default', async () => {
      const res = await server.request('GET', `${API}/system/confvar/log_level`)
      expect(await res.json()).toEqual({
        name: 'log_level',
        value: 'error',
        default_value: 'error',
      })
    })

    it('sets a variable and clears all back to defaults', async () => {
      const set = await server.request('POST', `${API}/system/confvar/trace_sql`, {
        body: { value: 'true' },
      })
      expect(set.status).toBe(200)
      expect(set.headers.get('content-length')).toBe('0')
      expect(
        (await (await server.request('GET', `${API}/system/confvar/trace_sql`)).json()).value,
      ).toBe('true')
      const cleared = await server.request('DELETE', `${API}/system/confvar`)
      expect(cleared.status).toBe(200)
      expect(
        (await (await server.request('GET', `${API}/system/confvar/trace_sql`)).json()).value,
      ).toBe('false')
    })

    it('answers 400 ERR1012 for a value outside the allowed list', async () => {
      const res = await server.request('POST', `${API}/system/confvar/log_level`, {
        body: { value: 'loud' },
      })
      expect(res.status).toBe(400)
      const body = await res.json()
      expect(body.error_code).toBe('ERR1012')
      expect(body.message).toContain('debug, info, warn, error')
    })

    it('answers 404 ERR9006 for an unknown variable', async () => {
      const res = await server.request('GET', `${API}/system/confvar/nope`)
      expect(res.status).toBe(404)
      expect(await res.json()).toMatchObject({ error_code: 'ERR9006', context: { name: 'nope' } })
    })
  })

  it.each([
    [500, 'ERR1000'],
    [404, 'ERR1004'],
    [503, 'ERR1009'],
  ])('triggers a %i error on request', async (status, code) => {
    const res = await server.request('POST', `${API}/system/debug/error/trigger`, {
      body: { status },
    })
    expect(res.status).toBe(status)
    expect((await res.json()).error_code).toBe(code)
  })
})
