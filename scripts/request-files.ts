// scripts/request-files.ts: lists the src files whose functions one request runs (tokenize, like search, IAM configuration)
//
//   npx node scripts/request-files.ts [--store sqlite|postgres] [--json]
//
// Method: the app runs in this process on a fresh SQLite file (or, with `--store postgres`, on the
// database SVC_TEST_DATABASE_URL names); V8's precise coverage (inspector, function granularity,
// call counts) is reset after a warm-up of each request kind, one request of that kind goes
// through Fastify's `inject` (routing, hooks, auth, validation, handler, service, repositories,
// SQL driver), and every file under src/ with a function that ran is listed. Timers and
// background jobs are pushed out of the way so they do not run during the measured request.

import { mkdtempSync, rmSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createApp } from '../src/app.ts'
import { loadConfig } from '../src/config.ts'

const SRC = resolve(import.meta.dirname, '../src')
const args = process.argv.slice(2)
const store = args.includes('--store') ? args[args.indexOf('--store') + 1] : 'sqlite'
const asJson = args.includes('--json')
const AUTH = { authorization: 'Bearer pvaultauth' }
const API = '/api/pvlt/1.0'

function postgresEnv(): Record<string, string> {
  const url = new URL(
    process.env.SVC_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  )
  return {
    SVC_DB_HOSTNAME: url.hostname,
    SVC_DB_PORT: url.port || '5432',
    SVC_DB_NAME: url.pathname.slice(1) || 'postgres',
    SVC_DB_USER: decodeURIComponent(url.username) || 'postgres',
    SVC_DB_PASSWORD: decodeURIComponent(url.password),
    SVC_DB_MIGRATION_ENABLE_CLEAN_DATABASE_VALIDATION: 'false',
  }
}

const dataDir = mkdtempSync(join(tmpdir(), 'strongroom-request-files-'))
const config = loadConfig(
  {
    SVC_BACKING_STORE: store === 'postgres' ? 'postgres' : 'sqlite',
    SVC_DATA_DIR: dataDir,
    SVC_SERVICE_LISTEN_ADDR: '127.0.0.1:0',
    SVC_LOG_LEVEL: 'error',
    SVC_LOG_AUDIT_SINK: 'database',
    SVC_SERVICE_CACHE_REFRESH_INTERVAL: '1h',
    SVC_SERVICE_SUBSTRING_INDEX_REFRESH_INTERVAL: '1h',
    SVC_SERVICE_ARCHIVE_PRUNE_INTERVAL: '0',
    ...(store === 'postgres' ? postgresEnv() : {}),
  },
  { devmode: true, files: false },
)
const app = await createApp(config, { isLogSilent: true })
await app.server.ready()

async function call(method: 'GET' | 'POST', url: string, payload?: unknown, type = 'json') {
  const headers = { ...AUTH, 'content-type': `application/${type}` }
  const body = typeof payload === 'string' ? payload : JSON.stringify(payload)
  const res = await app.server.inject({ method, url: `${API}${url}`, headers, payload: body })
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`)
  return res
}

const suffix = Date.now().toString(36)
const collection = `people_${suffix}`
await call('POST', '/ctl/collections', {
  name: collection,
  type: 'PERSONS',
  properties: [
    { name: 'name', data_type_name: 'NAME', is_substring_index: true },
    { name: 'ssn', data_type_name: 'SSN', is_unique: true },
    { name: 'email', data_type_name: 'EMAIL', is_index: true, is_nullable: true },
  ],
})
let n = 0
const ssn = () =>
  `${String(100 + (n % 800)).padStart(3, '0')}-${String(10 + (n % 80))}-${String(1000 + n++)}`
for (let i = 0; i < 20; i++)
  await call('POST', `/data/collections/${collection}/objects?reason=AppFunctionality`, {
    name: `Person ${i} Smith`,
    ssn: ssn(),
    email: `p${i}@example.com`,
  })

const IAM = `
[users.Reader]
role = "Reader"
[roles.Reader]
capabilities = ["CapDataReader"]
policies = ["ReadAll"]
[policies.ReadAll]
policy_type = "allow"
operations = ["read"]
reasons = ["AppFunctionality"]
resources = ["*"]
`

const REQUESTS: Record<string, () => Promise<unknown>> = {
  tokenize: () =>
    call('POST', `/data/collections/${collection}/tokens?reason=AppFunctionality`, [
      { type: 'randomized', object: { fields: { name: 'Ann Smith', ssn: ssn() } } },
    ]),
  'like search': () =>
    call(
      'POST',
      `/data/collections/${collection}/query/objects?reason=AppFunctionality&props=name`,
      { like: { name: '*son 1* smith*' } },
    ),
  'apply IAM configuration': () => call('POST', '/ctl/iam/conf', IAM, 'toml'),
}

const session = new Session()
session.connect()
await session.post('Profiler.enable')
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false })

function srcFiles(result: Awaited<ReturnType<typeof takeCoverage>>): string[] {
  const files = new Set<string>()
  for (const script of result.result) {
    if (!script.url.startsWith('file:')) continue
    const path = fileURLToPath(script.url)
    if (!path.startsWith(`${SRC}/`)) continue
    if (script.functions.some((f) => f.ranges.some((r) => r.count > 0)))
      files.add(relative(SRC, path))
  }
  return [...files].sort()
}

const takeCoverage = () => session.post('Profiler.takePreciseCoverage')

const report: Record<string, string[]> = {}
for (const [name, request] of Object.entries(REQUESTS)) {
  for (let i = 0; i < 5; i++) await request()
  await takeCoverage() // resets the counters
  await request()
  report[name] = srcFiles(await takeCoverage())
}
await session.post('Profiler.stopPreciseCoverage')
session.disconnect()
await app.close()
rmSync(dataDir, { recursive: true, force: true })

if (asJson) console.log(JSON.stringify({ store, files: report }, null, 2))
else
  for (const [name, files] of Object.entries(report)) {
    console.log(`${name} (${store}): ${files.length} src files`)
    for (const file of files) console.log(`  ${file}`)
  }
