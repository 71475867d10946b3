// src/storage/connect.ts: waits at start for a database server to answer, within a bounded time
import { setTimeout as sleep } from 'node:timers/promises'
import type { Kysely } from 'kysely'
import { isVaultError } from '../core/errors.ts'
import { sql } from './kysely.ts'

export type ConnectOptions = Readonly<{
  /** What to call the database in messages, e.g. `PostgreSQL pvault@localhost:5432/pvault`. */
  description: string
  /** Give up after this long (SVC_DB_CONNECT_TIMEOUT). */
  timeoutMs: number
  /** Each failed attempt, before the next one: the start says what it waits for. */
  onRetry(message: string): void
}>

const FIRST_PAUSE_MS = 250
const MAX_PAUSE_MS = 2000

/** The cause as the server or the network said it (`role "pvault" does not exist`, ECONNREFUSED). */
function causeOf(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return causeOf(error.errors[0])
  // An outage already mapped to a 503 (storage/outages.ts) keeps the engine's error as its cause.
  if (isVaultError(error) && error.cause !== undefined) return causeOf(error.cause)
  const { message, code } = error as { message?: string; code?: string }
  return message || code || String(error)
}

/**
 * Answers once `select 1` succeeds; retries with a visible message until `timeoutMs` has passed,
 * then throws an error naming the database and the last cause. A server that does not answer at
 * all counts as a failed attempt when the time left is up, so the start never hangs.
 */
export async function waitForDatabase<DB>(db: Kysely<DB>, options: ConnectOptions): Promise<void> {
  const deadline = Date.now() + options.timeoutMs
  let pause = FIRST_PAUSE_MS
  let lastCause: string | undefined
  for (let attempt = 1; ; attempt++) {
    const left = deadline - Date.now()
    let timer: NodeJS.Timeout | undefined
    const query = sql`select 1`.execute(db)
    query.catch(() => {}) // when the time runs out first, its late failure is not news
    try {
      await Promise.race([
        query,
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new NoAnswer(`no answer within ${options.timeoutMs / 1000} s`)),
            Math.max(left, 1),
          )
        }),
      ])
      return
    } catch (error) {
      // Running out of time during a retry says less than the failure before it.
      const cause = error instanceof NoAnswer && lastCause ? lastCause : causeOf(error)
      lastCause = cause
      const wait = Math.min(pause, deadline - Date.now())
      if (wait <= 0) throw new DatabaseUnreachable(options, cause)
      options.onRetry(
        `Connecting to ${options.description} failed (attempt ${attempt}: ${cause}); retrying in ${(wait / 1000).toFixed(1)} s, giving up ${Math.ceil((deadline - Date.now()) / 1000)} s from now`,
      )
      await sleep(wait)
      pause = Math.min(pause * 2, MAX_PAUSE_MS)
    } finally {
      clearTimeout(timer)
    }
  }
}

class NoAnswer extends Error {}

export class DatabaseUnreachable extends Error {
  constructor(options: ConnectOptions, cause: string) {
    super(`cannot connect to ${options.description} within ${options.timeoutMs / 1000} s: ${cause}`)
    this.name = 'DatabaseUnreachable'
  }
}
