// bench/server.ts: runs a Strongroom node in a child process (its own core), as `strongroom serve` would
import { type ChildProcess, spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'

export type Engine = 'sqlite' | 'postgres'

export type BenchServer = {
  readonly baseUrl: string
  readonly engine: Engine
  /** SQLite: the database file; PostgreSQL: the database name. */
  readonly database: string
  readonly pgUrl: string
  /** The node's process id. */
  readonly pid: number | undefined
  /** Resident set size of the node in bytes (VmRSS from /proc); undefined where /proc is missing. */
  rssBytes(): number | undefined
  /** CPU seconds (user + system) the node has used so far; undefined where /proc is missing. */
  cpuSeconds(): number | undefined
  /** The same for the node's main thread alone (its event loop; no worker or helper threads). */
  mainThreadCpuSeconds(): number | undefined
  /** PostgreSQL: CPU seconds of every PostgreSQL process on this machine (backends, WAL writer, checkpointer). */
  databaseCpuSeconds(): number | undefined
  stop(): Promise<void>
}

const ROOT = new URL('..', import.meta.url).pathname
const TICKS_PER_SECOND = 100

/**
 * utime + stime of a process from /proc/<pid>/stat (Linux), in seconds; of its main thread alone
 * from /proc/<pid>/task/<pid>/stat.
 */
export function processCpuSeconds(pid: number | undefined, thread = false): number | undefined {
  if (pid === undefined) return undefined
  try {
    const stat = readFileSync(
      thread ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`,
      'utf8',
    )
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND
  } catch {
    return undefined
  }
}
function processRss(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return match?.[1] === undefined ? undefined : Number(match[1]) * 1024
  } catch {
    return undefined
  }
}

/**
 * The CPU seconds of each process named `postgres` (the local server's), from /proc; with
 * `database`, only the backends connected to it (their title names it), so that other work on a
 * shared server is left out (and with it the WAL writer and checkpointer).
 */
export function postgresCpuByProcess(database?: string): Map<number, number> | undefined {
  const seconds = new Map<number, number>()
  const isOurs = (pid: string) =>
    database === undefined || readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(` ${database} `)
  try {
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue
      try {
        if (readFileSync(`/proc/${pid}/comm`, 'utf8').startsWith('postgres') && isOurs(pid))
          seconds.set(Number(pid), processCpuSeconds(Number(pid)) ?? 0)
      } catch {
        // The process ended meanwhile.
      }
    }
  } catch {
    return undefined
  }
  return seconds
}

/** The summed CPU seconds of the processes named `postgres` (the local server's), from /proc. */
function postgresCpuSeconds(): number | undefined {
  const seconds = postgresCpuByProcess()
  return seconds && [...seconds.values()].reduce((sum, value) => sum + value, 0)
}

export const PG_URL =
  process.env.SVC_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'

export async function pgAdmin(sql: string, url = PG_URL): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(sql)
  } finally {
    await client.end()
  }
}

function pgEnv(database: string): Record<string, string> {
  const url = new URL(PG_URL)
  return {
    SVC_BACKING_STORE: 'postgres',
    SVC_DB_HOSTNAME: url.hostname,
    SVC_DB_PORT: url.port || '5432',
    SVC_DB_NAME: database,
    SVC_DB_USER: decodeURIComponent(url.username || 'postgres'),
    SVC_DB_PASSWORD: decodeURIComponent(url.password),
  }
}

function waitForListening(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      // BENCH_NODE_STDOUT=1: the node's log lines (errors with their causes) on this stderr.
      if (process.env.BENCH_NODE_STDOUT) process.stderr.write(chunk)
      const match = /"address":"([^"]+)"/.exec(output)
      if (match?.[1]) resolve(match[1])
    })
    child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(chunk))
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${output}`)))
  })
}

/**
 * Starts a node on a fresh SQLite file or a fresh PostgreSQL database; `env` adds SVC_* settings.
 * `shared` names an existing PostgreSQL database instead (several nodes on one database), which
 * the node neither creates nor drops.
 */
export async function startBenchServer(
  engine: Engine,
  env: Record<string, string> = {},
  shared?: string,
): Promise<BenchServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'strongroom-bench-'))
  const isFresh = engine === 'postgres' && shared === undefined
  const database =
    engine === 'sqlite'
      ? join(dataDir, 'strongroom.db')
      : (shared ?? `strongroom_bench_${Date.now()}`)
  if (isFresh) await pgAdmin(`CREATE DATABASE ${database}`)
  // BENCH_PROFILE=<dir> writes a CPU profile of the node (node --cpu-prof) when it stops.
  const profile = process.env.BENCH_PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`]
    : []
  const child = spawn(process.execPath, [...profile, 'src/cli/main.ts', 'serve', '--dev'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      // glibc malloc tuning (MALLOC_ARENA_MAX, MALLOC_TRIM_THRESHOLD_, …) reaches the node.
      ...Object.fromEntries(
        Object.entries(process.env).filter(([name]) => name.startsWith('MALLOC_')),
      ),
      SVC_DATA_DIR: dataDir,
      SVC_CONFIG_DIR: join(dataDir, 'conf'),
      SVC_BACKING_STORE: 'sqlite',
      SVC_SERVICE_LISTEN_ADDR: '127.0.0.1:0',
      SVC_LOG_LEVEL: 'error',
      SVC_LOG_AUDIT_SINK: 'database',
      ...(engine === 'postgres' ? pgEnv(database) : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const baseUrl = await waitForListening(child)
  return {
    baseUrl,
    engine,
    database,
    pgUrl: PG_URL.replace(/\/[^/]*$/, `/${database}`),
    pid: child.pid,
    rssBytes: () => processRss(child.pid),
    cpuSeconds: () => processCpuSeconds(child.pid),
    mainThreadCpuSeconds: () => processCpuSeconds(child.pid, true),
    databaseCpuSeconds: () => (engine === 'postgres' ? postgresCpuSeconds() : undefined),
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      await exited
      if (isFresh) await pgAdmin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}
