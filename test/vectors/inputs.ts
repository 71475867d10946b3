// test/vectors/inputs.ts: the fixed inputs of the frozen stored-format vectors (generate.ts)
import type { SealInput } from '../../src/core/crypto-api/ciphertext.ts'

/** Version 1 of every purpose; `property` also gets a version 2 (a rotation). */
export const PURPOSES = [
  'property',
  'token',
  'ciphertext',
  'blind_index',
  'substring',
  'deterministic',
  'siv',
] as const

export const OBJECTS = [
  {
    collection: 'people',
    objectId: '6f1c0c52-3b8e-4d5e-9a57-0c7d2b3e4f10',
    values: {
      ssn: '123-45-6789',
      name: 'Zoë Ångström 😀',
      notes: 'A value longer than three AES blocks, so its counter runs into the carry bytes.',
      age: 42,
      verified: true,
      address: { zip: '6100000', city: 'Tel Aviv' },
      empty: '',
    },
  },
  {
    collection: 'people',
    objectId: '0b8d7f4e-1a2b-4c3d-8e9f-a0b1c2d3e4f5',
    values: { ssn: '987-65-4321', score: -0.5 },
  },
]

/** Sealed after the rotation, under `property` version 2. */
export const ROTATED_OBJECTS = [
  {
    collection: 'people',
    objectId: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
    values: { ssn: '555-12-3456' },
  },
]

export const TOKENS = [
  {
    collection: 'cards',
    rowId: 'e1f2a3b4-c5d6-4e7f-8a9b-0c1d2e3f4a5b',
    values: { number: '4111111111111111', holder: 'Jo Doe', expiry: '12/30' },
  },
  { collection: 'people', rowId: '3d2c1b0a-9f8e-4d7c-b6a5-f4e3d2c1b0a9', values: { ssn: '1' } },
]

export type CiphertextVector = Readonly<{
  collection: string
  scope: string
  type: 'randomized' | 'deterministic'
  metadata: Readonly<{ expiresAt: number | null; tags: string[]; createdAt: number | null }>
  content:
    | Readonly<{ kind: 'fields'; fields: Record<string, unknown> }>
    | Readonly<{ kind: 'blob'; property: string; bytes: string }>
}>

/** Encrypt-API inputs, sealed in one call as the crypto service does (blob bytes in hex). */
export const CIPHERTEXTS: readonly CiphertextVector[] = [
  {
    collection: 'people',
    scope: '',
    type: 'randomized',
    metadata: {
      expiresAt: 1_893_456_000,
      tags: ['billing', 'eu'],
      createdAt: 1_700_000_000_123_456,
    },
    content: {
      kind: 'fields',
      fields: { ssn: '123-45-6789', name: 'Jo Doe', email: 'jo@example.com' },
    },
  },
  {
    collection: 'people',
    scope: 'analytics',
    type: 'randomized',
    metadata: { expiresAt: null, tags: [], createdAt: 1_700_000_000_000_001 },
    content: { kind: 'fields', fields: { address: { zip: '6100000', city: 'Tel Aviv' }, age: 42 } },
  },
  {
    collection: 'people',
    scope: '',
    type: 'deterministic',
    metadata: { expiresAt: 1_893_456_000, tags: [], createdAt: null },
    content: { kind: 'fields', fields: { ssn: '123-45-6789' } },
  },
  {
    collection: 'people',
    scope: 'orders',
    type: 'deterministic',
    metadata: { expiresAt: null, tags: [], createdAt: null },
    content: { kind: 'fields', fields: { name: 'Zoë', age: 42 } },
  },
  {
    collection: 'files',
    scope: 'x',
    type: 'randomized',
    metadata: { expiresAt: 1_893_456_000, tags: ['scan'], createdAt: 1_700_000_000_000_002 },
    content: { kind: 'blob', property: 'photo', bytes: '00ff10e2'.repeat(13) },
  },
  {
    collection: 'files',
    scope: '',
    type: 'deterministic',
    metadata: { expiresAt: null, tags: [], createdAt: null },
    content: { kind: 'blob', property: 'photo', bytes: Buffer.from('hello blob').toString('hex') },
  },
]

/** The encrypt-API seal inputs of CIPHERTEXTS. */
export function ciphertextInputs(vectors = CIPHERTEXTS): SealInput[] {
  return vectors.map((c) => ({
    collection: c.collection,
    scope: c.scope,
    type: c.type,
    payload: {
      metadata: {
        expiresAt: c.metadata.expiresAt ?? undefined,
        tags: c.metadata.tags,
        createdAt: c.metadata.createdAt ?? undefined,
      },
      content:
        c.content.kind === 'fields'
          ? c.content
          : { ...c.content, bytes: Buffer.from(c.content.bytes, 'hex') },
    },
  }))
}

/** Objects listed with export=true (`id` and null stay readable). */
export const EXPORTED = [
  {
    id: '6f1c0c52-3b8e-4d5e-9a57-0c7d2b3e4f10',
    ssn: '123-45-6789',
    age: 42,
    address: { city: 'Tel Aviv' },
    nothing: null,
  },
]

export const BLIND = [
  { collection: 'people', property: 'ssn', value: '123-45-6789' },
  { collection: 'people', property: 'email', value: 'jo@example.com' },
  { collection: 'people', property: 'ssn', value: null },
  { collection: 'people', property: 'age', value: 42 },
  { collection: 'people', property: 'name', value: 'Zoë Ångström' },
  { collection: 'people', property: 'address', value: { city: 'Tel Aviv', zip: '6100000' } },
]

export const GRAMS = [
  { collection: 'people', property: 'name', value: 'Zoë Ångström' },
  { collection: 'people', property: 'name', value: 'JOHN smith john' },
]

export const IDS = [
  { collection: 'people', scope: '', values: { ssn: '123-45-6789' } },
  { collection: 'people', scope: 'analytics', values: { ssn: '123-45-6789', name: 'Jo Doe' } },
  { collection: 'people', scope: 'global:pii', values: { ssn: '123-45-6789' } },
  { collection: 'others', scope: 'global:pii', values: { ssn: '123-45-6789' } },
  { collection: 'people', scope: '', values: { address: { zip: '6100000', city: 'Tel Aviv' } } },
]

export const PANS = [
  {
    collection: 'cards',
    scope: '',
    values: { number: '4111111111111111' },
    card: '4111111111111111',
  },
  {
    collection: 'cards',
    scope: 'x',
    values: { number: '5500005555555559' },
    card: '5500005555555559',
  },
]

/** The pci reuse fingerprint stored beside deterministic and pci tokens. */
export const FINGERPRINTS = [
  {
    collection: 'cards',
    scope: '',
    values: { number: '4111111111111111' },
    template: null,
    card: null,
  },
  {
    collection: 'cards',
    scope: 'global:x',
    values: { number: '4111111111111111' },
    template: 'primary_account_number',
    card: '4111111111111111',
  },
]

export const API_KEYS = ['pvaultauth', 'Zx7Lw2qP9sKd4Rt1Vb8Nm3Hj6Gf5Ce0A-_yU2iO']
