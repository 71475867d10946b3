// bench/crypto.ts: encrypt and decrypt throughput over HTTP: one item per call, and 1000-item bulk calls
import autocannon from 'autocannon'
import { createApp } from '../src/app.ts'
import { loadConfig } from '../src/config.ts'

const DURATION = Number(process.env.BENCH_SECONDS ?? 10)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16)
const STORE = process.env.BENCH_STORE ?? 'memory'
const AUTH = { authorization: 'Bearer pvaultauth', 'content-type': 'application/json' }
const FIELDS = { name: 'Jo Doe', ssn: '123-45-6789', email: 'jo@example.com' }

const config = loadConfig(
  {
    SVC_BACKING_STORE: STORE,
    SVC_DATA_DIR: '/tmp/strongroom-bench',
    SVC_SERVICE_LISTEN_ADDR: '127.0.0.1:0',
    SVC_LOG_LEVEL: 'error',
    SVC_LOG_AUDIT_SINK: 'database',
  },
  { devmode: true, files: false },
)
const app = await createApp(config, { isLogSilent: true })
const base = `${await app.listen()}/api/pvlt/1.0`

async function post(path: string, body: unknown): Promise<unknown> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: AUTH,
    body: JSON.stringify(body),
  })
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`)
  return res.json()
}

await post('/ctl/collections', {
  name: 'people',
  type: 'PERSONS',
  properties: [
    { name: 'name', data_type_name: 'NAME' },
    { name: 'ssn', data_type_name: 'SSN' },
    { name: 'email', data_type_name: 'EMAIL' },
  ],
})

const ENCRYPT = '/data/collections/people/encrypt/objects?reason=AppFunctionality'
const DECRYPT = '/data/collections/people/decrypt/objects?reason=AppFunctionality'
const encryptItems = (n: number, type: string) =>
  Array.from({ length: n }, () => ({ object: { fields: FIELDS }, type }))

async function load(path: string, body: unknown, items: number, duration: number) {
  return autocannon({
    url: `${base}${path}`,
    method: 'POST',
    headers: AUTH,
    body: JSON.stringify(body),
    connections: items > 1 ? Math.min(CONNECTIONS, 4) : CONNECTIONS,
    duration,
    // The load generator runs in its own thread so it does not share the server's event loop.
    workers: 1,
  })
}

async function run(title: string, path: string, body: unknown, items: number): Promise<void> {
  const result = await load(path, body, items, DURATION)
  const failed = result.non2xx + result.errors + result.timeouts
  const rate = result.requests.average
  const perItem = items > 1 ? `  ${Math.round(rate * items).toLocaleString('en')} items/s` : ''
  console.log(
    `${title.padEnd(34)} ${rate.toFixed(0).padStart(7)} req/s${perItem}  p99 ${result.latency.p99} ms  failed ${failed}`,
  )
}

// Warm-up: JIT and connection pools, so the first scenario is not penalized.
await load(ENCRYPT, encryptItems(1, 'randomized'), 1, 3)
await load(ENCRYPT, encryptItems(1000, 'randomized'), 1000, 2)

for (const type of ['randomized', 'deterministic']) {
  const [one] = (await post(ENCRYPT, encryptItems(1, type))) as { ciphertext: string }[]
  const bulk = (await post(ENCRYPT, encryptItems(1000, type))) as { ciphertext: string }[]
  const toDecrypt = (list: { ciphertext: string }[]) =>
    list.map(({ ciphertext }) => ({ encrypted_object: { ciphertext } }))
  await run(`encrypt ${type}, 1 item`, ENCRYPT, encryptItems(1, type), 1)
  await run(`decrypt ${type}, 1 item`, DECRYPT, toDecrypt([one as { ciphertext: string }]), 1)
  await run(`encrypt ${type}, 1000 items`, ENCRYPT, encryptItems(1000, type), 1000)
  await run(`decrypt ${type}, 1000 items`, DECRYPT, toDecrypt(bulk), 1000)
}

await app.close()
