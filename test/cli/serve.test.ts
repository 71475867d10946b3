// test/cli/serve.test.ts: `strongroom serve` and `strongroom migrate` as real processes
import { mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, describe, expect, it } from 'vitest'
import { logLines, runCli, startCli } from '../helpers/cli.ts'
import { findTestPostgres } from '../helpers/postgres.ts'
import { fetchJson, sharedPostgres } from '../helpers/server.ts'

const dir = await mkdtemp(join(tmpdir(), 'strongroom-cli-'))
const pgUrl = await findTestPostgres()
const drops: (() => Promise<void>)[] = []
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
  for (const drop of drops) await drop()
})

describe('strongroom serve', () => {
  it('serves health on the embedded database, prints the store and the dev key, and stops on SIGTERM', async () => {
    const running = await startCli(['serve', '--dev'], { SVC_DATA_DIR: join(dir, 'dev') })
    const res = await fetchJson(`${running.address}/api/pvlt/1.0/data/info/health`)
    expect(await res.json()).toEqual({ status: 'pass' })
    expect(running.output()).toContain(`Store: SQLite ${join(dir, 'dev', 'strongroom.db')}`)
    expect(running.output()).toContain('Admin API key is pvaultauth')
    expect(await running.stop('SIGTERM')).toBe(0)
    expect((await stat(join(dir, 'dev', 'strongroom.db'))).isFile()).toBe(true)
  })

  it('stops cleanly on SIGINT', async () => {
    const running = await startCli(['serve', '--dev'], { SVC_BACKING_STORE: 'memory' })
    expect(running.output()).toContain('SQLite in memory')
    expect(await running.stop('SIGINT')).toBe(0)
  })

  it('refuses to start with every configuration problem listed, naming each variable', async () => {
    const { code, output } = await runCli(['serve', '--dev'], {
      SVC_LOG_LEVEL: 'loud',
      SVC_SERVICE_MAX_PAGE_SIZE: 'many',
      SVC_BACKING_STORE: 'memory',
    })
    expect(code).toBe(2)
    expect(output).toContain('SVC_LOG_LEVEL')
    expect(output).toContain('debug, info, warn, error')
    expect(output).toContain('SVC_SERVICE_MAX_PAGE_SIZE')
  })

  it('refuses to start in server mode without a usable KMS', async () => {
    const { code, output } = await runCli(['serve'], {
      SVC_BACKING_STORE: 'memory',
      SVC_TLS_ENABLE: 'false',
    })
    expect(code).toBe(2)
    expect(output).toContain('SVC_KMS')
  })

  it('refuses a cloud KMS URI it has no client for, naming the variable', async () => {
    const { code, output } = await runCli(['serve', '--dev'], {
      SVC_BACKING_STORE: 'memory',
      SVC_KMS_URI: 'aws-kms://arn:aws:kms:eu-west-1:111122223333:key/abc',
    })
    expect(code).toBe(1)
    expect(output).toContain('SVC_KMS_URI')
  })

  it('starts with every value the vendor tooling passes to SVC_LOG_DATADOG_ENABLE; warns on others', async () => {
    // What the test-container helper passes on every start; the other values: src/config.test.ts.
    const running = await startCli(['serve', '--dev'], {
      SVC_BACKING_STORE: 'memory',
      SVC_LOG_DATADOG_ENABLE: 'none',
    })
    expect(await running.stop()).toBe(0)
    expect(running.output()).not.toContain('SVC_LOG_DATADOG_ENABLE')
    const odd = await startCli(['serve', '--dev'], {
      SVC_BACKING_STORE: 'memory',
      SVC_LOG_DATADOG_ENABLE: 'traces',
      SVC_SENTRY_ENABLE: 'maybe',
    })
    expect(await odd.stop()).toBe(0)
    const warnings = logLines(odd.output()).filter((line) => line.level === 'warn')
    expect(warnings.map((line) => line.msg)).toEqual([
      expect.stringMatching(
        /^SVC_LOG_DATADOG_ENABLE: "traces" is not one of none, logs, .*ignored$/,
      ),
      expect.stringMatching(/^SVC_SENTRY_ENABLE: "maybe" is not a boolean .*ignored$/),
    ])
  })

  it('refuses server mode with the dev Admin key or a short KMS seed, saying how to make good ones', async () => {
    const { code, output } = await runCli(['serve'], {
      SVC_BACKING_STORE: 'memory',
      SVC_TLS_ENABLE: 'false',
      SVC_KMS_ALLOW_LOCAL: 'true',
      SVC_KMS_SEED: 'seed',
    })
    expect(code).toBe(2)
    expect(output).toContain('server mode refuses the dev Admin key pvaultauth')
    expect(output).toContain('at least 32 characters (4 given)')
    expect(output).toContain('openssl rand -base64 32')
  })

  it('refuses stateless mode without its configuration directory', async () => {
    const missing = join(dir, 'no-such-conf')
    const { code, output } = await runCli(['serve', '--dev'], {
      SVC_BACKING_STORE: 'none',
      SVC_CONFIG_DIR: missing,
    })
    expect(code).toBe(2)
    expect(output).toContain(
      `${missing}: the configuration directory (SVC_CONFIG_DIR) does not exist`,
    )
  })
})

