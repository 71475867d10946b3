// bench/raw-tokens.ts: the raw engine's own cost of what one single-item tokenize call must store
import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { loadMigrations } from '../src/storage/migrate.ts'

/** A tokenize audit record as the vault writes it (412 characters). */
const RECORD = JSON.stringify({
  event_id: randomUUID(),
  time: '2026-11-22T16:35:31.767820000Z',
  request_id: randomUUID(),
  user: 'Admin',
  role: 'Admin',
  auth_kind: 'api_key',
  operation: 'tokenize',
  method: 'POST',
  path: '/api/pvlt/1.0/data/collections/:collection/tokens',
  collection: 'people',
  properties: ['email', 'name', 'ssn'],
  reason: 'AppFunctionality',
  outcome: 'success',
  status: 200,
})

/** Microseconds per call of `fn`, after a warm-up of a fifth as many calls. */
function perCall(count: number, fn: (i: number) => void): number {
  for (let i = 0; i < count / 5; i++) fn(i)
  const start = performance.now()
  for (let i = 0; i < count; i++) fn(i)
  return ((performance.now() - start) * 1000) / count
}

/** A node:sqlite database with the vault's tables (all its SQLite migrations) and pragmas. */
export function openVaultTables(file: string, synchronous: 'NORMAL' | 'FULL'): DatabaseSync {
  const db = new DatabaseSync(file)
  for (const pragma of [
    'journal_mode = WAL',
    `synchronous = ${synchronous}`,
    'foreign_keys = ON',
    'cache_size = -65536',
    'wal_autocheckpoint = 10000',
  ])
    db.exec(`PRAGMA ${pragma}`)
  for (const migration of loadMigrations('sqlite')) db.exec(migration.sql)
  return db
}

/**
 * node:sqlite alone, in this process, with the vault's tables (all its SQLite migrations) and
 * pragmas: per call, the ID claim and the token row in one transaction, then the audit row (the
 * vault writes audit rows in a transaction of their own). No HTTP, validation, crypto or Kysely:
 * what a single-item tokenize cannot go below on one core.
 */
export function rawTokenize(count = 50_000): { file: string; us: number }[] {
  const dir = mkdtempSync(join(tmpdir(), 'strongroom-raw-tokens-'))
  try {
    return [':memory:', join(dir, 'raw.db')].map((file) => {
      const db = openVaultTables(file, 'NORMAL')
      const claim = db.prepare(
        'INSERT INTO token_ids (collection, token_id, type) VALUES (?, ?, ?) ON CONFLICT DO NOTHING RETURNING token_id',
      )
      const token = db.prepare(
        `INSERT INTO tokens (row_id, collection, token_id, type, scope, props, object_id, tenant_id,
           sealed, fingerprint, tags, created_at, modified_at, expires_at, fptemplate, fpprops,
           transaction_id) VALUES (?, ?, ?, ?, ?, ?, NULL, NULL, ?, NULL, '[]', ?, ?, NULL, NULL, NULL, NULL)`,
      )
      const audit = db.prepare(
        `INSERT INTO audit_events (event_id, time, request_id, username, operation, collection,
           outcome, status, record) VALUES (?, ?, ?, 'Admin', 'tokenize', 'people', 'success', 200, ?)`,
      )
      const us = perCall(count, (i) => {
        const id = randomBytes(12).toString('base64url')
        db.exec('BEGIN')
        claim.all('people', id, 'randomized')
        token.run(
          randomUUID(),
          'people',
          id,
          'randomized',
          '',
          '["email","name","ssn"]',
          randomBytes(96),
          i,
          i,
        )
        db.exec('COMMIT')
        audit.run(randomUUID(), i, randomUUID(), RECORD)
      })
      db.close()
      return { file: file === ':memory:' ? 'in memory' : 'file (WAL)', us }
    })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
