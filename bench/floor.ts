// bench/floor.ts: the least a durable one-item tokenize must do, as a bare node:http server (issue 19 item 4)
import {
  createCipheriv,
  createHash,
  createHmac,
  createSecretKey,
  randomBytes,
  randomUUID,
  timingSafeEqual,
} from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { type FileHandle, open } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Fastify from 'fastify'
import { openVaultTables } from './raw-tokens.ts'

/** The API key the floor accepts (the dev-mode Admin key of the vault). */
const KEY = 'pvaultauth'

export type Floor = Readonly<{ url: string; close(): Promise<void> }>

/** How the floor is served: bare `node:http`, or the same work as a route of a bare Fastify. */
export type FloorTransport = 'http' | 'fastify'

type Answer = (status: number, body: unknown) => void
type Pending = Readonly<{ answer: Answer; tokenId: string; sealed: Buffer; record: string }>

/**
 * A server that does, per tokenize call, what the vault cannot skip and nothing else: reads the
 * body, authenticates the bearer key against the database (SHA-256, a prepared SELECT, a
 * constant-time compare), checks the one item's shape, seals its fields (AES-256-CTR with a
 * random IV, then HMAC-SHA256 over the associated data, IV and ciphertext), claims a random
 * token ID and inserts the token row and an audit row. The calls of one event-loop turn share one
 * transaction, each in its own savepoint, and one WAL sync (fdatasync after COMMIT, off the event
 * loop), like the vault's group commit. Same tables and
 * indexes (the vault's SQLite migrations) and pragmas as the vault. No routing, policies, schemas or logging.
 */
