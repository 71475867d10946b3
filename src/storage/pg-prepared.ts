// src/storage/pg-prepared.ts: named prepared statements for marked texts, and the switch to unnamed ones behind a pooler
import type pg from 'pg'
import { sha256 } from '../core/crypto/hash.ts'
import { PREPARED } from './dialects/dialect.ts'

type QueryFunction = (config: unknown, values?: unknown, callback?: unknown) => unknown

/**
 * Distinct prepared texts per pool. Search texts vary in shape (e.g. with the number of tenants
 * of a call): past this many, new texts run unnamed, so no caller can make every connection hold
 * an unbounded number of statements.
 */
const MAX_PREPARED_TEXTS = 256

/**
 * What PostgreSQL answers when a connection's named statements are not the session's own: 26000
 * (a statement parsed on another server connection does not exist on this one) and 42P05 (another
 * client already parsed the same name on this one). Both mean a pooler that hands server
 * connections out per transaction (PgBouncer before 1.21 in transaction mode); a direct session
 * never sees them, since only this module names statements.
 */
const POOLER_CODES = new Set(['26000', '42P05'])

export function isPoolerStatementError(error: unknown): boolean {
  return POOLER_CODES.has((error as { code?: unknown } | undefined)?.code as string)
}

const TRANSACTION_START = /^(begin|start transaction)\b/i
const TRANSACTION_END = /^(commit|rollback)\b/i

/** The text the start-up probe prepares: any server connection may keep it, it reveals nothing. */
const PROBE = `${PREPARED}SELECT 1 AS strongroom_probe`

export type PreparedOptions = Readonly<{
  /** SVC_DB_PREPARED_STATEMENTS: false never names a statement (and skips the probe). */
  isEnabled: boolean
  onWarning?: (message: string) => void
}>

export type PreparedStatements = Readonly<{
  /** Whether marked texts still run as named statements. */
  isNamed(): boolean
  /** Makes a new client of the pool run marked texts by name (pool `connect` event). */
  attach(client: pg.PoolClient): void
  /**
   * Once per pool, before its first checkout: two clients prepare the same name in turn. Through
   * a transaction pooler the second lands on the first one's server (PgBouncer reuses the most
   * recent idle server) and is refused, and the pool switches to unnamed statements before any
   * call's transaction could fail on it. A failure to connect leaves the probe for the next try.
   */
  probe(pool: pg.Pool): Promise<void>
}>

/**
 * The name of a text is a digest of the text, the same on every node and version: when
 * statements of different clients meet on one server connection (a pooler), a name that exists
 * there runs the very text the caller meant, never another statement given the same name.
 */
function nameOf(text: string): string {
  return `strongroom_${Buffer.from(sha256(text)).toString('hex').slice(0, 32)}`
}

export function createPreparedStatements(options: PreparedOptions): PreparedStatements {
  let isNamed = options.isEnabled
  let probed: Promise<void> | undefined
  const names = new Map<string, string>()

  function switchToUnnamed(error: unknown): void {
    if (!isNamed) return
    isNamed = false
    const { code, message } = error as { code?: string; message?: string }
    options.onWarning?.(
      `PostgreSQL answered ${code} (${message}) to a named prepared statement: the connection goes through a pooler that does not keep them across transactions (PgBouncer before 1.21 in transaction mode). This node now sends unnamed statements; set SVC_DB_PREPARED_STATEMENTS=false to start that way.`,
    )
  }

  function nameFor(text: string): string | undefined {
    let name = names.get(text)
    if (name === undefined && names.size < MAX_PREPARED_TEXTS) {
      name = nameOf(text)
      names.set(text, name)
    }
    return name
  }

  function attach(client: pg.PoolClient): void {
    const target = client as unknown as { query: QueryFunction }
    const query = target.query.bind(client) as QueryFunction
    let isInTransaction = false
    target.query = (config, values, callback) => {
      if (typeof config !== 'string') return query(config, values, callback)
      if (TRANSACTION_START.test(config)) isInTransaction = true
      else if (TRANSACTION_END.test(config)) isInTransaction = false
      const name = isNamed && config.startsWith(PREPARED) ? nameFor(config) : undefined
      if (name === undefined || callback !== undefined) return query(config, values, callback)
      const named = query({ name, text: config, values }) as Promise<pg.QueryResult>
      return named.catch((error: unknown) => {
        if (!isPoolerStatementError(error)) throw error
        switchToUnnamed(error)
        // The failure aborted the caller's transaction: only a statement of its own runs again.
        if (isInTransaction) throw error
        return query(config, values)
      })
    }
  }

  async function runProbe(pool: pg.Pool): Promise<void> {
    const first = await pool.connect()
    let second: pg.PoolClient | undefined
    try {
      second = await pool.connect()
      for (const client of [first, second, first, second]) await client.query(PROBE)
    } finally {
      first.release()
      second?.release()
    }
  }

  return {
    isNamed: () => isNamed,
    attach,
    probe(pool) {
      // A pool of one cannot hold two clients: its first pooler error switches it instead.
      if (!isNamed || (pool.options.max ?? 10) < 2) return Promise.resolve()
      probed ??= runProbe(pool).catch((error: unknown) => {
        probed = undefined
        throw error
      })
      return probed
    },
  }
}
