// bench/vs-floor.ts: one-item tokenize on SQLite against the floor servers (bench/floor.ts), rounds alternating
import autocannon from 'autocannon'
import { startFloor } from './floor.ts'
import { CONNECTIONS, DURATION, startInProcess } from './in-process.ts'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const HEADERS = { authorization: 'Bearer pvaultauth', 'content-type': 'application/json' }
const BODY = JSON.stringify([
  {
    type: 'randomized',
    object: { fields: { name: 'Jo Doe', ssn: '123-45-6789', email: 'jo@example.com' } },
  },
])

/** `cpu`: the servers' main thread (this process's; the load generator runs on a worker), µs a call. */
type Figure = { rate: number; p50: number; p99: number; failed: number; cpu: number }

async function load(url: string, seconds: number): Promise<Figure> {
  const before = process.threadCpuUsage()
  const result = await autocannon({
    url,
    method: 'POST',
    headers: HEADERS,
    body: BODY,
    connections: CONNECTIONS,
    duration: seconds,
    // The load generator runs on its own thread, not on the servers' event loop.
    workers: 1,
  })
  const cpu = process.threadCpuUsage(before)
  return {
    cpu: (cpu.user + cpu.system) / Math.max(1, result.requests.total),
    rate: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failed: result.non2xx + result.errors + result.timeouts,
  }
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0

// Both servers in this process, as bench/tokens.ts runs the vault: only one is loaded at a time.
const vault = await startInProcess({ SVC_BACKING_STORE: 'sqlite' })
const floor = await startFloor()
const fastifyFloor = await startFloor('fastify')
const targets = {
  floor: floor.url,
  fastify: fastifyFloor.url,
  vault: `${vault.base}/data/collections/people/tokens?reason=AppFunctionality`,
}
type Target = keyof typeof targets
for (const url of Object.values(targets)) await load(url, 3) // warm-up: JIT, caches
console.log(
  `one-item tokenize, SQLite (WAL synced per group of commits), ${CONNECTIONS} connections, ${DURATION} s a run, ${ROUNDS} rounds`,
)
const ratios: Record<'vault' | 'fastify', number[]> = { vault: [], fastify: [] }
const NAMES: readonly Target[] = ['floor', 'fastify', 'vault']
for (let round = 0; round < ROUNDS; round++) {
  // The order alternates, so that the machine's drift falls on all alike.
  const order = round % 2 === 0 ? NAMES : [...NAMES].reverse()
  const figures: Partial<Record<Target, Figure>> = {}
  for (const name of order) figures[name] = await load(targets[name], DURATION)
  const { floor: f, fastify: b, vault: v } = figures as Record<Target, Figure>
  ratios.vault.push(v.rate / f.rate)
  ratios.fastify.push(b.rate / f.rate)
  const show = (x: Figure) =>
    `${Math.round(x.rate)} req/s, p50 ${x.p50} ms, p99 ${x.p99} ms, main thread ${Math.round(x.cpu)} µs a call, failed ${x.failed}`
  console.log(
    `round ${round + 1}: floor ${show(f)} | floor in Fastify ${show(b)} | vault ${show(v)} | ÷ floor: Fastify ${(b.rate / f.rate).toFixed(2)}, vault ${(v.rate / f.rate).toFixed(2)}`,
  )
}
console.log(
  `median ÷ floor: floor in Fastify ${median(ratios.fastify).toFixed(2)}, vault ${median(ratios.vault).toFixed(2)}`,
)
await vault.close()
await floor.close()
await fastifyFloor.close()
