// test/scale/pgbouncer.test.ts: three `strongroom serve` nodes on one PostgreSQL behind PgBouncer 1.18 in transaction pooling
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Running, startCli } from '../helpers/cli.ts'
import {
  type Bouncer,
  findPgbouncer,
  pgbouncerVersion,
  startPgbouncer,
} from '../helpers/pgbouncer.ts'
import { createTestDatabase, findTestPostgres } from '../helpers/postgres.ts'
import { ADMIN_KEY, API } from '../helpers/server.ts'
import { CARDS } from '../helpers/tokens.ts'

const url = await findTestPostgres()
const binary = url === undefined ? undefined : findPgbouncer()

const REASON = 'reason=AppFunctionality'
const PEOPLE = {
  name: 'people',
  type: 'PERSONS',
  properties: [
    { name: 'email', data_type_name: 'EMAIL', is_unique: true },
    { name: 'note', data_type_name: 'STRING', is_encrypted: false, is_nullable: true },
  ],
}
const IAM = `
[users.Worker]
role = "Worker"
[roles.Worker]
capabilities = ["CapTokensWriter"]
policies = ["PolTokenize"]
[policies.PolTokenize]
policy_type = "allow"
operations = ["tokenize"]
reasons = ["*"]
resources = ["cards/properties/*"]
`
const CARD_NUMBERS = [
  '4111111111111111',
  '4012888888881881',
  '5555555555554444',
  '5105105105105100',
]
const NAMES = ['Ada Shared', 'Bo Shared', 'Cy Shared']
const EMAILS = Array.from({ length: 8 }, (_, i) => `racer${i}@example.com`)
/** Each request of a race is sent this many times, spread over the nodes. */
const COPIES = 6

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies of several shapes, checked by the tests
type Reply = { readonly status: number; readonly body: any }