describe('strongroom migrate', () => {
  it('applies migrations once and then reports the schema up to date', async () => {
    const env = { SVC_DATA_DIR: join(dir, 'migrate') }
    const first = await runCli(['migrate', '--dev'], env)
    expect(first.code).toBe(0)
    expect(first.output).toMatch(/Applied migrations 1/)
    const second = await runCli(['migrate', '--dev'], env)
    expect(second.output).toMatch(/up to date/)
  })

  it('says in one line that a command is unknown, and exits 2', async () => {
    const { code, output } = await runCli(['frobnicate'], {})
    expect(code).toBe(2)
    expect(output.trim().split('\n')).toEqual([
      'strongroom: unknown command frobnicate; the commands are serve, migrate, audit (see strongroom --help)',
    ])
  })
})

describe('strongroom serve when PostgreSQL cannot be reached', () => {
  it('says where it connects, retries visibly and gives up in time, naming what it tried', async () => {
    const { code, output } = await runCli(['serve', '--dev'], {
      SVC_BACKING_STORE: 'postgres',
      SVC_DB_HOSTNAME: '127.0.0.1',
      SVC_DB_PORT: '1',
      SVC_DB_CONNECT_TIMEOUT: '1500ms',
      SVC_LOG_LEVEL: 'error',
    })
    expect(code).toBe(1)
    const lines = logLines(output)
    expect(lines[0]?.msg).toBe(
      'Connecting to PostgreSQL at 127.0.0.1:1 (user pvault, database pvault)',
    )
    const retries = lines.filter((line) => line.level === 'warn')
    expect(retries.length).toBeGreaterThan(0)
    expect(retries[0]?.msg).toMatch(/failed \(attempt 1: .*ECONNREFUSED.*\); retrying in/)
    const fatal = lines.find((line) => line.level === 'fatal')
    expect(fatal?.msg).toMatch(
      /cannot connect to PostgreSQL at 127.0.0.1:1 \(user pvault, database pvault\) within 1.5 s: .*ECONNREFUSED.*SVC_DB_HOSTNAME/,
    )
  })

  it.skipIf(pgUrl === undefined)(
    'names the cause the server gives, such as a missing role',
    async () => {
      const url = new URL(pgUrl as string)
      const { code, output } = await runCli(['migrate'], {
        SVC_BACKING_STORE: 'postgres',
        SVC_DB_HOSTNAME: url.hostname,
        SVC_DB_PORT: url.port || '5432',
        SVC_DB_USER: 'no_such_role',
        SVC_DB_CONNECT_TIMEOUT: '1s',
        SVC_DB_REQUIRE_TLS: 'false',
        SVC_KMS_SEED: 'x'.repeat(32),
        SVC_SERVICE_ADMIN_API_KEY: 'Test-admin-key-0123456789',
        SVC_TLS_ENABLE: 'false',
        SVC_KMS_ALLOW_LOCAL: 'true',
      })
      expect(code).toBe(1)
      expect(output).toContain(`Connecting to PostgreSQL at ${url.hostname}:${url.port || '5432'}`)
      expect(output).toMatch(/role "no_such_role" does not exist/)
    },
  )
})

