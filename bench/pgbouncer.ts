// bench/pgbouncer.ts: named vs unnamed statements, direct and through PgBouncer, and 1 vs 3 nodes: req/s and CPU per request
import { parseArgs } from 'node:util'
import { type Bouncer, findPgbouncer, startPgbouncer } from '../test/helpers/pgbouncer.ts'
import { COLLECTION, ssnOf } from './data.ts'
import { call, expectOk, loadPeople, REASON } from './http.ts'
import {
  type BenchServer,
  PG_URL,
  pgAdmin,
  postgresCpuByProcess,
  processCpuSeconds,
  startBenchServer,
} from './server.ts'

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '3000' },
    concurrency: { type: 'string', default: '16' },
    objects: { type: 'string', default: '5000' },
    rounds: { type: 'string', default: '2' },
  },
})
const REQUESTS = Number(values.requests)
const CONCURRENCY = Number(values.concurrency)
const OBJECTS = Number(values.objects)
const ROUNDS = Number(values.rounds)
const TOKENS = 500
const WARMUP = 600
const IDLE_SECONDS = 3

type Setup = Readonly<{
  title: string
  isPooled: boolean
  isNamed: boolean
  nodes: number
  concurrency: number
}>

const setup = (title: string, isPooled: boolean, isNamed: boolean, nodes = 1): Setup => ({
  title,
  isPooled,
  isNamed,
  nodes,
  concurrency: CONCURRENCY,
})

const SETUPS: readonly Setup[] = [
  setup('direct, named', false, true),
  setup('direct, unnamed', false, false),
  setup('PgBouncer, =false', true, false),
  setup('PgBouncer, named, detected', true, true),
  // One node with as many calls at a time as each of three nodes gets: the effect of fewer
  // concurrent calls per node, apart from that of more processes on the two cores.
  {
    ...setup(`PgBouncer, =false, ${Math.ceil(CONCURRENCY / 3)} at a time`, true, false),
    concurrency: Math.ceil(CONCURRENCY / 3),
  },
  setup('PgBouncer, =false, 3 nodes', true, false, 3),
]

type Request = Readonly<{ method: string; path: string; body?: unknown }>
type Scenario = Readonly<{ name: string; request: (i: number) => Request }>
const SCENARIOS = ['tokenize', 'detokenize', 'exact search']

function scenarios(tokenIds: readonly string[], run: number): Scenario[] {
  const people = '/data/collections/people'
  return [
    {
      name: 'tokenize',
      request: (i) => ({
        method: 'POST',
        path: `${people}/tokens?${REASON}`,
        body: [{ type: 'randomized', object: { fields: { name: `Tok ${run} ${i}` } } }],
      }),
    },
    {
      name: 'detokenize',
      request: (i) => ({
        method: 'GET',
        path: `${people}/tokens?${REASON}&token_ids=${tokenIds[(i * 7919) % tokenIds.length]}`,
      }),
    },
    {
      name: 'exact search',
      request: (i) => ({
        method: 'POST',
        path: `${people}/query/objects?${REASON}&props=name,email`,
        body: { match: { ssn: ssnOf((i * 7919) % OBJECTS) } },
      }),
    },
  ]
}

type Drive = Readonly<{ count: number; concurrency: number; offset?: number }>

/** `count` requests, `concurrency` at a time, request i on node i mod n. */
async function drive(nodes: readonly BenchServer[], scenario: Scenario, options: Drive) {
  let next = 0
  const worker = async () => {
    while (next < options.count) {
      const i = (options.offset ?? 0) + next++
      const { method, path, body } = scenario.request(i)
      await expectOk(await call(nodes[i % nodes.length] as BenchServer, method, path, body))
    }
  }
  await Promise.all(Array.from({ length: options.concurrency }, worker))
}

type Sample = {
  nodes: number
  bouncer: number
  /** Per backend of the bench database: they come and go (pool connections closing). */
  postgres: Map<number, number>
}

function cpuNow(nodes: readonly BenchServer[], bouncer: Bouncer): Sample {
  return {
    nodes: nodes.reduce((sum, node) => sum + (node.cpuSeconds() ?? 0), 0),
    bouncer: processCpuSeconds(bouncer.pid) ?? 0,
    postgres: postgresCpuByProcess(database) ?? new Map(),
  }
}

/** PostgreSQL CPU between two samples: of the processes alive at the end (new ones in full). */
function postgresBetween(before: Sample, after: Sample): number {
  let total = 0
  for (const [pid, seconds] of after.postgres) total += seconds - (before.postgres.get(pid) ?? 0)
  return total
}

const ms = (seconds: number) => (seconds * 1000).toFixed(3)

type Line = { rate: number; nodes: number; postgres: number; bouncer: number; total: number }

/** The best of the rounds per setup and scenario: on a shared machine, noise only adds CPU. */
const best = new Map<string, Line>()

function keep(key: string, line: Line): void {
  const previous = best.get(key)
  const rate = Math.max(line.rate, previous?.rate ?? 0)
  best.set(
    key,
    previous === undefined || line.total < previous.total
      ? { ...line, rate }
      : { ...previous, rate },
  )
}

