// bench/audit.ts: the single-call cost of each audit sink (none, database, file, file+database) with its hash chain
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { AUTH, CONNECTIONS, DURATION, STORE, startInProcess } from './in-process.ts'

/** Rounds of every mode, run alternately so that a machine that slows down hurts all alike. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
/** Comma-separated subset of the modes below (an older build knows only single sinks). */
const PICKED = process.env.BENCH_AUDIT_SINKS?.split(',')

const MODES = ['none', 'database', 'file', 'file,database'].filter(
  (mode) => PICKED === undefined || PICKED.includes(mode),
)

const SCENARIOS = [
  { title: 'GET version (auth + audit)', path: '/system/info/version', method: 'GET' as const },
  {
    title: 'tokenize, 1 item',
    path: '/data/collections/people/tokens?reason=AppFunctionality',
    method: 'POST' as const,
    body: [{ type: 'randomized', object: { fields: { name: 'Jo Doe', ssn: '123-45-6789' } } }],
  },
]

/** `cpu`: µs of this process's CPU (node and load generator) per request: steadier than req/s. */
async function measure(base: string, scenario: (typeof SCENARIOS)[number], seconds: number) {
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
  const cpu = (used.user + used.system) / result.requests.total
  return { rate: result.requests.average, p99: result.latency.p99, cpu }
}

console.log(
  `store ${STORE}, ${DURATION} s per run, ${ROUNDS} rounds, ${CONNECTIONS} connections, node ${process.version}`,
)
for (let round = 1; round <= ROUNDS; round++) {
  for (const mode of MODES) {
    const dir = mkdtempSync(join(tmpdir(), 'strongroom-bench-audit-'))
    const node = await startInProcess({
      SVC_LOG_AUDIT_SINK: mode,
      SVC_LOG_AUDIT_FILE: join(dir, 'audit.log'),
    })
    for (const scenario of SCENARIOS) {
      await measure(node.base, scenario, 2) // warm-up: JIT, connections
      const { rate, p99, cpu } = await measure(node.base, scenario, DURATION)
      console.log(
        `round ${round}  ${mode.padEnd(14)} ${scenario.title.padEnd(28)} ${rate.toFixed(0).padStart(6)} req/s  p99 ${p99} ms  cpu ${cpu.toFixed(0)} µs/request`,
      )
    }
    await node.close()
    rmSync(dir, { recursive: true, force: true })
  }
}
