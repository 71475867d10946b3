// bench/analysis.ts: PII analysis speed: contains over HTTP, long texts and the event loop, protect on SQLite
//
//   node bench/analysis.ts                          # every scenario
//   node bench/analysis.ts --scenario contains      # calls of 50 texts of ~200 characters
//   node bench/analysis.ts --scenario long          # 25–200 KB texts: time and the longest event-loop stall
//   node bench/analysis.ts --scenario protect       # calls of 50 texts with 3 entities each, SQLite
//
// BENCH_SECONDS (default 10) and BENCH_CONCURRENCY (default 4 calls in flight) tune the load.
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { createApp } from '../src/app.ts'
import { loadConfig } from '../src/config.ts'
import { percentiles } from './latency.ts'
import { loadCases } from './pii/score.ts'
import { type BenchServer, startBenchServer } from './server.ts'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4)
const TEXTS_PER_CALL = 50
const AUTH = { authorization: 'Bearer pvaultauth', 'content-type': 'application/json' }
const API = '/api/pvlt/1.0'

/** Texts of about 200 characters: evaluation-set texts joined or cut at a word, in a fixed order. */
function shortTexts(): string[] {
  const texts: string[] = []
  let current = ''
  for (const { text } of loadCases()) {
    current = current === '' ? text : `${current} ${text}`
    if (current.length < 180) continue
    const cut = current.length > 220 ? current.lastIndexOf(' ', 220) : current.length
    texts.push(current.slice(0, cut > 150 ? cut : 220))
    current = ''
  }
  return texts
}

async function call(url: string, body: unknown): Promise<void> {
  const res = await fetch(url, { method: 'POST', headers: AUTH, body: JSON.stringify(body) })
  const text = await res.text()
  if (res.status !== 200) throw new Error(`${res.status} ${text.slice(0, 300)}`)
}

/** Keeps CONCURRENCY calls in flight for SECONDS; the calls' latencies in ms. */
async function closedLoop(makeCall: (i: number) => Promise<void>): Promise<number[]> {
  const samples: number[] = []
  const end = performance.now() + SECONDS * 1000
  let next = 0
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) {
        const started = performance.now()
        await makeCall(next++)
        samples.push(performance.now() - started)
      }
    }),
  )
  return samples
}

/** Runs `work` and the CPU seconds the node used meanwhile (undefined without /proc). */
async function measureCpu<T>(server: BenchServer, work: () => Promise<T>) {
  const before = server.cpuSeconds()
  const result = await work()
  const after = server.cpuSeconds()
  const cpu = before === undefined || after === undefined ? undefined : after - before
  return { result, cpu }
}

/**
 * Texts per second of wall time, and per CPU second of the node: on a shared machine the node may
 * get far less than a core, and the second figure is what one core of its own would do.
 */
function report(title: string, samples: readonly number[], textsPerCall: number, cpu?: number) {
  const latency = percentiles(samples)
  const seconds = SECONDS
  const count = samples.length * textsPerCall
  const texts = count / seconds
  const cpuNote =
    cpu === undefined || cpu === 0
      ? ''
      : `, node CPU ${(cpu / seconds).toFixed(2)} cores = ${Math.round(count / cpu).toLocaleString('en')} texts per CPU second`
  console.log(
    `${title}: ${Math.round(texts).toLocaleString('en')} texts/s (${samples.length} calls in ${seconds} s, ${CONCURRENCY} in flight${cpuNote}); per call p50 ${latency.p50} ms, p99 ${latency.p99} ms`,
  )
}

async function contains(server: BenchServer): Promise<void> {
  const texts = shortTexts()
  const url = `${server.baseUrl}${API}/data/analysis/contains?reason=AppFunctionality`
  const batch = (i: number) =>
    Array.from(
      { length: TEXTS_PER_CALL },
      (_, j) => texts[(i * TEXTS_PER_CALL + j) % texts.length] as string,
    )
  const avg = texts.reduce((s, t) => s + t.length, 0) / texts.length
  for (let i = 0; i < 20; i++) await call(url, { text: batch(i) })
  const { result: samples, cpu } = await measureCpu(server, () =>
    closedLoop((i) => call(url, { text: batch(i) })),
  )
  report(
    `contains, ${TEXTS_PER_CALL} texts of ~${Math.round(avg)} characters a call`,
    samples,
    TEXTS_PER_CALL,
    cpu,
  )
}

const PEOPLE = [
  ['Laura', 'Whitfield'],
  ['Jörg', 'Hartmann'],
  ['Lucía', 'Navarro'],
  ['Camille', 'Roussel'],
  ['Priya', 'Natarajan'],
  ['Tobias', 'Krüger'],
  ['Sergio', 'Vidal'],
  ['Hélène', 'Faure'],
]

