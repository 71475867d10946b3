// bench/objects.ts: objects benchmarks over HTTP against a node in its own process (see bench/README.md)
import { parseArgs } from 'node:util'
import { batchOf, COLLECTION, LAST, ssnOf } from './data.ts'
import { type Latency, measure, percentiles } from './latency.ts'
import { rawPostgresRate, rawSqliteRate } from './raw.ts'
import { type BenchServer, type Engine, startBenchServer } from './server.ts'

const { values: args } = parseArgs({
  options: {
    engine: { type: 'string', default: 'both' },
    scenario: { type: 'string', default: 'all' },
    'bulk-objects': { type: 'string', default: '50000' },
    'exact-objects': { type: 'string', default: '1000000' },
    'substring-objects': { type: 'string', default: '100000' },
    requests: { type: 'string', default: '2000' },
    concurrency: { type: 'string', default: '1' },
    // deferred: the n-gram index is built an hour later (the write path alone); live: the
    // service's default refresh interval, so the background indexer runs during the load.
    indexer: { type: 'string', default: 'deferred' },
  },
})

const BATCH = 1000
const REASON = 'reason=AppFunctionality'
const HEADERS = { authorization: 'Bearer pvaultauth', 'content-type': 'application/json' }

function call(server: BenchServer, method: string, path: string, body?: string): Promise<Response> {
  return fetch(`${server.baseUrl}/api/pvlt/1.0${path}`, { method, headers: HEADERS, body })
}

async function expectOk(res: Response): Promise<string> {
  const text = await res.text()
  if (res.status !== 200) throw new Error(`${res.status} ${text.slice(0, 300)}`)
  return text
}

/** Each bulk call's time in ms, and when it started (ms since the load began). */
type CallTimes = { ms: number[]; at: number[] }

/**
 * Adds objects `first`… `first + count - 1` in bulk calls of 1000 (`concurrency` at a time);
 * returns objects/s, and each call's time in `times` when given.
 */
async function load(
  server: BenchServer,
  count: number,
  concurrency: number,
  first = 0,
  times?: CallTimes,
): Promise<number> {
  let next = first
  const end = first + count
  let busyMs = 0
  const started = performance.now()
  async function worker() {
    while (next < end) {
      const start = next
      next += BATCH
      const body = JSON.stringify(batchOf(start, Math.min(BATCH, end - start)))
      const callStarted = performance.now()
      const res = await call(
        server,
        'POST',
        `/data/collections/people/bulk/objects?${REASON}`,
        body,
      )
      const result = JSON.parse(await expectOk(res))
      times?.ms.push(performance.now() - callStarted)
      times?.at.push(callStarted - started)
      if (!result.ok)
        throw new Error(
          `bulk add failed: ${JSON.stringify(result.results.find((r: { ok: boolean }) => !r.ok))}`,
        )
    }
  }
  const progress = setInterval(
    () => process.stderr.write(`  loaded ${next - first}/${count}\r`),
    5000,
  )
  await Promise.all(Array.from({ length: concurrency }, worker)).finally(() =>
    clearInterval(progress),
  )
  busyMs = performance.now() - started
  return count / (busyMs / 1000)
}

/** CPU milliseconds per unit of work between two readings in seconds (none without /proc). */
function cpuMsPer(
  before: number | undefined,
  after: number | undefined,
  units: number,
  digits = 0,
): number | undefined {
  if (before === undefined || after === undefined) return undefined
  const scale = 10 ** digits
  return Math.round(((after - before) * 1000 * scale) / units) / scale
}

async function prepare(engine: Engine, env: Record<string, string> = {}): Promise<BenchServer> {
  const server = await startBenchServer(engine, env)
  await expectOk(await call(server, 'POST', '/ctl/collections', JSON.stringify(COLLECTION)))
  return server
}

