// bench/types.ts: what custom data types add to a node's calls: a custom transformer on a 1,000-object list, validator + normalizer on a 1,000-object bulk add
// node bench/types.ts [--engine sqlite|postgres] [--rounds 30]
import { parseArgs } from 'node:util'
import { type Engine, startBenchServer } from './server.ts'

const { values } = parseArgs({
  options: {
    engine: { type: 'string', default: 'sqlite' },
    rounds: { type: 'string', default: '30' },
  },
})
const ROUNDS = Number(values.rounds)
const ITEMS = 1000
const API = '/api/pvlt/1.0'
const REASON = 'reason=AppFunctionality'

const SCRIPT = `
exports.validate = { type: 'validator', handler: (value) => /^\\d{3}-?\\d{2}-?\\d{4}$/.test(value) }
exports.normalize = { type: 'normalizer', handler: (value) => value.replace(/-/g, '') }
exports.mask = { type: 'transformer', handler: (context, object, value) => '*****' + value.slice(-4) }
`

const ssn = (i: number) =>
  `${String(100 + (i % 800)).padStart(3, '0')}-${String(10 + (i % 89))}-${String(1000 + (i % 9000))}`

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN
}

const p50 = (samples: number[]) =>
  percentile(
    [...samples].sort((a, b) => a - b),
    50,
  )

function line(title: string, samples: number[]): void {
  const sorted = [...samples].sort((a, b) => a - b)
  console.log(
    `${title.padEnd(52)} p50 ${percentile(sorted, 50).toFixed(1)} ms  p90 ${percentile(sorted, 90).toFixed(1)} ms`,
  )
}

const server = await startBenchServer(values.engine as Engine)
async function call(method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${server.baseUrl}${API}${path}`, {
    method,
    headers: { authorization: 'Bearer pvaultauth', 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`)
  return text === '' ? undefined : JSON.parse(text)
}

/** CPU milliseconds the node spent per kind of call (all its threads), summed over the rounds. */
const cpu = new Map<string, number>()

async function timed(work: () => Promise<unknown>, kind = ''): Promise<number> {
  const cpuBefore = server.cpuSeconds() ?? 0
  const start = performance.now()
  await work()
  const ms = performance.now() - start
  cpu.set(kind, (cpu.get(kind) ?? 0) + ((server.cpuSeconds() ?? 0) - cpuBefore) * 1000)
  return ms
}

/** The node's CPU time per call of a kind (10 ms resolution per sample, so summed). */
const cpuPerCall = (kind: string) => (cpu.get(kind) ?? 0) / ROUNDS

try {
  await call('POST', '/ctl/bundles', { name: 'ssn', code: Buffer.from(SCRIPT).toString('base64') })
  await call('POST', '/ctl/types', {
    name: 'STRING_SSN',
    base_type_name: 'STRING',
    validator: 'ssn.validate',
    normalizer: 'ssn.normalize',
    transformers: ['ssn.mask'],
  })
  // Same base type and attributes; only the custom steps differ.
  await call('POST', '/ctl/collections', {
    name: 'people',
    type: 'PERSONS',
    properties: [
      { name: 'plain', data_type_name: 'STRING', is_nullable: true },
      { name: 'custom', data_type_name: 'STRING_SSN', is_nullable: true },
    ],
  })
  const bulk = (property: string, round: number) =>
    call(
      'POST',
      `/data/collections/people/bulk/objects?${REASON}`,
      Array.from({ length: ITEMS }, (_, i) => ({ [property]: ssn(round * ITEMS + i) })),
    )
  // Warm-up: the first sandbox call starts a worker and loads the bundle.
  for (let round = 0; round < 3; round++) {
    await bulk('plain', round)
    await bulk('custom', round)
  }
  const plainAdds: number[] = []
  const customAdds: number[] = []
  for (let round = 3; round < ROUNDS + 3; round++) {
    plainAdds.push(await timed(() => bulk('plain', round), 'plainAdd'))
    customAdds.push(await timed(() => bulk('custom', round), 'customAdd'))
  }
  const list = (props: string) =>
    call('GET', `/data/collections/people/objects?${REASON}&page_size=${ITEMS}&props=${props}`)
  for (let i = 0; i < 5; i++) await list('custom.mask')
  const plainLists: number[] = []
  const builtinLists: number[] = []
  const customLists: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    plainLists.push(await timed(() => list('custom'), 'plainList'))
    builtinLists.push(await timed(() => list('custom.token')))
    customLists.push(await timed(() => list('custom.mask'), 'customList'))
  }
  console.log(`engine ${server.engine}, ${ROUNDS} rounds, interleaved`)
  line('bulk add 1,000 objects, STRING property', plainAdds)
  line('bulk add 1,000 objects, custom type (validator+normalizer)', customAdds)
  console.log(
    `  added by the custom steps (p50)                    ${(p50(customAdds) - p50(plainAdds)).toFixed(1)} ms`,
  )
  console.log(
    `  node CPU per call: ${cpuPerCall('plainAdd').toFixed(1)} ms → ${cpuPerCall('customAdd').toFixed(1)} ms (added ${(cpuPerCall('customAdd') - cpuPerCall('plainAdd')).toFixed(1)} ms)`,
  )
  line('list 1,000 objects, props=custom (no transformer)', plainLists)
  line('list 1,000 objects, props=custom.token (built-in)', builtinLists)
  line('list 1,000 objects, props=custom.mask (custom)', customLists)
  console.log(
    `  added by the custom transformer (p50)              ${(p50(customLists) - p50(plainLists)).toFixed(1)} ms`,
  )
  console.log(
    `  node CPU per call: ${cpuPerCall('plainList').toFixed(1)} ms → ${cpuPerCall('customList').toFixed(1)} ms (added ${(cpuPerCall('customList') - cpuPerCall('plainList')).toFixed(1)} ms)`,
  )
} finally {
  await server.stop()
}
