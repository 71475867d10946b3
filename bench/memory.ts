// bench/memory.ts: the node's resident memory over many key rotations and mixed requests
import { COLLECTION, personOf, ssnOf } from './data.ts'
import { probe } from './memory-probe.ts'
import { type Engine, startBenchServer } from './server.ts'

const args = new Map<string, string>()
for (let i = 2; i < process.argv.length; i += 2)
  args.set(process.argv[i]?.replace(/^--/, '') ?? '', process.argv[i + 1] ?? '')
const engine = (args.get('engine') ?? 'sqlite') as Engine
const ROTATIONS = Number(args.get('rotations') ?? 300)
const REQUESTS = Number(args.get('requests') ?? 20_000)
const OBJECTS = Number(args.get('objects') ?? 200)
const CONCURRENCY = Number(args.get('concurrency') ?? 8)
// Idle long enough for the node's idle memory release (src/app-memory.ts: one idle 5 s period
// after work) to have run: "idle RSS" is what a node holds once traffic stops.
const IDLE_MS = Number(args.get('idle-ms') ?? 12_000)
/** Idle RSS is also taken after every this many rotations, for the slope per rotation. */
const IDLE_EVERY = Number(args.get('idle-every') ?? 100)
const TIMEOUT_SECONDS = args.get('timeout-seconds') ?? '0.5'
/** Node options of the node under test, e.g. `--node-options --max-semi-space-size=16`. */
const NODE_OPTIONS_ARG = args.get('node-options')
/**
 * `--probe <port>`: after each idle measurement, print where the memory is (memory-probe.ts); the
 * node's inspector is opened on that port by SIGUSR1 after the first RSS figure is taken.
 */
const PROBE_PORT = args.has('probe') ? Number(args.get('probe')) : undefined
const NODE_OPTIONS =
  [
    NODE_OPTIONS_ARG,
    PROBE_PORT === undefined ? undefined : `--inspect-port=127.0.0.1:${PROBE_PORT}`,
  ]
    .filter((option) => option !== undefined)
    .join(' ') || undefined

const API = '/api/pvlt/1.0'
const REASON = 'reason=AppFunctionality'
const AUTH = { authorization: 'Bearer pvaultauth' }
const JSON_BODY = { ...AUTH, 'content-type': 'application/json' }
const MB = 1024 * 1024

