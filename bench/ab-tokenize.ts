// bench/ab-tokenize.ts: single-call tokenize latency of this tree against another checkout, interleaved in one process
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { type InProcessNode, startInProcess } from './in-process.ts'
import { type Latency, percentiles } from './latency.ts'

/**
 * `node bench/ab-tokenize.ts <other checkout>`: starts a node of this tree and one of the other
 * (its `bench/in-process.ts`, its `src`) in this process, on `BENCH_STORE` (`memory`, `sqlite` or
 * `postgres`: a fresh database each on SVC_TEST_DATABASE_URL), and sends one-item tokenize calls
 * one at a time, alternating between the two nodes (and which goes first), so load changes on a
 * shared machine fall on both alike. `BENCH_CALLS` calls each (default 2000) after 200 unmeasured.
 */
const other = process.argv[2]
if (other === undefined) throw new Error('usage: node bench/ab-tokenize.ts <other checkout>')
const CALLS = Number(process.env.BENCH_CALLS ?? 2000)
const STORE = process.env.BENCH_STORE ?? 'memory'
const REASON = 'reason=AppFunctionality'
const HEADERS = { authorization: 'Bearer pvaultauth', 'content-type': 'application/json' }

type Start = (env?: Record<string, string>) => Promise<InProcessNode>
const startOther = (await import(`${other}/bench/in-process.ts`)).startInProcess as Start

const url = new URL(
  process.env.SVC_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
)
const admin = () =>
  new pg.Client({
    host: url.hostname,
    port: Number(url.port || 5432),
    user: decodeURIComponent(url.username || 'postgres'),
    password: decodeURIComponent(url.password),
    database: url.pathname.slice(1) || 'postgres',
  })
const databases: string[] = []

/** The SVC_* variables of a fresh PostgreSQL database, or none for the SQLite stores. */
async function storeEnv(): Promise<Record<string, string>> {
  if (STORE !== 'postgres') return { SVC_BACKING_STORE: STORE }
  const name = `bench_ab_${randomBytes(4).toString('hex')}`
  const client = admin()
  await client.connect()
  await client.query(`CREATE DATABASE ${name}`)
  await client.end()
  databases.push(name)
  return {
    SVC_BACKING_STORE: 'postgres',
    SVC_DB_HOSTNAME: url.hostname,
    SVC_DB_PORT: url.port || '5432',
    SVC_DB_USER: decodeURIComponent(url.username || 'postgres'),
    SVC_DB_PASSWORD: decodeURIComponent(url.password) || 'unused',
    SVC_DB_NAME: name,
    SVC_DB_REQUIRE_TLS: 'false',
  }
}

const nodes = {
  this: await startInProcess(await storeEnv()),
  other: await startOther(await storeEnv()),
}

async function tokenize(node: InProcessNode, i: number): Promise<number> {
  const body = [
    { type: 'randomized', object: { fields: { name: `Jo Doe ${i}`, ssn: '123-45-6789' } } },
  ]
  const started = performance.now()
  const res = await fetch(`${node.base}/data/collections/people/tokens?${REASON}`, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify(body),
  })
  await res.arrayBuffer()
  if (res.status !== 200) throw new Error(`tokenize answered ${res.status}`)
  return performance.now() - started
}

const samples: Record<keyof typeof nodes, number[]> = { this: [], other: [] }
for (let i = 0; i < 200 + CALLS; i++) {
  const order: (keyof typeof nodes)[] = i % 2 === 0 ? ['this', 'other'] : ['other', 'this']
  for (const name of order) {
    const ms = await tokenize(nodes[name], i)
    if (i >= 200) samples[name].push(ms)
  }
}
const line = (name: string, l: Latency) =>
  `${name.padEnd(6)} p50 ${l.p50} ms  p90 ${l.p90} ms  p99 ${l.p99} ms  mean ${l.mean} ms`
console.log(
  `store ${STORE}, ${CALLS} one-item tokenize calls each, interleaved, node ${process.version}`,
)
console.log(line('this', percentiles(samples.this)))
console.log(line('other', percentiles(samples.other)))
await nodes.this.close()
await nodes.other.close()
for (const name of databases) {
  const client = admin()
  await client.connect()
  await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  await client.end()
}
