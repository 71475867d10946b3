// src/storage/outages.ts: engine failures that mean "the database is not there" become 503 errors
import { VaultError } from '../core/errors.ts'

/** Socket errors of a connection that was refused, reset or cut. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
])

/**
 * PostgreSQL states of a server that is going away or not taking connections: class 08
 * (connection exception), 57P01–57P03 (shutdown, crash, cannot connect now), 53300 (too many
 * connections).
 */
const UNAVAILABLE_STATES = /^(08...|57P0[1-3]|53300)$/

/** pg's own messages for a connection that ended or could not be made in time. */
const PG_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Client (has encountered a connection error|was closed) and is not queryable)/

/** 503 ERR1010. The cause is logged, never sent. */
export function databaseUnavailable(cause: unknown, message?: string): VaultError {
  return new VaultError('databaseUnavailable', {
    message:
      message ??
      'The database cannot be reached (connection refused, reset or closed). Retry later; the service reconnects by itself when the database is back.',
    cause,
  })
}

/** 503 ERR1009: the database took longer than the statement timeout. */
export function databaseTimeout(cause: unknown, timeoutMs: number): VaultError {
  return new VaultError('timeout', {
    message: `The database did not answer within ${timeoutMs / 1000} s; the statement was abandoned and its connection closed. Retry later.`,
    cause,
  })
}

/** PostgreSQL's deadlock_detected and serialization_failure: the transaction was rolled back. */
const CONFLICT_STATES = new Set(['40P01', '40001'])

export function isPostgresConflict(error: unknown): boolean {
  const { code } = (error ?? {}) as { code?: unknown }
  return typeof code === 'string' && CONFLICT_STATES.has(code)
}

/** Whether a pg error (or a socket error under it) says the connection is gone or never came. */
export function isPostgresUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false
  const { code, message } = error as { code?: unknown; message?: unknown }
  if (typeof code === 'string' && (SOCKET_CODES.has(code) || UNAVAILABLE_STATES.test(code)))
    return true
  return typeof message === 'string' && PG_MESSAGES.test(message)
}

/** SQLite primary result codes (the low byte of an extended code) that are not the caller's fault. */
const SQLITE_BUSY = 5
const SQLITE_LOCKED = 6
const SQLITE_READONLY = 8
const SQLITE_IOERR = 10
const SQLITE_FULL = 13
const SQLITE_CANTOPEN = 14

const SQLITE_MESSAGES: Readonly<Record<number, string>> = {
  [SQLITE_BUSY]:
    'The database file is locked by another connection or process and stayed locked past the busy timeout. Retry later; if it persists, stop the other process holding the file.',
  [SQLITE_LOCKED]:
    'The database file is locked by another connection or process. Retry later; if it persists, stop the other process holding the file.',
  [SQLITE_READONLY]:
    'The database file cannot be written (read-only file, directory or file system). Give the service write access to the data directory.',
  [SQLITE_IOERR]:
    'The database file could not be read or written (I/O error). Check the disk holding the data directory.',
  [SQLITE_FULL]:
    'The database file cannot grow: the disk holding the data directory is full. Free space and retry.',
  [SQLITE_CANTOPEN]:
    'The database file cannot be opened. Check that the data directory exists and is writable.',
}

/** A node:sqlite error that means the file cannot be used now → 503 ERR1010; anything else as is. */
export function fromSqliteError(error: unknown): unknown {
  const { errcode } = (error ?? {}) as { errcode?: unknown }
  if (typeof errcode !== 'number') return error
  const message = SQLITE_MESSAGES[errcode & 0xff]
  return message === undefined ? error : databaseUnavailable(error, message)
}
