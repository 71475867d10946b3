// src/core/tokens/ids.ts: token IDs per kind: random, format-preserving PAN, deterministic, and the pci reuse fingerprint
import { randomBytes, randomUUID } from 'node:crypto'
import type { StoredCollection } from '../collections/collection.ts'
import {
  canonicalInput,
  type DeterministicIds,
  GLOBAL_SCOPE_PREFIX,
  panFromDigest,
} from '../crypto/deterministic-id.ts'
import type { Envelope } from '../crypto/envelope.ts'
import { invalidItem } from './errors.ts'
import { PAN_TEMPLATE } from './request.ts'

type Values = Readonly<Record<string, unknown>>

export type IdInput = Readonly<{
  collection: string
  scope: string
  values: Values
  template: string | undefined
  /** The card number feeding the PAN template. */
  card: string | undefined
}>

/** The card number of the PAN template: `fpprops` must name exactly one CC_NUMBER property. */
export function cardOf(
  collection: StoredCollection,
  fpprops: readonly string[],
  values: Values,
  field: string,
): string {
  const cards = collection.properties.filter(
    (p) => fpprops.includes(p.name) && p.dataType === 'CC_NUMBER',
  )
  const value = cards.length === 1 ? values[cards[0]?.name ?? ''] : undefined
  if (cards.length !== 1 || fpprops.length !== 1 || typeof value !== 'string')
    throw invalidItem(
      'The primary_account_number template needs fpprops with exactly one CC_NUMBER property that has a value.',
      field,
    )
  return value.replace(/\D/g, '')
}

/** A random ID: a UUID, or a PAN that differs from the card number. */
export function randomId(input: Pick<IdInput, 'template' | 'card'>): string {
  if (input.template !== PAN_TEMPLATE || input.card === undefined) return randomUUID()
  for (;;) {
    const pan = panFromDigest(randomBytes(16), input.card)
    if (pan !== input.card) return pan
  }
}

export function deterministicId(ids: DeterministicIds, input: IdInput): string {
  const derivation = { collection: input.collection, scope: input.scope, values: input.values }
  if (input.template === PAN_TEMPLATE && input.card !== undefined)
    return ids.pan(derivation, input.card)
  return ids.uuid(derivation)
}

/** The namespace of pci reuse: the collection, or '' for global scopes (tokens.md §4). */
export function reuseNamespace(collection: string, scope: string): string {
  return scope.startsWith(GLOBAL_SCOPE_PREFIX) ? '' : collection
}

/** Keyed digest of the canonical (collection or '', scope, values) plus the template. */
export function fingerprintOf(envelope: Envelope, input: IdInput): Buffer {
  const derivation = { collection: input.collection, scope: input.scope, values: input.values }
  return envelope.mac(
    'deterministic',
    ['token-reuse', input.template ?? ''],
    canonicalInput(derivation),
  )
}
