// bench/telemetry.ts: the single-call cost of metrics and of tracing, each on and off, in alternating rounds
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import autocannon from 'autocannon'
import { AUTH, CONNECTIONS, DURATION, STORE, startInProcess } from './in-process.ts'

/** Rounds of every mode, run alternately so that a machine that slows down hurts all alike. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const REASON = 'reason=AppFunctionality'
const TOKEN = 'bench-metrics-token'

// A collector that accepts and discards OTLP/HTTP exports: spans are built, batched, serialized
// and sent as in production; only the collector's own work is left out.
const collector = createServer((req, res) => {
  req.resume()
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'))
})
await new Promise<void>((ready) => collector.listen(0, '127.0.0.1', ready))
const otlp = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`

const MODES: Record<string, Record<string, string>> = {
  off: {},
  metrics: { SVC_METRICS_TOKEN: TOKEN },
  tracing: { OTEL_EXPORTER_OTLP_ENDPOINT: otlp },
  'tracing 10%': {
    OTEL_EXPORTER_OTLP_ENDPOINT: otlp,
    OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
    OTEL_TRACES_SAMPLER_ARG: '0.1',
  },
  both: { SVC_METRICS_TOKEN: TOKEN, OTEL_EXPORTER_OTLP_ENDPOINT: otlp },
}

const SCENARIOS = [
  { title: 'GET version (auth + audit)', path: '/system/info/version', method: 'GET' as const },
  {
    title: 'tokenize, 1 item',
    path: `/data/collections/people/tokens?${REASON}`,
    method: 'POST' as const,
    body: [{ type: 'randomized', object: { fields: { name: 'Jo Doe', ssn: '123-45-6789' } } }],
  },
]

/** `cpu`: µs of this process's CPU (node and load generator threads) per request. */
type Result = { rate: number; p99: number; cpu: number }
const results = new Map<string, Result[]>()

async function measure(
  base: string,
  scenario: (typeof SCENARIOS)[number],
  seconds: number,
): Promise<Result> {
  const before = process.cpuUsage()
  const result = await autocannon({
    url: `${base}${scenario.path}`,
    method: scenario.method,
    headers: AUTH,
    body: scenario.body === undefined ? undefined : JSON.stringify(scenario.body),
    connections: CONNECTIONS,
    duration: seconds,
    workers: 1,
  })
  if (result.non2xx + result.errors > 0) throw new Error(`${scenario.title}: failed calls`)
  const used = process.cpuUsage(before)
  // The generator's share per request is the same in every mode, so differences are the node's.
  const cpu = (used.user + used.system) / result.requests.total
  return { rate: result.requests.average, p99: result.latency.p99, cpu }
}

console.log(
  `store ${STORE}, ${DURATION} s per run, ${ROUNDS} rounds, ${CONNECTIONS} connections, node ${process.version}`,
)
for (let round = 1; round <= ROUNDS; round++) {
  for (const [mode, env] of Object.entries(MODES)) {
    const node = await startInProcess(env)
    for (const scenario of SCENARIOS) {
      await measure(node.base, scenario, 2) // warm-up: JIT, connections
      const result = await measure(node.base, scenario, DURATION)
      const key = `${scenario.title}|${mode}`
      results.set(key, [...(results.get(key) ?? []), result])
      console.log(
        `round ${round}  ${mode.padEnd(11)} ${scenario.title.padEnd(28)} ${result.rate.toFixed(0).padStart(6)} req/s  p99 ${result.p99} ms  cpu ${result.cpu.toFixed(0)} µs/request`,
      )
    }
    if (mode === 'metrics' || mode === 'both') {
      // One scrape per run, as Prometheus would do every 15 s or so.
      const res = await fetch(`${node.base.replace('/api/pvlt/1.0', '')}/metrics`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      })
      if (!res.ok) throw new Error(`scrape: ${res.status}`)
    }
    await node.close()
  }
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0
const change = (value: number, base: number) => `${(((value - base) / base) * 100).toFixed(1)} %`
console.log('\nmedian of the rounds (change against off)')
for (const scenario of SCENARIOS) {
  const runsOf = (mode: string) => results.get(`${scenario.title}|${mode}`) ?? []
  const off = runsOf('off')
  for (const mode of Object.keys(MODES)) {
    const runs = runsOf(mode)
    const [rate, p99, cpu] = [
      median(runs.map((r) => r.rate)),
      median(runs.map((r) => r.p99)),
      median(runs.map((r) => r.cpu)),
    ]
    const versus =
      mode === 'off'
        ? ''
        : ` (rate ${change(rate, median(off.map((r) => r.rate)))}, cpu ${change(cpu, median(off.map((r) => r.cpu)))})`
    console.log(
      `${scenario.title.padEnd(28)} ${mode.padEnd(11)} ${rate.toFixed(0).padStart(6)} req/s  p99 ${p99} ms  cpu ${cpu.toFixed(0)} µs/request${versus}`,
    )
  }
}
collector.close()