function row(title: string, scenario: string, line: Line, isPooled: boolean): string {
  const bouncer = isPooled ? ms(line.bouncer) : '–'
  return `| ${title} | ${scenario} | ${Math.round(line.rate)} | ${ms(line.nodes)} | ${ms(line.postgres)} | ${bouncer} | ${ms(line.total)} |`
}

/** CPU seconds per second of the idle nodes (timers, cache refresh), summed. */
async function idleCpu(nodes: readonly BenchServer[], bouncer: Bouncer): Promise<number> {
  const before = cpuNow(nodes, bouncer)
  await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000))
  return (cpuNow(nodes, bouncer).nodes - before.nodes) / IDLE_SECONDS
}

type Measure = Readonly<{ setup: Setup; nodes: readonly BenchServer[]; bouncer: Bouncer }>

async function measure({ setup, nodes, bouncer }: Measure, tokenIds: string[], run: number) {
  const { concurrency } = setup
  for (const scenario of scenarios(tokenIds, run)) {
    await drive(nodes, scenario, { count: WARMUP * nodes.length, concurrency, offset: 1_000_000 })
    const before = cpuNow(nodes, bouncer)
    const started = performance.now()
    await drive(nodes, scenario, { count: REQUESTS, concurrency })
    const seconds = (performance.now() - started) / 1000
    const after = cpuNow(nodes, bouncer)
    const nodeCpu = (after.nodes - before.nodes) / REQUESTS
    const postgres = postgresBetween(before, after) / REQUESTS
    const bouncerCpu = setup.isPooled ? (after.bouncer - before.bouncer) / REQUESTS : 0
    const line = {
      rate: REQUESTS / seconds,
      nodes: nodeCpu,
      postgres,
      bouncer: bouncerCpu,
      total: nodeCpu + postgres + bouncerCpu,
    }
    console.log(row(setup.title, scenario.name, line, setup.isPooled))
    keep(`${setup.title}\t${scenario.name}`, line)
  }
  const idle = await idleCpu(nodes, bouncer)
  console.log(`| ${setup.title} | idle | | ${ms(idle)} ms/s | | | |`)
}

function nodeEnv(setup: Setup, bouncer: Bouncer): Record<string, string> {
  return {
    SVC_DB_PREPARED_STATEMENTS: String(setup.isNamed),
    ...(setup.isPooled ? { SVC_DB_HOSTNAME: bouncer.host, SVC_DB_PORT: String(bouncer.port) } : {}),
  }
}

/** Loads the objects and the tokens that detokenize reads, through a direct node. */
async function loadData(database: string): Promise<string[]> {
  const loader = await startBenchServer('postgres', {}, database)
  try {
    await loadPeople(loader, COLLECTION, OBJECTS)
    const items = Array.from({ length: TOKENS }, (_, i) => ({
      type: 'randomized',
      object: { fields: { name: `Stored ${i}` } },
    }))
    const res = await call(loader, 'POST', `/data/collections/people/tokens?${REASON}`, items)
    return (JSON.parse(await expectOk(res)) as { token_id: string }[]).map((t) => t.token_id)
  } finally {
    await loader.stop()
  }
}

const binary = findPgbouncer()
if (binary === undefined) throw new Error('pgbouncer is needed (apt-get install pgbouncer)')
const url = new URL(PG_URL)
const database = `strongroom_bench_pgb_${Date.now()}`
await pgAdmin(`CREATE DATABASE ${database}`)
const bouncer = await startPgbouncer({
  binary,
  target: {
    host: url.hostname,
    port: Number(url.port || 5432),
    user: decodeURIComponent(url.username || 'postgres'),
    database,
  },
  poolSize: 16,
})
try {
  const tokenIds = await loadData(database)
  console.log(
    `${OBJECTS} objects, ${REQUESTS} requests per line (${CONCURRENCY} at a time unless said, after ${WARMUP} warm-up per node), CPU in ms per request`,
  )
  const header = [
    '| setup | scenario | req/s | node(s) CPU | PostgreSQL CPU | PgBouncer CPU | total CPU |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: |',
  ].join('\n')
  let run = 0
  for (let round = 1; round <= ROUNDS; round++) {
    console.log(`\nRound ${round} of ${ROUNDS}\n\n${header}`)
    // Every other round in reverse order, so no setup always runs first (or last).
    for (const setup of round % 2 === 1 ? SETUPS : [...SETUPS].reverse()) {
      const nodes: BenchServer[] = []
      for (let n = 0; n < setup.nodes; n++)
        nodes.push(await startBenchServer('postgres', nodeEnv(setup, bouncer), database))
      try {
        await measure({ setup, nodes, bouncer }, tokenIds, run++)
      } finally {
        for (const node of nodes) await node.stop()
      }
    }
  }
  console.log(`\nBest of ${ROUNDS} (lowest total CPU per request; highest rate)\n\n${header}`)
  for (const setup of SETUPS)
    for (const scenario of SCENARIOS) {
      const line = best.get(`${setup.title}\t${scenario}`)
      if (line !== undefined) console.log(row(setup.title, scenario, line, setup.isPooled))
    }
} finally {
  await bouncer.stop()
  await pgAdmin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)
}