/** The calls' p50/p99/max, how many took over 250 ms, and when the slowest ones started. */
function callSummary(times: CallTimes): string {
  const l = percentiles(times.ms)
  const max = Math.max(...times.ms)
  const slow = times.ms.filter((ms) => ms > 250).length
  const worst = times.ms
    .map((ms, i) => ({ ms, at: times.at[i] ?? 0 }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 5)
    .map((c) => `${Math.round(c.ms)} ms at ${(c.at / 1000).toFixed(1)} s`)
  return `calls p50 ${l.p50} ms, p99 ${l.p99} ms, max ${Math.round(max)} ms, ${slow} over 250 ms (slowest: ${worst.join(', ')})`
}

async function bulkScenario(engine: Engine, count: number, concurrency: number) {
  // Deferred: the n-gram index is built later; the substring scenario measures that part.
  const env: Record<string, string> =
    args.indexer === 'live' ? {} : { SVC_SERVICE_SUBSTRING_INDEX_REFRESH_INTERVAL: '1h' }
  const server = await prepare(engine, env)
  try {
    await load(server, 5000, 1, count) // warm-up: JIT, statement caches, keys
    const cpuBefore = server.cpuSeconds()
    const mainBefore = server.mainThreadCpuSeconds()
    const databaseBefore = server.databaseCpuSeconds()
    const times: CallTimes = { ms: [], at: [] }
    const vault = await load(server, count, concurrency, 0, times)
    const cpuAfter = server.cpuSeconds()
    const mainAfter = server.mainThreadCpuSeconds()
    const databaseAfter = server.databaseCpuSeconds()
    // The node's own CPU per 1000 objects: steadier than the rate on a shared machine. The main
    // thread's share bounds the rate of sequential calls (the sealing thread runs beside it).
    const calls = count / BATCH
    const cpuMs = cpuMsPer(cpuBefore, cpuAfter, calls)
    const mainMs = cpuMsPer(mainBefore, mainAfter, calls)
    const databaseMs = cpuMsPer(databaseBefore, databaseAfter, calls)
    // Both plain ways of each engine, on the same rows: the faster one is the reference.
    const raw =
      engine === 'sqlite'
        ? {
            'single-row': await rawSqliteRate(server.database, count + 5000, 'single'),
            '500-row': await rawSqliteRate(server.database, count + 5000, 'multi'),
          }
        : {
            '500-row': await rawPostgresRate(server.pgUrl, count + 5000, 'multi'),
            unnest: await rawPostgresRate(server.pgUrl, count + 5000, 'unnest'),
          }
    const rates = Object.entries(raw).map(([method, rate]) => `${method} ${Math.round(rate)}`)
    return {
      vault: Math.round(vault),
      raw: Math.round(Math.max(...Object.values(raw))),
      rates: rates.join(', '),
      cpuMs,
      mainMs,
      databaseMs,
      calls: callSummary(times),
    }
  } finally {
    await server.stop()
  }
}

async function exactScenario(engine: Engine, count: number, requests: number, concurrency: number) {
  // No like searches here: the n-gram build would only compete with the measured searches.
  const server = await prepare(engine, { SVC_SERVICE_SUBSTRING_INDEX_REFRESH_INTERVAL: '1h' })
  try {
    const loadRate = await load(server, count, concurrency)
    // The floor: an authenticated request that touches no data, over the same connection.
    const floor = await measure(requests, () => call(server, 'GET', '/system/info/version'))
    const cpuBefore = server.cpuSeconds()
    const databaseBefore = server.databaseCpuSeconds()
    const latency = await measure(requests, (i) => {
      const target = (i * 7919) % count
      const body = JSON.stringify({ match: { ssn: ssnOf(target) } })
      return call(
        server,
        'POST',
        `/data/collections/people/query/objects?${REASON}&props=name,email`,
        body,
      )
    })
    // CPU per search (warm-up included: 50 more), in ms: the node's, and PostgreSQL's processes'.
    const searches = requests + 50
    const cpuMs = cpuMsPer(cpuBefore, server.cpuSeconds(), searches, 2)
    const databaseMs = cpuMsPer(databaseBefore, server.databaseCpuSeconds(), searches, 2)
    return { loadRate: Math.round(loadRate), latency, floor, cpuMs, databaseMs }
  } finally {
    await server.stop()
  }
}

/** Like searches index the queue inline and answer 503 until it is empty: retry until 200. */
async function waitForSubstringIndex(server: BenchServer): Promise<number> {
  const started = performance.now()
  const body = JSON.stringify({ like: { name: '*smith*' } })
  for (;;) {
    const res = await call(
      server,
      'POST',
      `/data/collections/people/query/objects?${REASON}&props=name`,
      body,
    )
    await res.text()
    if (res.status === 200) return (performance.now() - started) / 1000
    if (res.status !== 503) throw new Error(`substring index: ${res.status}`)
  }
}

async function substringScenario(
  engine: Engine,
  count: number,
  requests: number,
  concurrency: number,
) {
  const server = await prepare(engine, { SVC_SERVICE_SUBSTRING_INDEX_REFRESH_INTERVAL: '1h' })
  try {
    const loadRate = await load(server, count, concurrency)
    const indexSeconds = await waitForSubstringIndex(server)
    // Patterns need two 3-character runs: last names of at least 4 letters.
    const names = LAST.filter((name) => name.length >= 4)
    const latency = await measure(requests, (i) => {
      const last = names[(i * 13) % names.length] ?? 'Smith'
      const body = JSON.stringify({ like: { name: `*${last.toLowerCase()}*` } })
      return call(
        server,
        'POST',
        `/data/collections/people/query/objects?${REASON}&props=name`,
        body,
      )
    })
    return {
      loadRate: Math.round(loadRate),
      indexSeconds: Math.round(indexSeconds * 10) / 10,
      latency,
    }
  } finally {
    await server.stop()
  }
}

const show = (l: Latency) =>
  `p50 ${l.p50} ms, p90 ${l.p90} ms, p99 ${l.p99} ms (${l.count} requests)`

async function main() {
  const engines: Engine[] =
    args.engine === 'both' ? ['sqlite', 'postgres'] : [args.engine as Engine]
  const scenarios = args.scenario === 'all' ? ['bulk', 'exact', 'substring'] : [args.scenario ?? '']
  const requests = Number(args.requests)
  const concurrency = Number(args.concurrency)
  for (const engine of engines) {
    if (scenarios.includes('bulk')) {
      const r = await bulkScenario(engine, Number(args['bulk-objects']), concurrency)
      console.log(
        `[${engine}] bulk add: ${r.vault} objects/s (raw ${engine} inserts of the same rows: ${r.raw} objects/s; ${r.rates}); node CPU ${r.cpuMs ?? '?'} ms per 1000 objects (main thread ${r.mainMs ?? '?'} ms)${r.databaseMs === undefined ? '' : `, PostgreSQL CPU ${r.databaseMs} ms`}; indexer ${args.indexer}; ${r.calls}`,
      )
    }
    if (scenarios.includes('exact')) {
      const r = await exactScenario(engine, Number(args['exact-objects']), requests, concurrency)
      console.log(
        `[${engine}] exact match over ${args['exact-objects']} objects: ${show(r.latency)}; loaded at ${r.loadRate} objects/s; HTTP floor (GET version): ${show(r.floor)}; CPU per search: node ${r.cpuMs ?? '?'} ms${r.databaseMs === undefined ? '' : `, PostgreSQL ${r.databaseMs} ms`}`,
      )
    }
    if (scenarios.includes('substring')) {
      const r = await substringScenario(
        engine,
        Number(args['substring-objects']),
        requests,
        concurrency,
      )
      console.log(
        `[${engine}] substring over ${args['substring-objects']} objects: ${show(r.latency)}; loaded at ${r.loadRate} objects/s, n-grams built in ${r.indexSeconds} s`,
      )
    }
  }
}

await main()
