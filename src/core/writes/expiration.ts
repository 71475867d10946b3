// src/core/writes/expiration.ts: the `expiration_secs` parameter of object and token writes
import { VaultError } from '../errors.ts'
import { isStorableTime, MICROS_PER_SECOND, type Micros } from '../time.ts'

/** What a write does to an expiry: keep it, clear it (never expires) or set a time. */
export type ExpiryChange =
  | Readonly<{ kind: 'unchanged' }>
  | Readonly<{ kind: 'never' }>
  | Readonly<{ kind: 'at'; at: Micros }>

export type ExpirationRules = Readonly<{
  /** Absent parameter on create: this many seconds, or undefined for never. */
  defaultSecs: number | undefined
  /** `0` archives at once on updates; creates refuse it. */
  isUpdate: boolean
}>

function invalid(message: string): VaultError {
  return new VaultError('invalidRequest', { message, context: { field: 'expiration_secs' } })
}

/**
 * `expiration_secs` (data-model §5, tokens.md §6): absent → default on create, unchanged on
 * update; empty → never expires; `N` → now + N seconds; `0` → archive now (updates only).
 * An expiry past the storable range (isStorableTime) is 400 ERR1012.
 */
export function parseExpiration(
  raw: string | undefined,
  rules: ExpirationRules,
  now: Micros,
): ExpiryChange {
  if (raw === undefined) {
    if (rules.isUpdate) return { kind: 'unchanged' }
    return rules.defaultSecs === undefined
      ? { kind: 'never' }
      : { kind: 'at', at: now + rules.defaultSecs * MICROS_PER_SECOND }
  }
  const text = raw.trim()
  if (text === '') return { kind: 'never' }
  if (!/^\d{1,12}$/.test(text))
    throw invalid(
      'The expiration_secs parameter must be a whole number of seconds, or empty for never.',
    )
  const seconds = Number(text)
  if (seconds === 0 && !rules.isUpdate)
    throw invalid('The expiration_secs parameter cannot be 0 when creating.')
  const at = now + seconds * MICROS_PER_SECOND
  if (!isStorableTime(at))
    throw invalid('The expiration_secs parameter is too large: expiries end in June 2255.')
  return { kind: 'at', at }
}

/** The expiry after applying a change to the current one. */
export function applyExpiry(current: Micros | undefined, change: ExpiryChange): Micros | undefined {
  if (change.kind === 'unchanged') return current
  return change.kind === 'never' ? undefined : change.at
}
