// bench/tails.ts: p99 at 16 connections for tokenize, detokenize, get and exact search, and what the node's loop saw (issue 19 item 3)
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks'
import autocannon from 'autocannon'
import { CONNECTIONS, DURATION, startInProcess } from './in-process.ts'

/**
 * Stores to compare (BENCH_TAIL_STORES): the durable default, the same file without a sync per
 * commit (so the difference is the sync), and memory (no file at all: no checkpoints either).
 */
const STORES: Record<string, Record<string, string>> = {
  'sqlite-full': { SVC_BACKING_STORE: 'sqlite' },
  'sqlite-normal': { SVC_BACKING_STORE: 'sqlite', SVC_DB_SQLITE_SYNCHRONOUS: 'normal' },
  memory: { SVC_BACKING_STORE: 'memory' },
}
const chosen = (process.env.BENCH_TAIL_STORES ?? 'sqlite-full').split(',')
const OBJECTS = 1000
const REASON = 'reason=AppFunctionality'
const AUTH = { authorization: 'Bearer pvaultauth', 'content-type': 'application/json' }

type Scenario = Readonly<{ title: string; method: 'GET' | 'POST'; path: string; body?: unknown }>

/** GC pauses and event-loop delay on the node's (this process's main) thread during one run. */
function watchLoop() {
  const pauses: number[] = []
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) pauses.push(entry.duration)
  })
  observer.observe({ entryTypes: ['gc'] })
  const delay = monitorEventLoopDelay({ resolution: 1 })
  delay.enable()
  return () => {
    observer.disconnect()
    delay.disable()
    const ms = (ns: number) => (ns / 1e6).toFixed(1)
    const sum = pauses.reduce((a, b) => a + b, 0)
    return `gc ${pauses.length} pauses, ${sum.toFixed(0)} ms, max ${Math.max(0, ...pauses).toFixed(1)} ms; loop delay p99 ${ms(delay.percentile(99))} ms, max ${ms(delay.max)} ms`
  }
}

async function run(base: string, scenario: Scenario): Promise<string> {
  const options = {
    url: `${base}${scenario.path}`,
    method: scenario.method,
    headers: AUTH,
    body: scenario.body === undefined ? undefined : JSON.stringify(scenario.body),
    connections: CONNECTIONS,
    workers: 1,
  }
  await autocannon({ ...options, duration: 2 }) // warm-up
  const stop = watchLoop()
  const result = await autocannon({ ...options, duration: DURATION })
  const loop = stop()
  const failed = result.non2xx + result.errors + result.timeouts
  const l = result.latency
  return `${scenario.title.padEnd(22)} ${Math.round(result.requests.average).toString().padStart(6)} req/s  p50 ${l.p50} ms  p99 ${l.p99} ms  max ${l.max} ms  failed ${failed}  | ${loop}`
}

for (const store of chosen) {
  const env = STORES[store]
  if (env === undefined) throw new Error(`unknown store ${store}: one of ${Object.keys(STORES)}`)
  const node = await startInProcess(env)
  const { base, post } = node
  const people = Array.from({ length: OBJECTS }, (_, i) => ({
    name: `Jo Doe ${i}`,
    ssn: `123-45-${String(1000 + i)}`,
    email: `jo${i}@example.com`,
  }))
  // An indexed property for the exact search (the in-process node's collection has none).
  await post('/ctl/collections', {
    name: 'customers',
    type: 'PERSONS',
    properties: [
      { name: 'name', data_type_name: 'NAME' },
      { name: 'ssn', data_type_name: 'SSN' },
      { name: 'email', data_type_name: 'EMAIL', is_index: true },
    ],
  })
  const added = (await post(`/data/collections/customers/bulk/objects?${REASON}`, people)) as {
    results: { id: string }[]
  }
  const id = added.results[OBJECTS / 2]?.id
  const [token] = (await post(`/data/collections/people/tokens?${REASON}`, [
    { type: 'randomized', object: { fields: { name: 'Jo Doe', ssn: '123-45-6789' } } },
  ])) as { token_id: string }[]
  const scenarios: Scenario[] = [
    {
      title: 'tokenize, 1 item',
      method: 'POST',
      path: `/data/collections/people/tokens?${REASON}`,
      body: [{ type: 'randomized', object: { fields: { name: 'Jo Doe', ssn: '123-45-6789' } } }],
    },
    {
      title: 'detokenize, 1 token',
      method: 'GET',
      path: `/data/collections/people/tokens?${REASON}&token_ids=${token?.token_id}`,
    },
    {
      title: 'get object',
      method: 'GET',
      path: `/data/collections/customers/objects/${id}?${REASON}&props=name,email`,
    },
    {
      title: `exact search (${OBJECTS})`,
      method: 'POST',
      path: `/data/collections/customers/query/objects?${REASON}&props=name,email`,
      body: { match: { email: `jo${OBJECTS / 2}@example.com` } },
    },
  ]
  console.log(
    `store ${store}, ${CONNECTIONS} connections, ${DURATION} s a run, node ${process.version}`,
  )
  for (const scenario of scenarios) console.log(await run(base, scenario))
  await node.close()
}
