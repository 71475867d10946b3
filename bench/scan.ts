// bench/scan.ts: searches that scan (match on an encrypted property without is_index) over HTTP (see bench/README.md)
import { parseArgs } from 'node:util'
import { COLLECTION, ssnOf } from './data.ts'
import { call, loadPeople, REASON } from './http.ts'
import { type Latency, measure } from './latency.ts'
import { type BenchServer, type Engine, pgAdmin, startBenchServer } from './server.ts'

const { values: args } = parseArgs({
  options: {
    engine: { type: 'string', default: 'both' },
    objects: { type: 'string', default: '100000' },
    requests: { type: 'string', default: '30' },
  },
})

/** The benchmark collection with `email` unindexed (a scan) and no substring index (no queue). */
const SCANNED = {
  ...COLLECTION,
  properties: COLLECTION.properties.map((p) =>
    p.name === 'email'
      ? { ...p, is_index: false }
      : p.name === 'name'
        ? { ...p, is_substring_index: false }
        : p,
  ),
}

const search = (server: BenchServer, body: unknown, query = 'props=name') =>
  call(server, 'POST', `/data/collections/people/query/objects?${REASON}&${query}`, body)

/** A deterministic spread of existing objects for the i-th request. */
const pick = (i: number, count: number) => (i * 7919) % count

async function scenario(engine: Engine, count: number, requests: number) {
  // A full scan of a large collection may take longer than the default 30 s call timeout on a
  // loaded machine; the benchmark measures it rather than the timeout.
  const server = await startBenchServer(engine, {
    SVC_SERVICE_TIMEOUT_SECONDS: '300',
    SVC_SERVICE_SUBSTRING_INDEX_REFRESH_INTERVAL: '1h',
  })
  try {
    await loadPeople(server, SCANNED, count)
    // Autovacuum is off on the benchmark machine: without statistics PostgreSQL plans a batch as
    // a bitmap scan and sort of the whole rest of the collection (0.75 s instead of 1.5 ms).
    if (engine === 'postgres') await pgAdmin('ANALYZE objects', server.pgUrl)
    const email = (i: number) => `user${i}@example${i % 100}.com`
    const warmup = 3
    const results: Record<string, { latency: Latency; cpuMs?: number }> = {}
    /** Times a scenario, and the node's CPU per request (warm-up included) from /proc. */
    async function timed(name: string, run: () => Promise<Latency>, calls: number) {
      const before = server.cpuSeconds()
      const latency = await run()
      const after = server.cpuSeconds()
      const cpuMs =
        before === undefined || after === undefined
          ? undefined
          : Math.round(((after - before) * 1000) / calls)
      results[name] = { latency, cpuMs }
    }
    // Indexed reference: the unique ssn through its blind index.
    await timed(
      'indexed ssn (blind index)',
      () => measure(requests, (i) => search(server, { match: { ssn: ssnOf(pick(i, count)) } })),
      requests + 50,
    )
    // Full scan: one match, every active object's email decrypted and compared.
    await timed(
      'scan email (1 match, full scan)',
      () =>
        measure(
          requests,
          (i) => search(server, { match: { email: email(pick(i, count)) } }),
          warmup,
        ),
      requests + warmup,
    )
    // A plain condition in SQL narrows the scan to 1/8 of the collection.
    await timed(
      'scan email + plain city (1/8 scanned)',
      () =>
        measure(
          requests,
          (i) => {
            const n = pick(i, count)
            const city = [
              'Paris',
              'Berlin',
              'Madrid',
              'Rome',
              'Vienna',
              'Prague',
              'Lisbon',
              'Dublin',
            ]
            return search(server, { match: { email: email(n), city: city[n % 8] } })
          },
          warmup,
        ),
      requests + warmup,
    )
    // The blind index narrows the scan to one object.
    await timed(
      'scan email + indexed ssn',
      () =>
        measure(requests, (i) => {
          const n = pick(i, count)
          return search(server, { match: { email: email(n), ssn: ssnOf(n) } })
        }),
      requests + 50,
    )
    // A first page of 100 among many matches: the scan stops counting at the remaining-count cap.
    await timed(
      'scan in 1% of emails (page 100)',
      () =>
        measure(
          requests,
          (i) => {
            const emails = Array.from({ length: count / 100 }, (_, k) =>
              email((k * 100 + i) % count),
            )
            return search(server, { in: { email: emails } }, 'props=name&page_size=100')
          },
          warmup,
        ),
      requests + warmup,
    )
    return results
  } finally {
    await server.stop()
  }
}

const show = (r: { latency: Latency; cpuMs?: number }) =>
  `p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms (${r.latency.count} requests); node CPU ${r.cpuMs ?? '?'} ms per request`

async function main() {
  const engines: Engine[] =
    args.engine === 'both' ? ['sqlite', 'postgres'] : [args.engine as Engine]
  for (const engine of engines) {
    const results = await scenario(engine, Number(args.objects), Number(args.requests))
    for (const [name, result] of Object.entries(results))
      console.log(`[${engine}] ${args.objects} objects, ${name}: ${show(result)}`)
  }
}

await main()
