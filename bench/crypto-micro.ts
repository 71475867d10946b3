// bench/crypto-micro.ts: µs per HMAC tag, blind and n-gram digest, and per value sealed and opened in batches
//
//   node bench/crypto-micro.ts            (BENCH_ROUNDS, default 15)
//
// In process, no HTTP or database: the cost of the primitives the write and search paths call
// per value. Each figure is the median of BENCH_ROUNDS timed rounds after a warm-up, in CPU time
// of this process (user + system: on a shared machine it leaves out the time spent waiting for a
// core) and, in brackets, in wall time. Compare runs taken back to back.
import { createHmac, createSecretKey, randomBytes } from 'node:crypto'
import { cpus, loadavg } from 'node:os'
import { deriveAeadKey, openMany, sealMany } from '../src/core/crypto/aead.ts'
import { bindingOf } from '../src/core/crypto/envelope.ts'
import { createMac } from '../src/core/crypto/mac.ts'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15)

const median = (values: number[]) => values.sort((a, b) => a - b)[values.length >> 1] as number

function measure(title: string, opsPerCall: number, calls: number, run: () => unknown): void {
  for (let i = 0; i < calls; i++) run()
  const cpu: number[] = []
  const wall: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    const startCpu = process.cpuUsage()
    const start = process.hrtime.bigint()
    for (let i = 0; i < calls; i++) run()
    const ops = calls * opsPerCall
    wall.push(Number(process.hrtime.bigint() - start) / 1000 / ops)
    const used = process.cpuUsage(startCpu)
    cpu.push((used.user + used.system) / ops)
  }
  console.log(
    `${title.padEnd(52)} ${median(cpu).toFixed(3).padStart(7)} µs CPU  (wall ${median(wall).toFixed(3)})`,
  )
}

const [cpu] = cpus()
console.log(
  `Node ${process.versions.node}, ${cpu?.model ?? 'unknown CPU'} ×${cpus().length}, ` +
    `load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}, ${ROUNDS} rounds`,
)

// A stored value's tag input: header ‖ IV, len(AAD), AAD (an object value's binding), ciphertext.
const macKey = randomBytes(32)
const mac = createMac(macKey)
const aad = bindingOf(['object', 'people', '6f1c0c52-3b8e-4d5e-9a57-0c7d2b3e4f10', 'ssn'])
const parts = [randomBytes(21), Buffer.alloc(8, 0), aad, randomBytes(13)]
const joined = Buffer.concat(parts)
console.log(`tag input ${joined.length} bytes`)

measure('HMAC tag of a sealed value (createMac, 4 parts)', 1, 20_000, () => mac.concat(parts))
measure('blind-index digest (createMac, JSON of an SSN)', 1, 20_000, () => mac('"123-45-6789"'))
measure('n-gram digest (createMac, 3 characters)', 1, 20_000, () => mac('joh'))
measure('reference: createHmac, raw key per call', 1, 5_000, () =>
  createHmac('sha256', macKey).update(joined).digest(),
)
const keyObject = createSecretKey(macKey)
measure('reference: createHmac, KeyObject', 1, 20_000, () =>
  createHmac('sha256', keyObject).update(joined).digest(),
)

const key = deriveAeadKey(randomBytes(32), 1)
const BATCH = 2_000
const items = Array.from({ length: BATCH }, (_, i) => ({
  plaintext: Buffer.from(JSON.stringify(`123-45-${String(i).padStart(4, '0')}`)),
  aad: bindingOf(['object', 'people', `object-${i}`, 'ssn']),
}))
const sealed = sealMany(key, items)
const toOpen = sealed.map((s, i) => ({ sealed: s, aad: items[i]?.aad as Buffer }))
measure(`seal, per value in batches of ${BATCH}`, BATCH, 10, () => sealMany(key, items))
measure(`open, per value in batches of ${BATCH}`, BATCH, 10, () => openMany(key, toOpen))