describe.skipIf(binary === undefined)('three nodes behind PgBouncer in transaction pooling', () => {
  let bouncer: Bouncer
  let drop: () => Promise<void>
  let dataDir: string
  const nodes: Running[] = []

  beforeAll(async () => {
    const database = await createTestDatabase(url as string)
    drop = database.drop
    const { options } = database
    bouncer = await startPgbouncer({ binary: binary as string, target: options, poolSize: 6 })
    dataDir = await mkdtemp(join(tmpdir(), 'strongroom-scale-'))
    // Two nodes on the default (named statements, with the detection), one with them turned off.
    // One at a time: each finds the pooler at its first checkout while the others are idle.
    for (const [n, prepared] of ['true', 'true', 'false'].entries()) {
      const env = {
        SVC_DATA_DIR: join(dataDir, `node${n}`),
        SVC_BACKING_STORE: 'postgres',
        SVC_DB_HOSTNAME: bouncer.host,
        SVC_DB_PORT: String(bouncer.port),
        SVC_DB_NAME: options.database,
        SVC_DB_USER: options.user,
        SVC_DB_PASSWORD: 'unused behind trust',
        SVC_DB_MAX_OPEN_CONNS: '6',
        SVC_DB_PREPARED_STATEMENTS: prepared,
        SVC_LOG_AUDIT_SINK: 'database',
        SVC_SERVICE_CACHE_REFRESH_INTERVAL: '1s',
      }
      nodes.push(await startCli(['serve', '--dev'], env))
    }
  }, 60_000)
  afterAll(async () => {
    for (const node of nodes) await node.stop()
    await bouncer?.stop()
    await drop?.()
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  const on = (n: number) => nodes[n % nodes.length] as Running
  async function call(n: number, method: string, path: string, body?: unknown, token = ADMIN_KEY) {
    const res = await fetch(`${on(n).address}${API}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await res.text()
    return { status: res.status, body: text ? JSON.parse(text) : undefined } as Reply
  }
  const tokenize = (n: number, item: unknown, token?: string) =>
    call(n, 'POST', `/data/collections/cards/tokens?${REASON}`, [item], token)
  const ok = (reply: Reply) => {
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    return reply.body
  }

  it('runs on PgBouncer 1.18, which the nodes on the default detect at start', () => {
    expect(pgbouncerVersion(binary as string)).toMatch(/^PgBouncer 1\.\d+/)
    const warning = 'SVC_DB_PREPARED_STATEMENTS=false to start that way'
    expect(nodes.map((node) => node.output().includes(warning))).toEqual([true, true, false])
  })

  /** Every copy of each item tokenized at once on all nodes: the token IDs per value. */
  async function raceTokenize(items: readonly unknown[]): Promise<Set<string>[]> {
    const replies = await Promise.all(
      items.flatMap((item) => Array.from({ length: COPIES }, (_, n) => tokenize(n, item))),
    )
    const ids = items.map(() => new Set<string>())
    for (const [i, reply] of replies.entries())
      ids[Math.floor(i / COPIES)]?.add(ok(reply)[0].token_id)
    return ids
  }

  /** Each email inserted by every node at once: the replies per email. */
  async function raceUnique(): Promise<Reply[][]> {
    const replies = await Promise.all(
      EMAILS.flatMap((email) =>
        nodes.map((_, n) =>
          call(n, 'POST', `/data/collections/people/objects?${REASON}`, { email }),
        ),
      ),
    )
    return EMAILS.map((_, i) => replies.slice(i * nodes.length, (i + 1) * nodes.length))
  }

  /** Updates of one object in turn on each node: the last acknowledged note. */
  async function updateChain(id: string, chain: number): Promise<string> {
    let acknowledged = ''
    for (let step = 0; step < 6; step++) {
      const note = `chain${chain}-step${step}`
      const path = `/data/collections/people/objects/${id}?${REASON}`
      ok(await call(chain + step, 'PATCH', path, { note }))
      acknowledged = note
    }
    return acknowledged
  }

  /** Regenerates the Worker's key on one node after another, each key tried on every node. */
  async function regenerateKeys(): Promise<void> {
    let previous: string | undefined
    for (let round = 0; round < 4; round++) {
      const fresh = ok(await call(round, 'POST', '/ctl/iam/user/regen', { name: 'Worker' })).api_key
      const item = { type: 'randomized', object: { fields: { card: '4111111111111111' } } }
      for (let n = 0; n < nodes.length; n++) {
        if (previous !== undefined) expect((await tokenize(n, item, previous)).status).toBe(401)
        expect((await tokenize(n, item, fresh)).status).toBe(200)
      }
      previous = fresh
    }
  }

  /** Adds a property on node 0; every node's control and data paths see it. */
  async function changeSchema(): Promise<void> {
    const property = { name: 'nickname', data_type_name: 'STRING', is_nullable: true }
    ok(await call(0, 'POST', '/ctl/collections/people/properties/nickname', property))
    for (let n = 0; n < nodes.length; n++) {
      const listed = ok(await call(n, 'GET', '/ctl/collections/people/properties'))
      expect(listed.map((p: { name: string }) => p.name)).toContain('nickname')
    }
    for (let n = 0; n < nodes.length; n++) {
      const body = { email: `nick${n}@example.com`, nickname: `n${n}` }
      await eventually(n, 'POST', `/data/collections/people/objects?${REASON}`, body)
    }
  }

  /**
   * A data call that depends on a control change made on another node: data calls use the
   * node's cache, which sees the change within its refresh interval (1 s here). Answers the
   * first 200 within 10 s; a 5xx fails at once.
   */
  async function eventually(n: number, method: string, path: string, body?: unknown) {
    const deadline = Date.now() + 10_000
    for (;;) {
      const reply = await call(n, method, path, body)
      expect(reply.status, JSON.stringify(reply.body)).toBeLessThan(500)
      if (reply.status === 200 || Date.now() > deadline) return ok(reply)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }

  it('keeps tokens, unique values, writes, keys and schema right under a mixed load', async () => {
    const conf = await fetch(`${on(2).address}${API}/ctl/iam/conf`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/toml' },
      body: IAM,
    })
    expect(conf.status).toBe(200)
    ok(await call(0, 'POST', '/ctl/collections', CARDS))
    ok(await call(1, 'POST', '/ctl/collections', PEOPLE))
    // Once a node's data calls see both collections, its cache holds the IAM change before them.
    const chained: string[] = []
    for (let n = 0; n < nodes.length; n++) {
      const email = `chain${n}@example.com`
      chained.push(
        (await eventually(n, 'POST', `/data/collections/people/objects?${REASON}`, { email })).id,
      )
      await eventually(n, 'GET', `/data/collections/cards/count/tokens?${REASON}`)
    }

    const [pci, deterministic, unique, notes] = await Promise.all([
      raceTokenize(CARD_NUMBERS.map((card) => ({ type: 'pci', object: { fields: { card } } }))),
      raceTokenize(NAMES.map((name) => ({ type: 'deterministic', object: { fields: { name } } }))),
      raceUnique(),
      Promise.all(chained.map((id, chain) => updateChain(id, chain))),
      regenerateKeys(),
      changeSchema(),
    ])

    // One pci token ID per value, and it opens on any node.
    expect(pci.map((ids) => ids.size)).toEqual(CARD_NUMBERS.map(() => 1))
    expect(deterministic.map((ids) => ids.size)).toEqual(NAMES.map(() => 1))
    for (const [i, ids] of pci.entries()) {
      const [id] = [...ids]
      const opened = ok(
        await call(i, 'GET', `/data/collections/cards/tokens?${REASON}&token_ids=${id}`),
      )
      // pci reuse shares the ID: one row per acknowledged tokenize, none lost.
      const row = { token_id: id, fields: { card: CARD_NUMBERS[i] } }
      expect(opened).toEqual(Array(COPIES).fill(row))
    }
    // No duplicate unique value: one insert won each race, the others were told it is taken.
    for (const replies of unique) {
      expect(replies.filter((reply) => reply.status === 200)).toHaveLength(1)
      for (const reply of replies.filter((r) => r.status !== 200))
        expect([reply.status, reply.body.error_code]).toEqual([409, 'ERR9002'])
    }
    // No lost acknowledged write: every node reads what was acknowledged.
    const winners = unique.map((replies) => replies.find((r) => r.status === 200)?.body.id)
    for (let n = 0; n < nodes.length; n++) {
      for (const [i, id] of winners.entries()) {
        const got = ok(
          await call(n, 'GET', `/data/collections/people/objects/${id}?${REASON}&props=email`),
        )
        expect(got).toEqual({ email: EMAILS[i] })
      }
      for (const [chain, id] of chained.entries()) {
        const got = ok(
          await call(n, 'GET', `/data/collections/people/objects/${id}?${REASON}&props=note`),
        )
        expect(got).toEqual({ note: notes[chain] })
      }
    }
    expect(notes.every((note) => note.endsWith('step5'))).toBe(true)
  }, 60_000)
})
