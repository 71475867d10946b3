// src/core/crypto/deterministic-id.ts: keyed derivation of deterministic token IDs and hashes (tokens.md §2, §4–5)
import { ownValue } from '../own.ts'
import { canonicalJson } from './canonical.ts'
import { bindingOf } from './envelope.ts'

/** A scope starting with this is global: the collection is left out of the derivation (tokens.md §4). */
export const GLOBAL_SCOPE_PREFIX = 'global:'

export type DeterministicInput = Readonly<{
  collection: string
  scope: string
  /** Property → normalized value; the order does not matter. */
  values: Readonly<Record<string, unknown>>
}>

/** HMAC-SHA256 under a sub-key of the `deterministic` purpose, e.g. `envelope.mac` bound to it. */
export type KeyedHash = (use: readonly string[], data: Uint8Array) => Buffer

const FORMAT = 'strongroom deterministic id v1'

/**
 * The canonical encoding of (collection or "" for global scopes, scope, props sorted by name with
 * their canonical JSON values), every part length-prefixed so no two inputs share an encoding.
 * Also the "same values" test of pci token reuse.
 */
export function canonicalInput(input: DeterministicInput): Buffer {
  const isGlobal = input.scope.startsWith(GLOBAL_SCOPE_PREFIX)
  const names = Object.keys(input.values).sort()
  const parts = names.flatMap((name) => [name, canonicalJson(ownValue(input.values, name))])
  return bindingOf([FORMAT, isGlobal ? '' : input.collection, input.scope, ...parts])
}

/** A lower-case UUID from 16 digest bytes, marked as RFC 9562 version 8 (vendor-defined). */
export function uuidFromDigest(digest: Uint8Array): string {
  const bytes = Buffer.from(digest.subarray(0, 16))
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x80
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80
  const hex = bytes.toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

/** The Luhn sum (ISO/IEC 7812-1) of a digit string: valid when it is a multiple of 10. */
export function luhnSum(digits: string): number {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2
    sum += digit
  }
  return sum
}

/**
 * A 16-digit PAN: the card's first 6 and last 4 digits around 6 middle digits, 5 taken from the
 * digest and the last one chosen so the Luhn check passes. Position 11 is never doubled by Luhn
 * (it is 5th from the right), so exactly one digit value fixes the sum.
 */
export function panFromDigest(digest: Uint8Array, cardNumber: string): string {
  const free = (BigInt(`0x${Buffer.from(digest).toString('hex')}`) % 100_000n)
    .toString()
    .padStart(5, '0')
  const draft = `${cardNumber.slice(0, 6)}${free}0${cardNumber.slice(-4)}`
  const fix = (10 - (luhnSum(draft) % 10)) % 10
  return `${draft.slice(0, 11)}${fix}${draft.slice(12)}`
}

export function createDeterministicIds(hash: KeyedHash) {
  return {
    /** The deterministic token ID (and hash) of the input: a lower-case UUID. */
    uuid(input: DeterministicInput): string {
      return uuidFromDigest(hash(['token-id'], canonicalInput(input)))
    },

    /**
     * The `primary_account_number` template: middle digits from the keyed hash of the input; if
     * the result equals the real card number, the next counter value is tried (tokens.md §5).
     */
    pan(input: DeterministicInput, cardNumber: string): string {
      const canonical = canonicalInput(input)
      for (let counter = 0; ; counter++) {
        const data = Buffer.concat([bindingOf([String(counter)]), canonical])
        const pan = panFromDigest(hash(['token-id', 'primary_account_number'], data), cardNumber)
        if (pan !== cardNumber) return pan
      }
    },
  }
}

export type DeterministicIds = ReturnType<typeof createDeterministicIds>
