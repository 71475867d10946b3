// test/api/objects-encryption.test.ts: no plaintext of encrypted properties on disk; export and import with the export key
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { expectError } from '../helpers/collections.ts'
import { addCollection, addObject, objectsOf, ok } from '../helpers/objects.ts'
import { findTestPostgres } from '../helpers/postgres.ts'
import { API, startTestServer, type TestServer } from '../helpers/server.ts'

const COLLECTION = {
  name: 'secrets',
  type: 'PERSONS',
  properties: [
    { name: 'name', data_type_name: 'NAME', is_substring_index: true, is_index: true },
    { name: 'ssn', data_type_name: 'SSN', is_unique: true },
    { name: 'email', data_type_name: 'EMAIL', is_index: true },
    { name: 'note', data_type_name: 'LONG_TEXT', is_nullable: true },
    { name: 'label', data_type_name: 'STRING', is_encrypted: false, is_nullable: true },
  ],
}

/** Distinctive values: none of them (nor their normalized forms or 4-character pieces) may reach the disk. */
const SECRETS = {
  name: 'Zebulon Quixotic',
  ssn: '987-65-4329',
  email: 'zebulon.quixotic@secret-mail.example',
  note: 'Xylophone marmalade confidential',
}
const PLAIN_LABEL = 'visible-plain-label'
const NEEDLES = [
  ...Object.values(SECRETS),
  '987654329',
  'zebulon quixotic',
  'Quixotic',
  'quix',
  'marmalade',
  'secret-mail',
]

const pgUrl = await findTestPostgres()
const dirs: string[] = []
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
})

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'strongroom-enc-'))
  dirs.push(dir)
  return dir
}

/** Writes the secrets, searches them (building every index), and returns the object id. */
async function writeSecrets(server: TestServer): Promise<string> {
  await addCollection(server, COLLECTION)
  const secrets = objectsOf(server, 'secrets')
  const id = await addObject(secrets, { ...SECRETS, label: PLAIN_LABEL })
  await ok(secrets.update(id, { note: SECRETS.note }))
  const found = await ok(secrets.search({ like: { name: '*quixotic*' } }, 'props=id'))
  expect(found.results).toEqual([{ id }])
  expect(await ok(secrets.search({ match: { ssn: SECRETS.ssn } }, 'props=id'))).toMatchObject({
    results: [{ id }],
  })
  return id
}

function missing(haystack: Buffer | string, needles: readonly string[]): string[] {
  const text = Buffer.isBuffer(haystack) ? haystack.toString('latin1') : haystack
  const lower = text.toLowerCase()
  return needles.filter((n) =>
    lower.includes(Buffer.from(n, 'utf8').toString('latin1').toLowerCase()),
  )
}

describe('encryption at rest', () => {
  it('keeps no plaintext of encrypted properties in the SQLite file or its WAL', async () => {
    const dir = await tempDir()
    const server = await startTestServer({
      env: { SVC_BACKING_STORE: 'sqlite', SVC_DATA_DIR: dir },
    })
    await writeSecrets(server)
    const files = (await readdir(dir)).filter((f) => f.includes('.db'))
    expect(files.some((f) => f.endsWith('-wal'))).toBe(true)
    const bytes = Buffer.concat(await Promise.all(files.map((f) => readFile(join(dir, f)))))
    expect(missing(bytes, [PLAIN_LABEL])).toEqual([PLAIN_LABEL])
    expect(missing(bytes, NEEDLES)).toEqual([])
    await server.close()
    const closed = Buffer.concat(
      await Promise.all(files.map((f) => readFile(join(dir, f)).catch(() => Buffer.alloc(0)))),
    )
    expect(missing(closed, NEEDLES)).toEqual([])
  })

  it.skipIf(pgUrl === undefined)(
    'keeps no plaintext of encrypted properties in PostgreSQL tables',
    async () => {
      const server = await startTestServer({ engine: 'postgres' })
      await writeSecrets(server)
      const { database } = server.app.config
      if (database.kind !== 'postgres') throw new Error('expected PostgreSQL')
      const client = new pg.Client({
        ...database,
        user: database.user,
        database: database.database,
      })
      await client.connect()
      const tables = await client.query<{ name: string }>(
        `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()`,
      )
      let dump = ''
      for (const { name } of tables.rows) {
        const rows = await client.query(`SELECT row_to_json(t)::text AS row FROM ${name} t`)
        dump += rows.rows.map((r) => r.row).join('\n')
      }
      await client.end()
      expect(dump).toContain(PLAIN_LABEL)
      expect(missing(dump, NEEDLES)).toEqual([])
      await server.close()
    },
  )
})

