// bench/sandbox.ts: bundle code in the sandbox: 1,000-item batches, concurrency, first call, and the node's start-up
// node bench/sandbox.ts                      everything
// node bench/sandbox.ts --scenario batch     transformer / validator+normalizer over 1,000 items
// node bench/sandbox.ts --scenario startup   start-to-health of a node, without and with a bundle
// node bench/sandbox.ts --scenario startup --root /tmp/main,.   before/after (main: git archive main)
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { bundleSource } from '../src/core/bundles/code.ts'
import type { Sandbox, SandboxCall } from '../src/core/bundles/sandbox.ts'
import { createOutbound } from '../src/sandbox/outbound.ts'
import { createQuickJsSandbox } from '../src/sandbox/quickjs-sandbox.ts'

const { values } = parseArgs({
  options: {
    scenario: { type: 'string', default: 'all' },
    rounds: { type: 'string', default: '50' },
    starts: { type: 'string', default: '7' },
    // Checkouts to time the start-up of, comma-separated (e.g. the main branch and this one).
    root: { type: 'string', default: '.' },
  },
})
const ROUNDS = Number(values.rounds)
const ITEMS = 1000

const SCRIPT = `
exports.mask = {
  type: 'transformer',
  handler: (context, object, value) => value.slice(0, 1) + '*'.repeat(Math.max(0, value.length - 5)) + value.slice(-4),
}
exports.isSsn = { type: 'validator', handler: (value) => /^\\d{3}-?\\d{2}-?\\d{4}$/.test(value) }
exports.compact = { type: 'normalizer', handler: (value) => value.replace(/-/g, '') }
exports.spin = { type: 'normalizer', handler: () => { for (;;) {} } }
`
const bundle = bundleSource('bench', SCRIPT)
const ssn = (i: number) =>
  `${String(100 + (i % 800)).padStart(3, '0')}-${String(10 + (i % 89))}-${String(1000 + i).slice(-4)}`

function newSandbox(maxWorkers = 2): Sandbox {
  return createQuickJsSandbox({
    memoryLimitBytes: 64 * 1_048_576,
    timeLimitMs: 1000,
    actionTimeLimitMs: 30_000,
    maxWorkers,
    maxResultBytes: 8 * 1_048_576,
    outbound: createOutbound(),
    fetchDestinations: [],
    log: () => {},
  })
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN
}

/** p50 and p90 of the samples (ms), and the calls per second at p50 when `items` is given. */
function summary(title: string, samples: number[], items?: number): void {
  const sorted = [...samples].sort((a, b) => a - b)
  const p50 = percentile(sorted, 50)
  const p90 = percentile(sorted, 90)
  const rate =
    items === undefined ? '' : `  ${Math.round((items / p50) * 1000).toLocaleString('en')} calls/s`
  console.log(`${title.padEnd(50)} p50 ${p50.toFixed(1)} ms  p90 ${p90.toFixed(1)} ms${rate}`)
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now()
  await work()
  return performance.now() - start
}

async function batches(): Promise<void> {
  const sandbox = newSandbox()
  const transformer: SandboxCall = {
    bundle,
    function: 'mask',
    type: 'transformer',
    shared: [
      {
        user: 'bench',
        role: 'Bench',
        reason: 'AppFunctionality',
        collection: 'people',
        props: { ssn: 'SSN', name: 'NAME' },
        prop: 'ssn',
      },
    ],
    inputs: Array.from({ length: ITEMS }, (_, i) => [{ ssn: ssn(i) }, ssn(i)]),
  }
  const values = Array.from({ length: ITEMS }, (_, i) => [ssn(i)])
  const first = await timed(() => sandbox.call(transformer))
  console.log(`first call (starts a worker, loads the bundle)      ${first.toFixed(0)} ms`)
  for (let i = 0; i < 20; i++) await sandbox.call(transformer)
  const masks: number[] = []
  for (let i = 0; i < ROUNDS; i++) masks.push(await timed(() => sandbox.call(transformer)))
  summary('transformer over 1,000 objects (one entry)', masks, ITEMS)
  const writes: number[] = []
  for (let i = 0; i < ROUNDS; i++) {
    writes.push(
      await timed(async () => {
        await sandbox.call({ bundle, function: 'isSsn', type: 'validator', inputs: values })
        await sandbox.call({ bundle, function: 'compact', type: 'normalizer', inputs: values })
      }),
    )
  }
  summary('validator + normalizer over 1,000 values', writes, 2 * ITEMS)
  const concurrent: number[] = []
  for (let i = 0; i < ROUNDS / 5; i++) {
    concurrent.push(
      await timed(() => Promise.all([1, 2, 3, 4].map(() => sandbox.call(transformer)))),
    )
  }
  summary('4 concurrent transformer batches (2 workers)', concurrent, 4 * ITEMS)
  const beside: number[] = []
  for (let i = 0; i < 5; i++) {
    const spinning = sandbox
      .call({ bundle, function: 'spin', type: 'normalizer', inputs: [[1]] })
      .catch(() => {})
    beside.push(await timed(() => sandbox.call(transformer)))
    await spinning
  }
  summary('transformer batch while another call spins 1 s', beside, ITEMS)
  await sandbox.close()
}

