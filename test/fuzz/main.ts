// test/fuzz/main.ts: `npm run fuzz [-- --requests N --minutes M --engine sqlite|postgres --seed S --service-log]`
// Fuzzes a service started as its own process, so its memory is measured apart from the fuzzer's.
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { parseArgs } from 'node:util'
import { createTestDatabase, findTestPostgres } from '../helpers/postgres.ts'
import { ADMIN_KEY } from '../helpers/server.ts'
import { describeFinding, runFuzz } from './run-fuzz.ts'

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '150000' },
    minutes: { type: 'string', default: '40' },
    engine: { type: 'string', default: 'sqlite' },
    seed: { type: 'string', default: '20261125' },
    concurrency: { type: 'string', default: '16' },
    // The service's own log lines (each 5xx with its cause) on this run's output.
    'service-log': { type: 'boolean', default: false },
  },
})

const print = (line: string) => process.stdout.write(`${line}\n`)

async function freePort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const address = probe.address()
  await new Promise((resolve) => probe.close(resolve))
  return typeof address === 'object' && address !== null ? address.port : 0
}

/** The resident set of a process in MB, from /proc (Linux). */
function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/)
  return line === null ? Number.NaN : Number(line[1]) / 1024
}

async function databaseEnv(engine: string) {
  if (engine !== 'postgres') return { env: { SVC_BACKING_STORE: 'sqlite' }, drop: async () => {} }
  const url = await findTestPostgres()
  if (url === undefined) throw new Error('set SVC_TEST_DATABASE_URL to fuzz on PostgreSQL')
  const { options, drop } = await createTestDatabase(url)
  const env = {
    SVC_BACKING_STORE: 'postgres',
    SVC_DB_HOSTNAME: options.host,
    SVC_DB_PORT: String(options.port),
    SVC_DB_NAME: options.database,
    SVC_DB_USER: options.user,
    SVC_DB_PASSWORD: options.password,
  }
  return { env, drop }
}

const dataDir = mkdtempSync(join(tmpdir(), 'strongroom-fuzz-'))
const port = await freePort()
const database = await databaseEnv(values.engine ?? 'sqlite')
const child: ChildProcess = spawn(process.execPath, ['bin/strongroom.js', 'serve', '--dev'], {
  env: {
    // biome-ignore lint/style/noProcessEnv: the child needs the PATH it was started with
    PATH: process.env.PATH,
    SVC_DATA_DIR: dataDir,
    SVC_SERVICE_LISTEN_ADDR: `127.0.0.1:${port}`,
    SVC_LOG_LEVEL: 'error',
    SVC_LOG_AUDIT_SINK: 'database',
    ...database.env,
  },
  stdio: ['ignore', values['service-log'] ? 'inherit' : 'ignore', 'inherit'],
})
const baseUrl = `http://127.0.0.1:${port}`
const health = async () => {
  try {
    return (await fetch(`${baseUrl}/api/pvlt/1.0/data/info/health`)).status
  } catch {
    return 0
  }
}
let hasExited = false
child.once('exit', () => {
  hasExited = true
})
while ((await health()) !== 200) {
  if (hasExited) throw new Error('the service did not start (its error is above)')
  await sleep(200)
}
const pid = child.pid ?? 0
const rssBefore = rssMb(pid)
const started = Date.now()
const stats = await runFuzz({
  baseUrl,
  adminKey: ADMIN_KEY,
  requests: Number(values.requests),
  deadline: started + Number(values.minutes) * 60_000,
  seed: Number(values.seed),
  concurrency: Number(values.concurrency),
  heavyLimit: 40,
})
const seconds = (Date.now() - started) / 1000
const rssEnd = rssMb(pid)
// Idle: the node gives memory back 3–4 s after its work stops (src/app-memory.ts); what it
// still holds after that is what stays.
await sleep(10_000)
const rssAfter = rssMb(pid)
const healthStatus = await health()
const exited = new Promise((resolve) => child.once('exit', resolve))
child.kill('SIGTERM')
await exited
await database.drop()
rmSync(dataDir, { recursive: true, force: true })

print(`engine ${values.engine}, seed ${values.seed}, ${stats.operations} operations`)
print(
  `requests ${stats.requests} in ${seconds.toFixed(0)} s (${(stats.requests / seconds).toFixed(0)}/s)`,
)
print(
  `5xx ${stats.serverErrors}, malformed error bodies ${stats.malformedBodies}, no answer ${stats.hangs}, sent again after a closed connection ${stats.resent}`,
)
print(`statuses ${JSON.stringify(stats.byStatus)}`)
print(
  `service RSS before ${rssBefore.toFixed(0)} MB, at the end ${rssEnd.toFixed(0)} MB, idle 10 s later ${rssAfter.toFixed(0)} MB; health ${healthStatus}`,
)
const slowest = Object.entries(stats.msByOperation)
  .sort((a, b) => b[1] - a[1])
  .slice(0, 6)
  .map(([id, ms]) => `${id} ${(ms / 1000).toFixed(0)} s`)
print(`time waited, slowest operations: ${slowest.join(', ')}`)
for (const finding of stats.findings) print(`  ${describeFinding(finding)}`)
const failed = stats.serverErrors + stats.malformedBodies + stats.hangs > 0 || healthStatus !== 200
process.exit(failed ? 1 : 0)