describe('export key', () => {
  const exportSeed = 'shared export seed for both vaults'

  async function vault(mainSeed: string): Promise<TestServer> {
    const dir = await tempDir()
    return startTestServer({
      env: {
        SVC_BACKING_STORE: 'sqlite',
        SVC_DATA_DIR: dir,
        SVC_KMS_SEED: mainSeed,
        SVC_KMS_EXPORT_SEED: exportSeed,
      },
    })
  }

  it('moves objects between vaults with different main keys and the same export KMS', async () => {
    const source = await vault('source main seed')
    const target = await vault('target main seed')
    const id = await writeSecrets(source)
    const key = await ok(source.request('GET', `${API}/system/admin/export_key`))
    expect(key.export_key).toMatch(/^[A-Za-z0-9+/]+=*$/)
    expect(await ok(source.request('GET', `${API}/system/admin/export_key`))).toEqual(key)
    const exported = await ok(
      objectsOf(source, 'secrets').list('options=unsafe,show_builtins&export=true'),
    )
    const [item] = exported.results
    expect(item.id).toBe(id)
    expect(item._tenant_id).toBeNull()
    expect(JSON.stringify(exported)).not.toContain(SECRETS.ssn)
    expect(item.ssn).toMatch(/^[A-Za-z0-9+/]+=*$/)
    await addCollection(target, COLLECTION)
    const secrets = objectsOf(target, 'secrets')
    const imported = await ok(
      secrets.addMany(
        exported.results,
        `import=true&export_key=${encodeURIComponent(key.export_key)}`,
      ),
    )
    expect(imported).toEqual({ ok: true, results: [{ ok: true, id }] })
    const original = await ok(objectsOf(source, 'secrets').get(id, 'options=unsafe,show_builtins'))
    expect(await ok(secrets.get(id, 'options=unsafe,show_builtins'))).toEqual(original)
    expect(await ok(secrets.search({ match: { ssn: SECRETS.ssn } }, 'props=id'))).toMatchObject({
      results: [{ id }],
    })
    await source.close()
    await target.close()
  })

  it('answers 400 ERR1012 for a wrong export key, or an export key without import', async () => {
    const server = await vault('another main seed')
    await addCollection(server, COLLECTION)
    const secrets = objectsOf(server, 'secrets')
    const forged = Buffer.alloc(60, 7).toString('base64')
    const body = { ...SECRETS, ssn: Buffer.alloc(40, 1).toString('base64') }
    await expectError(
      await secrets.add(body, `import=true&export_key=${encodeURIComponent(forged)}`),
      400,
      'ERR1012',
    )
    await expectError(await secrets.add(SECRETS, 'export_key=abc'), 400, 'ERR1012')
    await server.close()
  })

  it('is refused in in-memory mode with 405 ERR1026', async () => {
    const server = await startTestServer()
    await addCollection(server, COLLECTION)
    const secrets = objectsOf(server, 'secrets')
    await expectError(await server.request('GET', `${API}/system/admin/export_key`), 405, 'ERR1026')
    await expectError(await secrets.list('options=unsafe&export=true'), 405, 'ERR1026')
    await expectError(await secrets.add(SECRETS, 'import=true&export_key=abc'), 405, 'ERR1026')
    await server.close()
  })
})
