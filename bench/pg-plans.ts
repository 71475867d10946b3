// bench/pg-plans.ts: PostgreSQL search plans right after a bulk load, before and after ANALYZE (see bench/README.md)
import { parseArgs } from 'node:util'
import pg from 'pg'
import type { ObjectFilter, SearchCondition } from '../src/core/objects/store.ts'
import type { PagePosition } from '../src/core/paging/cursor.ts'
import { openDatabase } from '../src/storage/database.ts'
import { PREPARED } from '../src/storage/dialects/dialect.ts'
import { createObjectSearch } from '../src/storage/repos/object-search.ts'
import { COLLECTION, ssnOf } from './data.ts'
import { call, loadPeople, REASON } from './http.ts'
import { type Latency, measure } from './latency.ts'
import { type BenchServer, startBenchServer } from './server.ts'

const { values: args } = parseArgs({
  options: {
    objects: { type: 'string', default: '100000' },
    requests: { type: 'string', default: '500' },
    explain: { type: 'boolean', default: false },
  },
})

const show = (l: Latency) => `p50 ${l.p50} ms, p99 ${l.p99} ms`

/** Sequential HTTP latencies of the searches whose plans matter. */
async function latencies(server: BenchServer, count: number, requests: number, ids: string[]) {
  const query = `/data/collections/people/query/objects?${REASON}&props=name,email`
  // The floor: an authenticated request that touches no data, over the same connection.
  const floor = await measure(requests, () => call(server, 'GET', '/system/info/version'))
  const exact = await measure(requests, (i) =>
    call(server, 'POST', query, { match: { ssn: ssnOf((i * 7919) % count) } }),
  )
  const byId = await measure(requests, (i) =>
    call(server, 'POST', query, { match: { id: ids[(i * 7919) % ids.length] } }),
  )
  // A list page deep in the collection: the cursor of a page, then the page after it.
  const list = await measure(Math.ceil(requests / 5), async (i) => {
    const first = await call(
      server,
      'GET',
      `/data/collections/people/objects?${REASON}&props=name&page_size=100`,
    )
    const cursor = i === 0 ? undefined : (JSON.parse(await first.text()).next_cursor as string)
    return call(
      server,
      'GET',
      `/data/collections/people/objects?${REASON}&props=name&page_size=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    )
  })
  return { floor, exact, byId, list }
}

type Captured = { sql: string; parameters: readonly unknown[] }

/** The statements the repository runs for each shape, captured as run, then EXPLAINed. */
async function plans(pgUrl: string, count: number): Promise<Record<string, string>> {
  const url = new URL(pgUrl)
  const captured: Captured[] = []
  const { db, dialect } = openDatabase(
    {
      kind: 'postgres',
      host: url.hostname,
      port: Number(url.port || 5432),
      database: url.pathname.slice(1),
      user: decodeURIComponent(url.username || 'postgres'),
      password: decodeURIComponent(url.password),
      requireTls: false,
      maxOpenConns: 2,
      maxIdleConns: 2,
      connMaxLifetimeMs: 60_000,
    },
    { onQuery: (sql, _ms, parameters) => captured.push({ sql, parameters }) },
  )
  const client = new pg.Client({ connectionString: pgUrl })
  await client.connect()
  try {
    const search = createObjectSearch(db, dialect)
    const target = ssnOf(Math.floor(count / 2))
    const row = await client.query(
      `SELECT i.digest, o.id, o.created_at FROM object_index i JOIN objects o ON o.collection = i.collection AND o.id = i.object_id
       WHERE i.collection = 'people' AND i.property = 'ssn' ORDER BY o.created_at OFFSET $1 LIMIT 1`,
      [Math.floor(count / 2)],
    )
    void target
    const { digest, id, created_at } = row.rows[0]
    const filter: ObjectFilter = { collection: 'people', state: 'active', now: Date.now() * 1000 }
    const middle: PagePosition = { createdAt: Number(created_at), id }
    const shapes: [string, () => Promise<unknown>][] = [
      ['exact (digests)', () => search.search(filter, [digests(digest)], undefined, 100)],
      ['by id', () => search.search(filter, [{ kind: 'ids', ids: [id] }], undefined, 100)],
      ['list page after a cursor', () => search.search(filter, [], middle, 100)],
      ['scan batch after a cursor', () => search.scan(filter, [], middle, 500, ['email'])],
      ['count after a cursor (cap 10,000)', () => search.countAfter(filter, [], middle, 10_000)],
    ]
    const out: Record<string, string> = {}
    for (const [name, run] of shapes) {
      captured.length = 0
      await run()
      const at = captured.findLastIndex((c) => c.sql.includes('"objects"'))
      const statement = captured[at]
      if (statement === undefined) throw new Error(`${name}: no statement`)
      const text = statement.sql.replace(PREPARED, '')
      const settings = captured.slice(0, at).filter((c) => c.sql.includes('set_config('))
      // Before: the statement alone (as before walks set anything); after: as the service runs it.
      for (const [when, replayed] of [
        ['before', []],
        ['after', settings],
      ] as const) {
        // A prepared statement runs a generic plan from its sixth execution: both plans.
        for (const mode of ['force_custom_plan', 'force_generic_plan']) {
          await client.query('BEGIN')
          for (const setting of replayed) await client.query(setting.sql)
          await client.query(`SET LOCAL plan_cache_mode = ${mode}`)
          await client.query(`PREPARE probe AS ${text}`)
          const values = statement.parameters.map((v) => literal(client, v)).join(', ')
          const { rows } = await client.query(`EXPLAIN (ANALYZE, BUFFERS) EXECUTE probe(${values})`)
          await client.query('DEALLOCATE probe')
          await client.query('COMMIT')
          const plan = rows.map((r) => r['QUERY PLAN']).join('\n')
          const key = `${name}, ${when}, ${mode === 'force_custom_plan' ? 'custom' : 'generic'} plan`
          out[key] = args.explain ? plan : (/Execution Time: .*/.exec(plan)?.[0] ?? plan)
        }
      }
    }
    return out
  } finally {
    await client.end()
    await db.destroy()
  }
}

/** A parameter as an SQL literal of unknown type (the prepared statement gives it its type). */
function literal(client: pg.Client, value: unknown): string {
  if (value === null || value === undefined) return 'NULL'
  if (typeof value === 'number') return String(value)
  if (value instanceof Uint8Array) return `'\\x${Buffer.from(value).toString('hex')}'`
  if (Array.isArray(value)) return client.escapeLiteral(`{${value.map((v) => `"${v}"`).join(',')}}`)
  return client.escapeLiteral(String(value))
}

const digests = (digest: Uint8Array): SearchCondition => ({
  kind: 'digests',
  property: 'ssn',
  digests: [digest],
})

async function analyzed(pgUrl: string): Promise<string> {
  const client = new pg.Client({ connectionString: pgUrl })
  await client.connect()
  try {
    const { rows } = await client.query(
      `SELECT s.relname, coalesce(last_analyze, last_autoanalyze)::text AS at, c.reltuples, c.relpages,
         coalesce(last_vacuum, last_autovacuum)::text AS vacuumed
       FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
       WHERE s.relname IN ('objects', 'object_index') ORDER BY s.relname`,
    )
    return rows
      .map(
        (r) =>
          `${r.relname}: ${r.at === null ? 'never analyzed' : `analyzed ${r.at}`}, ${r.vacuumed === null ? 'never vacuumed' : `vacuumed ${r.vacuumed}`} (pg_class: ${r.reltuples} rows, ${r.relpages} pages)`,
      )
      .join('; ')
  } finally {
    await client.end()
  }
}

async function main() {
  const count = Number(args.objects)
  const requests = Number(args.requests)
  // No substring build during the run: nothing but this script may ANALYZE the tables.
  const server = await startBenchServer('postgres', {
    SVC_SERVICE_SUBSTRING_INDEX_REFRESH_INTERVAL: '1h',
  })
  try {
    await loadPeople(server, COLLECTION, count)
    const client = new pg.Client({ connectionString: server.pgUrl })
    await client.connect()
    const ids = (
      await client.query('SELECT id FROM objects ORDER BY random() LIMIT 1000')
    ).rows.map((r) => r.id as string)
    await client.end()
    for (const phase of ['right after the load', 'after ANALYZE']) {
      if (phase === 'after ANALYZE') await pgAdmin(server.pgUrl, 'ANALYZE')
      console.log(`[postgres, ${count} objects, ${phase}; ${await analyzed(server.pgUrl)}]`)
      for (const [name, plan] of Object.entries(await plans(server.pgUrl, count)))
        console.log(`-- ${name}: ${plan}`)
      const r = await latencies(server, count, requests, ids)
      console.log(`  HTTP floor (GET version): ${show(r.floor)}`)
      console.log(`  exact match (ssn): ${show(r.exact)}`)
      console.log(`  match id: ${show(r.byId)}`)
      console.log(`  list, second page of 100: ${show(r.list)}`)
    }
  } finally {
    await server.stop()
  }
}

async function pgAdmin(url: string, text: string) {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(text)
  } finally {
    await client.end()
  }
}

await main()