/** A ticket line with a name, an e-mail and a phone number, all distinct for each `n`. */
function ticket(n: number): string {
  const [first, last] = PEOPLE[n % PEOPLE.length] as [string, string]
  const phone = `+44 20 7${String(100 + (n % 900)).padStart(3, '0')} ${String(1000 + (Math.floor(n / 900) % 9000))}`
  return `Hi, my name is ${first} ${last}. Please call me on ${phone} or write to ${first.toLowerCase()}.${last.toLowerCase()}${n}@gmail.com about order 4471.`
}

async function protect(server: BenchServer): Promise<void> {
  await call(`${server.baseUrl}${API}/ctl/collections`, {
    name: 'support',
    type: 'PERSONS',
    properties: [
      { name: 'name', data_type_name: 'NAME' },
      { name: 'email', data_type_name: 'EMAIL' },
      { name: 'phone', data_type_name: 'PHONE_NUMBER' },
    ],
  })
  const url = `${server.baseUrl}${API}/data/analysis/protect?reason=AppFunctionality&collection=support`
  const batch = (i: number) =>
    Array.from({ length: TEXTS_PER_CALL }, (_, j) => ticket(i * TEXTS_PER_CALL + j))
  const first = await fetch(url, {
    method: 'POST',
    headers: AUTH,
    body: JSON.stringify({ text: batch(0) }),
  })
  const sample = (await first.json()) as { replacements: unknown[] }[]
  if (sample.some((r) => r.replacements.length !== 3))
    throw new Error('a ticket did not get 3 tokens')
  for (let i = 1; i < 5; i++) await call(url, { text: batch(i) })
  const samples = await measureCpu(server, () =>
    closedLoop((i) => call(url, { text: batch(i + 5) })),
  )
  report(
    `protect on SQLite, ${TEXTS_PER_CALL} texts of 3 entities a call (new values)`,
    samples.result,
    TEXTS_PER_CALL,
    samples.cpu,
  )
}

/** A long text of evaluation-set texts, one a line (tickets, logs, rows, with and without PII). */
function longText(size: number): string {
  const cases = loadCases()
  const parts: string[] = []
  let length = 0
  for (let i = 0; length < size; i++) {
    const text = (cases[(i * 7) % cases.length] as { text: string }).text
    parts.push(text)
    length += text.length + 1
  }
  return parts.join('\n').slice(0, size)
}

/** In this process, so the event loop the detector runs on is the one measured. */
async function long(): Promise<void> {
  const config = loadConfig(
    {
      SVC_BACKING_STORE: 'memory',
      SVC_SERVICE_LISTEN_ADDR: '127.0.0.1:0',
      SVC_LOG_LEVEL: 'error',
      SVC_LOG_AUDIT_SINK: 'none',
    },
    { devmode: true, files: false },
  )
  const app = await createApp(config, { isLogSilent: true })
  const base = await app.listen()
  const url = `${base}${API}/data/analysis/locate?reason=AppFunctionality`
  // Warm-up: the first call loads the recognizers and name lists and the JIT compiles them.
  for (let i = 0; i < 3; i++) await call(url, { text: [longText(100_000)] })
  for (const kb of [25, 50, 100, 200]) {
    const text = longText(kb * 1000)
    const histogram = monitorEventLoopDelay({ resolution: 1 })
    histogram.enable()
    const started = performance.now()
    const cpuStart = process.cpuUsage()
    await call(url, { text: [text] })
    const cpu = process.cpuUsage(cpuStart)
    const ms = performance.now() - started
    histogram.disable()
    const maxStall = histogram.max / 1e6
    const cpuMs = (cpu.user + cpu.system) / 1000
    console.log(
      `locate, one text of ${kb} KB: ${ms.toFixed(0)} ms (${(ms / kb).toFixed(2)} ms/KB; CPU ${(cpuMs / kb).toFixed(2)} ms/KB); longest event-loop delay ${maxStall.toFixed(1)} ms`,
    )
  }
  await app.close()
}

const { values } = parseArgs({ options: { scenario: { type: 'string', default: 'all' } } })
const wants = (name: string) => values.scenario === 'all' || values.scenario === name
console.log(
  `PII analysis benchmark (${SECONDS} s a scenario; shared machine figures are indicative)`,
)
if (wants('contains')) {
  const server = await startBenchServer('sqlite')
  try {
    await contains(server)
  } finally {
    await server.stop()
  }
}
if (wants('long')) await long()
if (wants('protect')) {
  const server = await startBenchServer('sqlite')
  try {
    await protect(server)
  } finally {
    await server.stop()
  }
}