describe.skipIf(pgUrl === undefined)('strongroom serve on PostgreSQL', () => {
  it('starts two nodes on one fresh database at once; both migrate safely and serve', async () => {
    const { env, drop } = await sharedPostgres()
    drops.push(drop)
    const nodes = await Promise.all([
      startCli(['serve', '--dev'], env),
      startCli(['serve', '--dev'], env),
    ])
    for (const node of nodes) {
      const res = await fetchJson(`${node.address}/api/pvlt/1.0/system/info/version`, {
        headers: { authorization: 'Bearer pvaultauth' },
      })
      expect((await res.json()).db_schema_version).toBeGreaterThanOrEqual(1)
      expect(node.output()).toContain(`Store: PostgreSQL ${env.SVC_DB_USER}@${env.SVC_DB_HOSTNAME}`)
    }
    const [first] = nodes
    const cluster = await fetchJson(`${first?.address}/api/pvlt/1.0/ctl/info/cluster`, {
      headers: { authorization: 'Bearer pvaultauth' },
    })
    expect((await cluster.json()).workers).toHaveLength(2)
    expect(await Promise.all(nodes.map((node) => node.stop()))).toEqual([0, 0])
  })
})

describe('strongroom serve options', () => {
  it('generates an Admin key once with SVC_GENERATE_SECRETS and keeps it across restarts', async () => {
    const env = { SVC_DATA_DIR: join(dir, 'secrets'), SVC_GENERATE_SECRETS: 'true' }
    const first = await startCli(['serve', '--dev'], env)
    // The key line follows the lines startCli waits for; it may arrive in a later chunk.
    const keyLine = /Generated Admin API key[^:]*: ([A-Za-z0-9_-]+)/
    for (let i = 0; i < 100 && !keyLine.test(first.output()); i++) await sleep(50)
    const key = keyLine.exec(first.output())?.[1]
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const version = `${first.address}/api/pvlt/1.0/system/info/version`
    expect((await fetch(version, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200)
    expect((await fetch(version, { headers: { authorization: 'Bearer pvaultauth' } })).status).toBe(
      401,
    )
    expect(await first.stop()).toBe(0)
    expect((await stat(join(dir, 'secrets', 'secrets.json'))).mode & 0o777).toBe(0o600)
    const second = await startCli(['serve', '--dev'], env)
    expect(second.output()).not.toContain('Generated Admin API key')
    const again = `${second.address}/api/pvlt/1.0/system/info/version`
    expect((await fetch(again, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200)
    expect(await second.stop()).toBe(0)
  })

  it('logs SQL statements with SVC_DB_TRACE_SQL and not without it', async () => {
    const traced = await startCli(['serve', '--dev'], {
      SVC_BACKING_STORE: 'memory',
      SVC_DB_TRACE_SQL: 'true',
      SVC_LOG_LEVEL: 'info',
    })
    await fetch(`${traced.address}/api/pvlt/1.0/system/info/version`, {
      headers: { authorization: 'Bearer pvaultauth' },
    })
    await traced.stop()
    expect(traced.output()).toMatch(/"msg":"sql"/)
    expect(traced.output()).toMatch(/schema_migrations/)
    const quiet = await startCli(['serve', '--dev'], {
      SVC_BACKING_STORE: 'memory',
      SVC_LOG_LEVEL: 'info',
    })
    await fetch(`${quiet.address}/api/pvlt/1.0/system/info/version`, {
      headers: { authorization: 'Bearer pvaultauth' },
    })
    await quiet.stop()
    expect(quiet.output()).not.toMatch(/"msg":"sql"/)
  })
})
