// bench/tokens.ts: tokenize and detokenize over HTTP (one item, 1000-item bulk) beside a bare Fastify hello-world
import autocannon from 'autocannon'
import Fastify from 'fastify'
import { AUTH, CONNECTIONS, DURATION, STORE, startInProcess } from './in-process.ts'
import { pacedLoad } from './paced.ts'
import { rawTokenize } from './raw-tokens.ts'

/** Runs only the scenarios whose title contains this text (the floor and the reference always run). */
const ONLY = process.env.BENCH_ONLY ?? ''
const REASON = 'reason=AppFunctionality'

const node = await startInProcess()
const { base, post } = node

// The floor: what Fastify alone answers on this machine, in the same process and run.
const hello = Fastify()
hello.get('/', async () => ({ hello: 'world' }))
const helloUrl = await hello.listen({ host: '127.0.0.1', port: 0 })

const TOKENIZE = `/data/collections/people/tokens?${REASON}`
const item = (type: string, i: number) => ({
  type,
  object: { fields: { name: `Jo Doe ${i}`, ssn: '123-45-6789', email: `jo${i}@example.com` } },
})
const items = (n: number, type: string) => Array.from({ length: n }, (_, i) => item(type, i))

type Load = { url: string; method: 'GET' | 'POST'; body?: unknown; connections: number }

async function load(options: Load, duration: number) {
  return autocannon({
    url: options.url,
    method: options.method,
    headers: AUTH,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    connections: options.connections,
    duration,
    // The load generator runs in its own thread so it does not share the server's event loop.
    workers: 1,
  })
}

let floor = 0

/**
 * Runs a scenario at full load; one-item calls are then run again, evenly paced (paced.ts), at
 * half the rate they reached, for the latency the target is about (p99 at half the peak
 * rate).
 */
async function run(title: string, options: Load, perCall: number): Promise<void> {
  const isReference = title.includes('floor') || title.includes('reference')
  if (!title.includes(ONLY) && !isReference) return
  const result = await load(options, DURATION)
  const failed = result.non2xx + result.errors + result.timeouts
  const rate = result.requests.average
  if (title.includes('floor')) floor = rate
  const share =
    floor > 0 && perCall === 1 && !title.includes('(floor)')
      ? ` (${Math.round((100 * rate) / floor)} % of the floor)`
      : ''
  const perItem = perCall > 1 ? `  ${Math.round(rate * perCall).toLocaleString('en')} tokens/s` : ''
  let half = ''
  if (perCall === 1 && !isReference) {
    const at = { rate: Math.max(1, Math.floor(rate / 2)), seconds: DURATION }
    const paced = await pacedLoad({
      ...at,
      url: options.url,
      method: options.method,
      headers: AUTH,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      connections: options.connections,
    })
    // The same pacing against the hello-world: what the generator itself adds.
    const alone = await pacedLoad({
      ...at,
      url: helloUrl,
      method: 'GET',
      headers: {},
      connections: options.connections,
    })
    const ms = (value: number) => value.toFixed(1)
    half = `  paced at ${at.rate} req/s: p50 ${ms(paced.p50)} ms, p99 ${ms(paced.p99)} ms, failed ${paced.failed} (hello-world so paced: p99 ${ms(alone.p99)} ms)`
  }
  console.log(
    `${title.padEnd(34)} ${rate.toFixed(0).padStart(7)} req/s${share}${perItem}  p99 ${result.latency.p99} ms  failed ${failed}${half}`,
  )
}

const single = (type: string): Load => ({
  url: `${base}${TOKENIZE}`,
  method: 'POST',
  body: items(1, type),
  connections: CONNECTIONS,
})
const bulk = (type: string): Load => ({
  url: `${base}${TOKENIZE}`,
  method: 'POST',
  body: items(1000, type),
  connections: Math.min(CONNECTIONS, 4),
})

// Warm-up: JIT and connection pools, so the first scenario is not penalized.
await load(single('randomized'), 3)

console.log(`store ${STORE}, ${DURATION} s per scenario, node ${process.version}`)
await run(
  'fastify hello-world (floor)',
  {
    url: helloUrl,
    method: 'GET',
    connections: CONNECTIONS,
  },
  1,
)
// What the target leaves per request, next to what SQLite alone needs to store one call.
if (floor > 0) {
  const budget = 1e6 / (floor / 2)
  console.log(
    `target: ${Math.round(floor / 2)} req/s = ${budget.toFixed(0)} µs per request for everything`,
  )
  for (const raw of rawTokenize())
    console.log(
      `raw node:sqlite, ${raw.file}: claim + token row + audit row ${raw.us.toFixed(1)} µs per call (${Math.round(1e6 / raw.us)} calls/s on one core, nothing else done)`,
    )
}
// The vault's own per-request floor: a call that authenticates and writes its audit row, and
// does nothing else.
await run(
  'GET version (reference: auth + audit)',
  { url: `${base}/system/info/version`, method: 'GET', connections: CONNECTIONS },
  1,
)
await run('tokenize randomized, 1 item', single('randomized'), 1)
await run('tokenize deterministic, 1 item', single('deterministic'), 1)
await run('tokenize randomized, 1000 items', bulk('randomized'), 1000)
await run('tokenize deterministic, 1000 items', bulk('deterministic'), 1000)
const [token] = (await post(TOKENIZE, items(1, 'randomized'))) as { token_id: string }[]
await run(
  'detokenize, 1 token',
  {
    url: `${base}/data/collections/people/tokens?${REASON}&token_ids=${token?.token_id}`,
    method: 'GET',
    connections: CONNECTIONS,
  },
  1,
)

await hello.close()
await node.close()
