// src/core/crypto/deterministic-id.test.ts: deterministic IDs: canonical input, scopes, UUID shape, the PAN template
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { canonicalJson } from './canonical.ts'
import {
  canonicalInput,
  createDeterministicIds,
  type KeyedHash,
  luhnSum,
  panFromDigest,
  uuidFromDigest,
} from './deterministic-id.ts'
import { bindingOf } from './envelope.ts'
import { createMac } from './mac.ts'

const key = createMac(Buffer.alloc(32, 7))
const hash: KeyedHash = (use, data) => key(Buffer.concat([bindingOf(use), data]))
const ids = createDeterministicIds(hash)
const CARD = '4111111111111111'
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

describe('canonical JSON', () => {
  it('sorts keys at every depth and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: null } })).toBe(
      '{"a":{"c":null,"d":[2,1]},"b":1}',
    )
    expect(canonicalJson('x')).toBe('"x"')
  })
})

describe('deterministic IDs', () => {
  const input = { collection: 'people', scope: '', values: { ssn: '123-45-6789', name: 'Jo' } }

  it('is a lower-case version-8 UUID that depends only on the values, not their order', () => {
    const id = ids.uuid(input)
    expect(id).toMatch(UUID)
    expect(ids.uuid({ ...input, values: { name: 'Jo', ssn: '123-45-6789' } })).toBe(id)
  })

  it('changes with the collection, the scope, a property name or a value', () => {
    const id = ids.uuid(input)
    expect(ids.uuid({ ...input, collection: 'others' })).not.toBe(id)
    expect(ids.uuid({ ...input, scope: 's' })).not.toBe(id)
    expect(ids.uuid({ ...input, values: { ssn: '123-45-6789', nam: 'Jo' } })).not.toBe(id)
    expect(ids.uuid({ ...input, values: { ssn: '123-45-6789', name: 'J' } })).not.toBe(id)
  })

  it('leaves the collection out for global: scopes', () => {
    const global = { ...input, scope: 'global:pii' }
    expect(ids.uuid({ ...global, collection: 'others' })).toBe(ids.uuid(global))
    expect(ids.uuid(global)).not.toBe(ids.uuid({ ...input, scope: 'pii' }))
  })

  it('never lets two different inputs share an encoding', () => {
    const a = canonicalInput({ collection: 'ab', scope: 'c', values: {} })
    const b = canonicalInput({ collection: 'a', scope: 'bc', values: {} })
    expect(a.equals(b)).toBe(false)
    const c = canonicalInput({ collection: 'p', scope: '', values: { a: 'b' } })
    const d = canonicalInput({ collection: 'p', scope: '', values: { ab: '' } })
    expect(c.equals(d)).toBe(false)
  })

  it('formats any digest as a UUID', () => {
    expect(uuidFromDigest(new Uint8Array(32))).toBe('00000000-0000-8000-8000-000000000000')
  })
})

describe('primary_account_number template', () => {
  const input = { collection: 'cards', scope: '', values: { number: CARD } }

  it('keeps the first 6 and last 4 digits, is 16 digits, passes Luhn and is stable', () => {
    const pan = ids.pan(input, CARD)
    expect(pan).toMatch(/^411111\d{6}1111$/)
    expect(luhnSum(pan) % 10).toBe(0)
    expect(pan).not.toBe(CARD)
    expect(ids.pan(input, CARD)).toBe(pan)
    expect(ids.pan({ ...input, scope: 'other' }, CARD)).not.toBe(pan)
  })

  it('yields a valid PAN different from the card for any digest and card', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.stringMatching(/^[0-9]{13,19}$/),
        (digest, card) => {
          const pan = panFromDigest(digest, card)
          expect(pan).toHaveLength(16)
          expect(pan.slice(0, 6)).toBe(card.slice(0, 6))
          expect(pan.slice(-4)).toBe(card.slice(-4))
          expect(luhnSum(pan) % 10).toBe(0)
        },
      ),
    )
  })

  it('tries again when the derived number equals the real one', () => {
    const digest = hash(
      ['token-id', 'primary_account_number'],
      Buffer.concat([bindingOf(['0']), canonicalInput(input)]),
    )
    const collision = panFromDigest(digest, CARD)
    const pan = ids.pan(input, collision)
    expect(pan).not.toBe(collision)
    expect(luhnSum(pan) % 10).toBe(0)
  })

  it('computes Luhn sums of known numbers', () => {
    expect(luhnSum('4111111111111111') % 10).toBe(0)
    expect(luhnSum('79927398713') % 10).toBe(0)
    expect(luhnSum('79927398710') % 10).not.toBe(0)
  })
})
