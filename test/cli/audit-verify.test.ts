// test/cli/audit-verify.test.ts: `strongroom audit verify` finds edited, deleted, inserted, reordered and cut-off records
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.ts'
import { findTestPostgres } from '../helpers/postgres.ts'
import { API, type SharedDatabase, sharedPostgres, startTestServer } from '../helpers/server.ts'

const dirPromise = mkdtemp(join(tmpdir(), 'strongroom-verify-'))
afterAll(async () => rm(await dirPromise, { recursive: true, force: true }))

/** Two starts of a node writing to a file and the database, three calls each. */
async function writeAuditTrail(env: Record<string, string>): Promise<void> {
  for (const start of [1, 2]) {
    const server = await startTestServer({ env })
    for (const call of [1, 2, 3]) {
      const res = await server.request(
        'GET',
        `${API}/system/info/version?custom_audit=s${start}c${call}`,
      )
      expect(res.status).toBe(200)
    }
    await server.close()
  }
}

describe('audit verify <file>', () => {
  let dir: string
  let file: string
  let lines: string[]
  let env: Record<string, string>

  beforeAll(async () => {
    dir = await dirPromise
    file = join(dir, 'audit.log')
    env = {
      SVC_BACKING_STORE: 'sqlite',
      SVC_DATA_DIR: dir,
      SVC_LOG_AUDIT_SINK: 'file,database',
      SVC_LOG_AUDIT_FILE: file,
    }
    await writeAuditTrail(env)
    lines = (await readFile(file, 'utf8')).trimEnd().split('\n')
  })

  async function verifyCopy(name: string, copy: string[], ...args: string[]) {
    const path = join(dir, name)
    await writeFile(path, `${copy.join('\n')}\n`)
    return runCli(['audit', 'verify', path, ...args], {})
  }

  it('reports an intact file with both starts chained, and exits 0', async () => {
    expect(lines.length).toBe(8)
    const { code, output } = await runCli(['audit', 'verify', file], {})
    expect(output).toContain('8 chained records, 2 chain starts')
    expect(output).toContain('Chain intact.')
    expect(code).toBe(0)
    // The second start's chain start follows the first start's last record.
    expect(JSON.parse(lines[4] ?? '')).toMatchObject({ type: 'chain_start', seq: 0 })
    expect(JSON.parse(lines[4] ?? '').prev_hash).toBe(JSON.parse(lines[3] ?? '').hash)
  })

  it('finds an edited record', async () => {
    const copy = lines.map((line, i) => (i === 2 ? line.replace('s1c2', 's1c9') : line))
    const { code, output } = await verifyCopy('edited.log', copy)
    expect(output).toMatch(/BROKEN at line 3: the record does not match its hash: it was edited/)
    expect(code).toBe(1)
  })

  it('finds a deleted, an inserted and a moved record', async () => {
    const deleted = lines.filter((_, i) => i !== 2)
    const inserted = [...lines.slice(0, 3), lines[1] ?? '', ...lines.slice(3)]
    const moved = [lines[0], lines[2], lines[1], ...lines.slice(3)] as string[]
    for (const [name, copy, at] of [
      ['deleted.log', deleted, 3],
      ['inserted.log', inserted, 4],
      ['moved.log', moved, 2],
    ] as const) {
      const { code, output } = await verifyCopy(name, copy)
      expect(output, name).toContain(`BROKEN at line ${at}`)
      expect(output, name).toContain('a record was deleted, inserted or moved here')
      expect(code, name).toBe(1)
    }
  })

  it('cannot see a cut-off tail by itself, but finds it against an anchor', async () => {
    const anchor = JSON.parse(lines.at(-1) ?? '').hash
    const cut = lines.slice(0, -2)
    expect((await verifyCopy('cut.log', cut)).code).toBe(0)
    const { code, output } = await verifyCopy('cut.log', cut, '--anchor', anchor)
    expect(output).toContain('ANCHOR NOT FOUND')
    expect(code).toBe(1)
    expect((await runCli(['audit', 'verify', file, '--anchor', anchor], {})).code).toBe(0)
  })

  it('answers 2 with the usage for bad arguments and a file that cannot be read', async () => {
    expect((await runCli(['audit', 'verify'], {})).code).toBe(2)
    const missing = await runCli(['audit', 'verify', join(dir, 'nope.log')], {})
    expect(missing.output).toContain('cannot be read (ENOENT)')
    expect(missing.code).toBe(2)
  })

  it('verifies the database sink of the same node, and finds a changed or deleted row', async () => {
    const intact = await runCli(['audit', 'verify', '--database', '--dev'], env)
    expect(intact.output).toContain('8 chained records, 2 chain starts')
    expect(intact.code).toBe(0)
    const db = new DatabaseSync(join(dir, 'strongroom.db'))
    try {
      db.exec(`UPDATE audit_events SET record = replace(record, 's2c1', 's2c7')`)
      const edited = await runCli(['audit', 'verify', '--database', '--dev'], env)
      expect(edited.output).toContain('it was edited')
      expect(edited.code).toBe(1)
      db.exec(`UPDATE audit_events SET record = replace(record, 's2c7', 's2c1')`)
      db.exec(`DELETE FROM audit_events WHERE record LIKE '%s1c2%'`)
      const deleted = await runCli(['audit', 'verify', '--database', '--dev'], env)
      expect(deleted.output).toMatch(/records 2 of node [0-9a-f-]+ are missing: deleted/)
      expect(deleted.code).toBe(1)
    } finally {
      db.close()
    }
  })
})

describe.skipIf((await findTestPostgres()) === undefined)(
  'audit verify --database on PostgreSQL',
  () => {
    let database: SharedDatabase
    beforeAll(async () => {
      database = await sharedPostgres()
    })
    afterAll(() => database.drop())

    it('checks the chains of two nodes writing at once, and finds a deleted tail of one', async () => {
      const env: Record<string, string> = { ...database.env, SVC_LOG_AUDIT_SINK: 'database' }
      const [a, b] = await Promise.all([startTestServer({ env }), startTestServer({ env })])
      await Promise.all(
        [a, b].flatMap((server) =>
          [1, 2, 3, 4].map((i) =>
            server.request('GET', `${API}/system/info/version?custom_audit=n${i}`),
          ),
        ),
      )
      await Promise.all([a.close(), b.close()])
      const intact = await runCli(['audit', 'verify', '--database', '--dev'], env)
      expect(intact.output).toContain('10 chained records, 2 chain starts')
      expect(intact.code).toBe(0)
      const client = new pg.Client({
        host: env.SVC_DB_HOSTNAME,
        port: Number(env.SVC_DB_PORT),
        database: env.SVC_DB_NAME,
        user: env.SVC_DB_USER,
        password: env.SVC_DB_PASSWORD,
      })
      await client.connect()
      try {
        // The second record of one node's chain goes; its later records remain.
        await client.query(
          `DELETE FROM audit_events WHERE seq = (SELECT min(seq) FROM audit_events WHERE record LIKE '%"seq":2,%')`,
        )
      } finally {
        await client.end()
      }
      const broken = await runCli(['audit', 'verify', '--database', '--dev'], env)
      expect(broken.output, broken.output).toMatch(
        /records 2 of node [0-9a-f-]+ are missing: deleted/,
      )
      expect(broken.code).toBe(1)
    })
  },
)
