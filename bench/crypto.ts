// bench/crypto.ts: encrypt and decrypt throughput over HTTP: one item per call, and 1000-item bulk calls
import autocannon from 'autocannon'
import { AUTH, CONNECTIONS, DURATION, startInProcess } from './in-process.ts'

const FIELDS = { name: 'Jo Doe', ssn: '123-45-6789', email: 'jo@example.com' }
const node = await startInProcess()
const { base, post } = node

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

await node.close()
