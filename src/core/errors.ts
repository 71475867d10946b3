// src/core/errors.ts: VaultError, the only error class core throws on purpose
import { ERRORS, type ErrorName } from '../contract/errors.ts'

export type ErrorContext = Readonly<Record<string, string>>

export type VaultErrorOptions = {
  readonly message?: string
  readonly context?: ErrorContext
  readonly cause?: unknown
}

/**
 * A failure with a catalogue name. `message` and `context` are shown to the client, so they must
 * never carry property values, keys, tokens' data or ciphertext; `cause` is only logged.
 */
export class VaultError extends Error {
  override readonly name = 'VaultError'
  readonly errorName: ErrorName
  readonly context: ErrorContext

  constructor(errorName: ErrorName, options: VaultErrorOptions = {}) {
    super(options.message ?? ERRORS[errorName].title, { cause: options.cause })
    this.errorName = errorName
    this.context = options.context ?? {}
  }

  get code(): string {
    return ERRORS[this.errorName].code
  }

  get status(): number {
    return ERRORS[this.errorName].status
  }
}

export function isVaultError(error: unknown): error is VaultError {
  return error instanceof VaultError
}

const conflicts = new WeakSet<VaultError>()

/**
 * 503 ERR1010: the database rolled the call's transaction back to break a deadlock with
 * concurrent calls (or could not serialize it with them). Nothing of it was written, so a write
 * may run again (`isTransactionConflict`); the message is for when the retries ran out too.
 */
export function transactionConflict(cause: unknown): VaultError {
  const error = new VaultError('databaseUnavailable', {
    message:
      'The database rolled this call back to resolve a conflict with concurrent calls on the same data, on every attempt. Nothing was written; retry the call.',
    cause,
  })
  conflicts.add(error)
  return error
}

export function isTransactionConflict(error: unknown): boolean {
  return error instanceof VaultError && conflicts.has(error)
}

/** 400 ERR1012: the request's shape is wrong; `field` names the parameter or member. */
export function invalidRequest(message: string, field: string): VaultError {
  return new VaultError('invalidRequest', { message, context: { field } })
}

export function notInMemoryMode(what: string): VaultError {
  return new VaultError('notInMemoryMode', {
    message: `${what} is not allowed in in-memory mode.`,
  })
}
