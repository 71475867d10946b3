// test/helpers/pgbouncer.ts: starts a real PgBouncer in transaction pooling in front of the test PostgreSQL
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import pg from 'pg'

const CANDIDATES = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer', '/usr/local/bin/pgbouncer']

/**
 * The pgbouncer binary, or undefined (with the reason printed) on a developer machine without
 * it. In CI a missing PgBouncer fails the run loudly (`.ci/run` installs Debian's).
 */
export function findPgbouncer(): string | undefined {
  const found = CANDIDATES.find((path) => existsSync(path))
  if (found !== undefined) return found
  const reason = 'pgbouncer is not installed (apt-get install pgbouncer)'
  if (process.env.CI) throw new Error(`${reason}; CI requires it`)
  console.warn(`Skipping PgBouncer tests: ${reason}`)
  return undefined
}

/** The version line of the binary, e.g. `PgBouncer 1.18.0`. */
export function pgbouncerVersion(binary: string): string {
  return execFileSync(binary, ['--version'], { encoding: 'utf8' }).split('\n')[0] ?? ''
}

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise((resolve) => server.close(resolve))
  if (address === null || typeof address === 'string') throw new Error('no port')
  return address.port
}

export type Bouncer = {
  readonly host: string
  readonly port: number
  /** The pgbouncer process (setpriv runs it in its own place), for its CPU time. */
  readonly pid: number | undefined
  /** What PgBouncer printed (its log goes to stderr). */
  output(): string
  stop(): Promise<void>
}

export type BouncerOptions = Readonly<{
  binary: string
  /** The PostgreSQL server and the one database PgBouncer serves under the same name. */
  target: Readonly<{ host: string; port: number; user: string; database: string }>
  /** Server connections per database and user (default 8). */
  poolSize?: number
}>

function iniText(options: BouncerOptions, port: number, dir: string): string {
  const { target } = options
  return `[databases]
${target.database} = host=${target.host} port=${target.port} dbname=${target.database} user=${target.user}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${port}
unix_socket_dir =
auth_type = trust
auth_file = ${join(dir, 'userlist.txt')}
pool_mode = transaction
default_pool_size = ${options.poolSize ?? 8}
max_client_conn = 1000
server_round_robin = 0
ignore_startup_parameters = extra_float_digits,options
`
}

/** PgBouncer refuses to run as root: as root, it runs as the `postgres` user. */
function launch(binary: string, ini: string): ChildProcess {
  const asRoot = process.getuid?.() === 0
  const [command, args] = asRoot
    ? ['setpriv', ['--reuid=postgres', '--regid=postgres', '--init-groups', binary, ini]]
    : [binary, [ini]]
  return spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] })
}

async function waitUntilServing(bouncer: Bouncer, database: string, user: string): Promise<void> {
  const deadline = Date.now() + 10_000
  for (;;) {
    const client = new pg.Client({ host: bouncer.host, port: bouncer.port, database, user })
    try {
      await client.connect()
      await client.query('SELECT 1')
      return
    } catch (error) {
      if (Date.now() > deadline)
        throw new Error(`PgBouncer did not serve: ${(error as Error).message}\n${bouncer.output()}`)
      await sleep(100)
    } finally {
      await client.end().catch(() => {})
    }
  }
}

/** Starts PgBouncer on an ephemeral port with its own configuration in a temporary directory. */
export async function startPgbouncer(options: BouncerOptions): Promise<Bouncer> {
  const dir = await mkdtemp(join(tmpdir(), 'strongroom-pgbouncer-'))
  await chmod(dir, 0o755)
  const port = await freePort()
  const ini = join(dir, 'pgbouncer.ini')
  await writeFile(join(dir, 'userlist.txt'), `"${options.target.user}" ""\n`, { mode: 0o644 })
  await writeFile(ini, iniText(options, port, dir), { mode: 0o644 })
  const child = launch(options.binary, ini)
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const bouncer: Bouncer = {
    host: '127.0.0.1',
    port,
    pid: child.pid,
    output: () => output,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM')
      await exited
      await rm(dir, { recursive: true, force: true })
    },
  }
  try {
    await waitUntilServing(bouncer, options.target.database, options.target.user)
  } catch (error) {
    await bouncer.stop()
    throw error
  }
  return bouncer
}
