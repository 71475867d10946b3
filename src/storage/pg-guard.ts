// src/storage/pg-guard.ts: every PostgreSQL statement bounded in time; a lost connection is 503, never 500
import type { PostgresPool, PostgresPoolClient } from 'kysely'
import type pg from 'pg'
import { transactionConflict, type VaultError } from '../core/errors.ts'
import {
  databaseTimeout,
  databaseUnavailable,
  isPostgresConflict,
  isPostgresUnavailable,
} from './outages.ts'

/** pg keeps the socket on `connection.stream`; closing it fails the statement at once. */
function closeConnection(client: pg.PoolClient): void {
  const { connection } = client as unknown as { connection?: { stream?: { destroy?(): void } } }
  if (typeof connection?.stream?.destroy === 'function') connection.stream.destroy()
  else client.end().catch(() => {})
}

/**
 * A client whose statements fail after `timeoutMs` (the connection is then closed, so a frozen
 * server or network cannot hold it) and whose connection failures are 503 ERR1010; a deadlock or
 * serialization failure is a transaction conflict, which writes retry (core/audit). After a
 * timeout or a lost connection the rest of the checkout (Kysely's ROLLBACK) fails the same way,
 * and the client leaves the pool when it is released.
 */
function guardedClient(client: pg.PoolClient, timeoutMs: number): PostgresPoolClient {
  let failure: VaultError | undefined
  function query(text: string, values: readonly unknown[]): Promise<pg.QueryResult> {
    if (failure !== undefined) return Promise.reject(failure)
    let isTimedOut = false
    const timer = setTimeout(() => {
      isTimedOut = true
      closeConnection(client)
    }, timeoutMs)
    return client.query(text, [...values]).then(
      (result) => {
        clearTimeout(timer)
        return result
      },
      (error: unknown) => {
        clearTimeout(timer)
        if (isTimedOut) failure = databaseTimeout(error, timeoutMs)
        else if (isPostgresUnavailable(error)) failure = databaseUnavailable(error)
        // The connection is fine; its transaction is aborted, and rolled back by Kysely next.
        else if (isPostgresConflict(error)) throw transactionConflict(error)
        throw failure ?? error
      },
    )
  }
  return {
    // Kysely's type also has a cursor overload, which this vault never uses (no `cursor` set).
    query: query as unknown as PostgresPoolClient['query'],
    release() {
      const isBroken = failure !== undefined
      failure = undefined
      client.release(isBroken ? new Error('connection closed after a database failure') : undefined)
    },
  }
}

/** A connection the pool could not make in time is a timeout; one refused or cut, unavailable. */
function connectFailure(error: unknown, timeoutMs: number): unknown {
  const { message } = (error ?? {}) as { message?: unknown }
  if (typeof message === 'string' && /timeout/i.test(message))
    return databaseTimeout(error, timeoutMs)
  return isPostgresUnavailable(error) ? databaseUnavailable(error) : error
}

/**
 * The pool as Kysely sees it: checkouts of guarded clients (one wrapper per pg client).
 * `beforeCheckout` runs before each checkout (the prepared-statement probe, done once).
 */
export function guardedPool(
  pool: pg.Pool,
  timeoutMs: number,
  beforeCheckout: () => Promise<void> = async () => {},
): PostgresPool {
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>()
  return {
    async connect() {
      let client: pg.PoolClient
      try {
        await beforeCheckout()
        client = await pool.connect()
      } catch (error) {
        throw connectFailure(error, timeoutMs)
      }
      let wrapper = wrappers.get(client)
      if (wrapper === undefined) {
        wrapper = guardedClient(client, timeoutMs)
        wrappers.set(client, wrapper)
      }
      return wrapper
    },
    end: () => pool.end(),
  }
}
