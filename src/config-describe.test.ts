// src/config-describe.test.ts: describeConfig (GET /system/info/configuration) and .env.example against config.ts
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { dev } from '../test/helpers/config.ts'
import { CONFIG_VARIABLES, type Config, type Env, loadConfig } from './config.ts'
import { describeConfig } from './config-describe.ts'

describe('describeConfig', () => {
  const secrets = {
    SVC_BACKING_STORE: 'postgres',
    SVC_DB_PASSWORD: 'db-secret',
    SVC_KMS_SEED: 'seed-secret',
    SVC_KMS_EXPORT_SEED: 'export-secret',
    SVC_SERVICE_ADMIN_API_KEY: 'admin-secret',
    SVC_SERVICE_LICENSE: 'license-secret',
  }
  const section = (config: Config, name: string) =>
    describeConfig(config)[name] as Record<string, unknown>

  it('masks every secret by default', () => {
    const body = describeConfig(dev(secrets))
    expect(JSON.stringify(body)).not.toMatch(/-secret/)
    expect(body).toMatchObject({
      db: { password: '***' },
      kms: { seed: '***', export_seed: '***' },
      service: { admin_api_key: '***', license: '***' },
    })
  })

  it('shows secrets other than the Admin key when SVC_DB_MASK_CONFIG is false', () => {
    const body = describeConfig(dev({ ...secrets, SVC_DB_MASK_CONFIG: 'false' }))
    expect(body).toMatchObject({
      db: { password: 'db-secret' },
      kms: { seed: 'seed-secret', export_seed: 'export-secret' },
      service: { admin_api_key: '***', license: 'license-secret' },
    })
  })

  it('gives durations in seconds, lists joined, -1 for never', () => {
    const config = dev({
      SVC_SERVICE_LISTEN_ADDR: '[::1]:8123',
      SVC_EXPIRATION_TOKENS: '60',
      SVC_SERVICE_ALLOW_ORIGINS: '*',
    })
    expect(section(config, 'service')).toMatchObject({
      listen_addr: '[::1]:8123',
      timeout_seconds: 30,
      cache_refresh_interval: 30,
      archive_prune_timeout: 60,
      components: 'data,control',
      allow_origins: '*',
    })
    expect(section(config, 'db')).toMatchObject({ gc: { retention_period: 2_592_000 } })
    expect(section(config, 'expiration')).toEqual({
      associated_objects: -1,
      tokens: 60,
      unassociated_objects: -1,
    })
    expect(section(config, 'log')).toMatchObject({ datadog_enable: 'false' })
  })

  it('has every key of the published client model', () => {
    const body = describeConfig(dev())
    expect(Object.keys(body).sort()).toEqual(
      // `sandbox` (SVC_SANDBOX_*) is a project addition; the client model ignores it.
      'backing_store db devmode expiration features generate_secrets kms log sandbox sentry service tls'.split(
        ' ',
      ),
    )
    for (const [name, keys] of Object.entries(MODEL_KEYS)) {
      expect(Object.keys(section(dev(), name))).toEqual(expect.arrayContaining(keys.split(' ')))
    }
  })
})

const MODEL_KEYS = {
  db: 'conn_max_lifetime_minutes gc hostname mask_config max_idle_conns max_open_conns max_string_length max_blob_length max_token_tags migration name password port require_tls trace_sql user',
  features:
    'encryption mask_license disable_docs disable_javascript disable_idp_jwks disable_cc_luhn_validation anti_tampering api_key_hashing policy_enforcement analysis',
  kms: 'seed uri export_seed export_uri allow_local',
  log: 'customer_env customer_identifier customer_region datadog_enable level audit_enable audit_remote_addr_xff audit_remote_addr_enable audit_disable_delete_tokens destination',
  sentry: 'enable',
  service:
    'admin_api_key override_admin_api_key_on_restart allow_origins admin_may_read_data components worker_priority pci_restrictions default_page_size set_iam_on_start_only update_schema_on_start force_access_reason listen_addr max_page_size max_pagination_remaining_count timeout_seconds cache_refresh_interval cache_refresh_timeout archive_prune_interval archive_prune_timeout substring_index_refresh_interval license allowed_http_destinations allowed_pci_http_destinations actions_http_call_role',
  tls: 'cert_file enable key_file selfsigned',
  expiration: 'associated_objects tokens unassociated_objects',
}

describe('.env.example', () => {
  const text = readFileSync(new URL('../.env.example', import.meta.url), 'utf8')
  const documented = new Set(text.match(/\bSVC_[A-Z0-9_]+/g))

  it('names only variables config.ts knows', () => {
    expect([...documented].filter((name) => !CONFIG_VARIABLES.includes(name))).toEqual([])
  })

  it('lists every variable config.ts knows', () => {
    expect(CONFIG_VARIABLES.filter((name) => !documented.has(name))).toEqual([])
  })

  it('matches what loadConfig actually reads', () => {
    const read = new Set<string>()
    const env = new Proxy<Env>(
      {},
      {
        get: (_target, key) => {
          if (typeof key === 'string' && key.startsWith('SVC_')) read.add(key)
          return undefined
        },
      },
    )
    loadConfig(env, { devmode: true, files: false })
    expect([...read].sort()).toEqual([...CONFIG_VARIABLES].sort())
  })
})