export async function startFloor(transport: FloorTransport = 'http'): Promise<Floor> {
  const dir = mkdtempSync(join(tmpdir(), 'strongroom-floor-'))
  const file = join(dir, 'floor.db')
  // As the vault does: SQLite without a sync of its own at COMMIT; each group's fdatasync of the
  // WAL starts right after its COMMIT, off the event loop, on a handle kept open.
  const db = openVaultTables(file, 'NORMAL')
  let wal: Promise<FileHandle> | undefined
  async function sync(): Promise<void> {
    wal ??= open(`${file}-wal`, 'r')
    await (await wal).datasync()
  }
  const keyHash = createHash('sha256').update(KEY).digest()
  db.prepare('INSERT INTO api_keys (username, key_hash, created_at) VALUES (?, ?, ?)').run(
    'Admin',
    keyHash,
    Date.now() * 1000,
  )
  const findKey = db.prepare(
    'SELECT username, key_hash, expires_at FROM api_keys WHERE key_hash = ?',
  )
  const claim = db.prepare(
    'INSERT INTO token_ids (collection, token_id, type) VALUES (?, ?, ?) ON CONFLICT DO NOTHING RETURNING token_id',
  )
  const insertToken = db.prepare(
    `INSERT INTO tokens (row_id, collection, token_id, type, scope, props, object_id, tenant_id,
       sealed, fingerprint, tags, created_at, modified_at, expires_at, fptemplate, fpprops,
       transaction_id) VALUES (?, 'people', ?, 'randomized', '', ?, NULL, NULL, ?, NULL, '[]', ?, ?,
       NULL, NULL, NULL, NULL)`,
  )
  const insertAudit = db.prepare(
    `INSERT INTO audit_events (event_id, time, request_id, username, operation, collection,
       outcome, status, record) VALUES (?, ?, ?, 'Admin', 'tokenize', 'people', 'success', 200, ?)`,
  )
  const savepoint = db.prepare('SAVEPOINT call')
  const release = db.prepare('RELEASE call')
  // Imported once, as the vault's keyring does: a raw key given to every call is imported anew.
  const dataKey = createSecretKey(randomBytes(32))
  const macKey = createSecretKey(randomBytes(32))

  function seal(plaintext: string, aad: string): Buffer {
    const iv = randomBytes(16)
    const cipher = createCipheriv('aes-256-ctr', dataKey, iv)
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
    const tag = createHmac('sha256', macKey).update(aad).update(iv).update(body).digest()
    return Buffer.concat([iv, body, tag])
  }

  let group: Pending[] = []
  let latestSync: Promise<void> | undefined
  function commitGroup(): void {
    const members = group
    group = []
    const now = Date.now() * 1000
    db.exec('BEGIN')
    for (const member of members) {
      // Each call in its own savepoint, as a grouped commit needs for each call to get its own
      // outcome (a failing call undoes only its writes); the floor's calls never fail.
      savepoint.run()
      claim.all('people', member.tokenId, 'randomized')
      insertToken.run(
        randomUUID(),
        member.tokenId,
        '["email","name","ssn"]',
        member.sealed,
        now,
        now,
      )
      insertAudit.run(randomUUID(), now, randomUUID(), member.record)
      release.run()
    }
    db.exec('COMMIT')
    latestSync = sync().then(() => {
      for (const member of members) member.answer(200, [{ token_id: member.tokenId }])
    })
  }

  function isAuthenticated(header: string): boolean {
    if (!header.startsWith('Bearer ')) return false
    const hash = createHash('sha256').update(header.slice(7)).digest()
    const row = findKey.get(hash) as { key_hash: Uint8Array } | undefined
    return row !== undefined && timingSafeEqual(Buffer.from(row.key_hash), hash)
  }

  /** The item's fields, or the status of the refusal. */
  function fieldsOf(authorization: string, items: unknown): Record<string, string> | 400 | 401 {
    if (!isAuthenticated(authorization)) return 401
    const [item] = Array.isArray(items) ? items : []
    const fields = (item as { object?: { fields?: unknown } } | undefined)?.object?.fields
    if (
      !Array.isArray(items) ||
      items.length !== 1 ||
      typeof fields !== 'object' ||
      fields === null ||
      !Object.values(fields).every((value) => typeof value === 'string')
    )
      return 400
    return fields as Record<string, string>
  }

  function tokenize(authorization: string, items: unknown, answer: Answer): void {
    const fields = fieldsOf(authorization, items)
    if (typeof fields === 'number') {
      answer(fields, { error_code: fields === 401 ? 'ERR1005' : 'ERR1012' })
      return
    }
    const tokenId = randomUUID()
    const record = JSON.stringify({
      event_id: randomUUID(),
      time: new Date().toISOString(),
      user: 'Admin',
      operation: 'tokenize',
      collection: 'people',
      properties: Object.keys(fields).sort(),
      reason: 'AppFunctionality',
      outcome: 'success',
      status: 200,
    })
    group.push({
      answer,
      tokenId,
      sealed: seal(JSON.stringify(fields), `people\0${tokenId}`),
      record,
    })
    if (group.length === 1) setImmediate(commitGroup)
  }

  const server = transport === 'http' ? bareServer(tokenize) : await fastifyServer(tokenize)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/`,
    async close() {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
      // A group committed as the last connections closed still has its sync running.
      await new Promise((resolve) => setImmediate(resolve))
      await latestSync?.catch(() => {})
      await (await wal)?.close()
      db.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

type Tokenize = (authorization: string, items: unknown, answer: Answer) => void

function bareServer(tokenize: Tokenize): Server {
  return createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const answer: Answer = (status, value) => {
        const body = JSON.stringify(value)
        res.writeHead(status, {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        })
        res.end(body)
      }
      let items: unknown
      try {
        items = JSON.parse(Buffer.concat(chunks).toString('utf8'))
      } catch {
        answer(400, { error_code: 'ERR1012' })
        return
      }
      tokenize(req.headers.authorization ?? '', items, answer)
    })
  })
}

/**
 * The same work as a route of a Fastify with nothing registered but that route: its JSON body
 * parser, a body schema validated by its default Ajv, and a response schema serializing the
 * answer. What the framework the vault is built on costs by itself, with no vault machinery.
 */
async function fastifyServer(tokenize: Tokenize): Promise<Server> {
  const app = Fastify({ keepAliveTimeout: 60_000 })
  const token = { type: 'object', properties: { token_id: { type: 'string' } } }
  const refusal = { type: 'object', properties: { error_code: { type: 'string' } } }
  const item = {
    type: 'object',
    required: ['object'],
    properties: {
      type: { type: 'string' },
      object: {
        type: 'object',
        required: ['fields'],
        properties: { fields: { type: 'object', additionalProperties: { type: 'string' } } },
      },
    },
  }
  app.post(
    '/',
    {
      schema: {
        body: { type: 'array', items: item, minItems: 1 },
        response: { 200: { type: 'array', items: token }, '4xx': refusal },
      },
    },
    (req, reply) =>
      new Promise<void>((resolve) => {
        tokenize(req.headers.authorization ?? '', req.body, (status, body) => {
          void reply.code(status).send(body)
          resolve()
        })
      }),
  )
  await app.ready()
  return app.server
}