const node = await startBenchServer(engine, {
  // Re-encryption after each rotation settles for the cache refresh interval plus the call
  // timeout (how long another node may still write with the previous keys): short here, so 300
  // rotations run one after the other in minutes.
  SVC_SERVICE_CACHE_REFRESH_INTERVAL: '0',
  SVC_SERVICE_TIMEOUT_SECONDS: TIMEOUT_SECONDS,
  SVC_KMS_REENCRYPT_PAUSE: '0',
  ...(NODE_OPTIONS ? { NODE_OPTIONS } : {}),
})

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(`${node.baseUrl}${API}${path}`, {
    method,
    headers: body === undefined ? AUTH : JSON_BODY,
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  return { status: res.status, json: text === '' ? undefined : JSON.parse(text) }
}

async function ok(method: string, path: string, body?: unknown) {
  const res = await call(method, path, body)
  if (res.status !== 200)
    throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.json)}`)
  return res.json
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const rss = () => (node.rssBytes() ?? 0) / MB
const figure = (mb: number) => `${mb.toFixed(1)} MB`
/**
 * Waits until the node's main thread has stayed under 5% busy for 5 s in a row (background work
 * after a burst, such as the substring index catching up with the objects added, took 5–8 s on
 * PostgreSQL), then IDLE_MS: the idle release needs a whole idle period after the work.
 */
async function waitIdle(): Promise<void> {
  let last = node.mainThreadCpuSeconds()
  for (let quiet = 0; quiet < 5; ) {
    await sleep(1000)
    const now = node.mainThreadCpuSeconds()
    if (now === undefined || last === undefined) break
    quiet = now - last < 0.05 ? quiet + 1 : 0
    last = now
  }
  await sleep(IDLE_MS)
}
/** The least-squares slope of idle RSS figures (MB) against the rotation count, in KB per rotation. */
function slope(points: readonly (readonly [number, number])[]): string {
  if (points.length < 2) return 'n/a'
  const meanX = points.reduce((sum, [x]) => sum + x, 0) / points.length
  const meanY = points.reduce((sum, [, y]) => sum + y, 0) / points.length
  let num = 0
  let den = 0
  for (const [x, y] of points) {
    num += (x - meanX) * (y - meanY)
    den += (x - meanX) ** 2
  }
  return `${((num / den) * 1024).toFixed(1)} KB per rotation`
}
async function reencrypted(): Promise<void> {
  for (;;) {
    const status = await ok('GET', '/system/admin/keys/rotation')
    if (status.status === 'done') return
    await sleep(200)
  }
}
async function where(): Promise<void> {
  if (PROBE_PORT !== undefined && node.pid !== undefined)
    console.log(await probe(node.pid, PROBE_PORT))
}

try {
  await waitIdle()
  const fresh = rss()
  console.log(
    `engine ${engine}, node ${process.version}${NODE_OPTIONS ? `, ${NODE_OPTIONS}` : ''}; fresh node, idle: ${figure(fresh)}`,
  )
  await where()

  await ok('POST', '/ctl/collections', COLLECTION)
  const ids: string[] = []
  for (let i = 0; i < OBJECTS; i += 100) {
    const batch = Array.from({ length: Math.min(100, OBJECTS - i) }, (_, j) => personOf(i + j))
    const result = await ok('POST', `/data/collections/people/bulk/objects?${REASON}`, batch)
    for (const item of result.results) ids.push(item.id)
  }

  // Rotations one after the other: each waits until re-encryption of the previous one is done
  // (a rotation requested while it runs is refused with 409).
  let refused = 0
  const started = Date.now()
  // Idle RSS every IDLE_EVERY rotations (re-encryption done, then the idle wait): busy figures
  // swing with the young generation, idle ones show what stays.
  const idlePoints: [number, number][] = []
  for (let i = 1; i <= ROTATIONS; i++) {
    for (;;) {
      const res = await call('POST', '/system/admin/keys/rotate')
      if (res.status === 200) break
      // 409: the previous re-encryption still runs; 503: the call timed out on a loaded machine.
      if (res.status !== 409 && res.status !== 503)
        throw new Error(`rotate: ${res.status} ${JSON.stringify(res.json)}`)
      refused++
      await sleep(50)
    }
    if (i % IDLE_EVERY === 0 && i < ROTATIONS) {
      await reencrypted()
      await waitIdle()
      idlePoints.push([i, rss()])
      console.log(`  after ${i} rotations, idle: ${figure(rss())}`)
    } else if (i % 50 === 0)
      console.log(
        `  after ${i} rotations: ${figure(rss())} (${((Date.now() - started) / 1000).toFixed(0)} s, ${refused} refused with 409 while re-encryption ran)`,
      )
  }
  await reencrypted()
  await waitIdle()
  const afterRotations = rss()
  idlePoints.push([ROTATIONS, afterRotations])
  console.log(
    `after ${ROTATIONS} rotations, idle: ${figure(afterRotations)} (+${figure(afterRotations - fresh)}); idle RSS slope: ${slope(idlePoints)}`,
  )
  await where()

  // Mixed requests: reads, searches, adds, tokenize and detokenize, control reads.
  const kinds = [
    (i: number) =>
      call(
        'GET',
        `/data/collections/people/objects/${ids[i % ids.length]}?${REASON}&props=name,email`,
      ),
    (i: number) =>
      call('POST', `/data/collections/people/query/objects?${REASON}&props=name`, {
        match: { ssn: ssnOf(i % OBJECTS) },
      }),
    (i: number) =>
      call('POST', `/data/collections/people/objects?${REASON}`, personOf(OBJECTS + i)),
    (i: number) =>
      call('POST', `/data/collections/people/tokens?${REASON}`, [
        { type: 'randomized', object: { id: ids[i % ids.length] }, props: ['email'] },
      ]),
    () => call('GET', '/ctl/collections/people'),
    () => call('GET', '/system/info/version'),
  ]
  let next = 0
  const statuses = new Map<number, number>()
  async function worker() {
    for (;;) {
      const i = next++
      if (i >= REQUESTS) return
      const res = await (kinds[i % kinds.length] as (i: number) => Promise<{ status: number }>)(i)
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1)
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker))
  const peak = rss()
  await waitIdle()
  const idle = rss()
  console.log(
    `after ${REQUESTS} mixed requests (statuses ${JSON.stringify(Object.fromEntries(statuses))}): ${figure(peak)}; idle: ${figure(idle)}`,
  )
  console.log(`idle RSS above the fresh node's: ${figure(idle - fresh)} (bound: 50 MB)`)
  await where()
} finally {
  await node.stop()
}