type Start = Readonly<{ ms: number; cpuMs: number }>

/** The CPU time (user + system) the process used so far, from /proc (10 ms resolution). */
function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
  const ticks = Number(fields[11]) + Number(fields[12])
  return (ticks * 1000) / 100
}

/** Launch to the first healthy answer of `strongroom serve --dev` in `root` on `dataDir`. */
async function startToHealth(
  root: string,
  dataDir: string,
  port: number,
  addBundle = false,
): Promise<Start> {
  const start = performance.now()
  const child = spawn(process.execPath, ['bin/strongroom.js', 'serve', '--dev'], {
    cwd: root,
    env: {
      ...process.env,
      SVC_DATA_DIR: dataDir,
      SVC_SERVICE_LISTEN_ADDR: `127.0.0.1:${port}`,
      SVC_LOG_LEVEL: 'error',
    },
    stdio: 'ignore',
  })
  const health = `http://127.0.0.1:${port}/api/pvlt/1.0/data/info/health`
  for (;;) {
    const ok = await fetch(health).then(
      (r) => r.ok,
      () => false,
    )
    if (ok) break
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  const result = { ms: performance.now() - start, cpuMs: cpuMsOf(child.pid ?? 0) }
  if (addBundle) await storeBundle(port)
  child.kill()
  await new Promise((resolve) => child.once('exit', resolve))
  return result
}

async function storeBundle(port: number): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${port}/api/pvlt/1.0/ctl/bundles`, {
    method: 'POST',
    headers: { authorization: 'Bearer pvaultauth', 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench', code: Buffer.from(SCRIPT).toString('base64') }),
  })
  // A build without bundles answers 404: its second start is then like the first.
  if (!res.ok && res.status !== 404)
    throw new Error(`add bundle: ${res.status} ${await res.text()}`)
}

/**
 * Start-to-health of each root (this checkout, and e.g. the main branch for a before/after),
 * interleaved so that the machine's load drifts over all of them alike: a fresh data directory,
 * then a restart of the same directory once it holds a bundle.
 */
async function startup(): Promise<void> {
  const roots = values.root.split(',')
  const port = 18_400 + Math.floor(Math.random() * 500)
  const fresh = new Map<string, Start[]>(roots.map((r) => [r, []]))
  const withBundle = new Map<string, Start[]>(roots.map((r) => [r, []]))
  for (let i = 0; i < Number(values.starts); i++) {
    for (const root of roots) {
      const dir = mkdtempSync(join(tmpdir(), 'strongroom-bench-'))
      fresh.get(root)?.push(await startToHealth(root, dir, port, true))
      withBundle.get(root)?.push(await startToHealth(root, dir, port))
      rmSync(dir, { recursive: true, force: true })
    }
  }
  for (const root of roots) {
    for (const [title, samples] of [
      ['fresh data directory', fresh],
      ['one bundle stored', withBundle],
    ] as const) {
      const starts = samples.get(root) ?? []
      summary(
        `start to health, ${title} (${root})`,
        starts.map((s) => s.ms),
      )
      summary(
        `  CPU of the node until healthy`,
        starts.map((s) => s.cpuMs),
      )
    }
  }
}

if (values.scenario === 'all' || values.scenario === 'batch') await batches()
if (values.scenario === 'all' || values.scenario === 'startup') await startup()
