// src/core/iam/api-keys.test.ts: key format and entropy, hashing, expiry and the Admin key rules
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestStore, type TestStore } from '../../../test/helpers/store.ts'
import {
  ADMIN_KEY_META,
  createAdminKeys,
  expiryAfter,
  formatExpiry,
  hashApiKey,
  isStrongAdminKey,
  keyHashEquals,
  newApiKey,
} from './api-keys.ts'

describe('API keys', () => {
  it('are 43 base64url characters (256 random bits), different every time', () => {
    const keys = new Set(Array.from({ length: 100 }, newApiKey))
    expect(keys.size).toBe(100)
    for (const key of keys) expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/)
  })

  it('are stored as a SHA-256 hash and compared on it', () => {
    const key = newApiKey()
    expect(hashApiKey(key)).toHaveLength(32)
    expect(keyHashEquals(hashApiKey(key), hashApiKey(key))).toBe(true)
    expect(keyHashEquals(hashApiKey(key), hashApiKey(`${key}x`))).toBe(false)
    expect(keyHashEquals(hashApiKey(key), new Uint8Array(3))).toBe(false)
  })

  it('expire a number of seconds from now, shown in RFC 3339', () => {
    const now = Date.UTC(2030, 0, 1) * 1000
    expect(formatExpiry(expiryAfter(now, 86_400))).toBe('2030-01-02T00:00:00Z')
    expect(formatExpiry(undefined)).toBe('')
  })

  it.each([
    ['Abcdefghijklmn1', true],
    ['aB3aB3aB3aB3aB3aB3', true],
    ['Abcdefghijklm1', false],
    ['abcdefghijklmn1', false],
    ['ABCDEFGHIJKLMN1', false],
    ['Abcdefghijklmno', false],
    ['', false],
    ['Abcdefghijklmn1\n', false],
    ['Abcdefg hijklmn1', false],
    ['Abcdefghijklmn1\t', false],
    ['Abcdefghijklmn1é', false],
    ['Abcdefghijklmn1\u0000', false],
    ['Abcdefghijklmn1\u007f', false],
    ['A!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~b1', true],
  ])('judge the Admin key %j strong: %s', (key, expected) => {
    expect(isStrongAdminKey(key)).toBe(expected)
  })
})

describe('the Admin key', () => {
  let db: TestStore
  beforeAll(async () => {
    db = await openTestStore()
  })
  afterAll(() => db.close())

  it('is the variable value until set at run time, then only the new one', async () => {
    const keys = createAdminKeys({
      meta: db.store.meta,
      envKey: 'pvaultauth',
      overrideOnRestart: false,
    })
    await keys.initialize()
    expect(await keys.matches(hashApiKey('pvaultauth'))).toBe(true)
    await keys.set('Runtime-Admin-Key-1', 1)
    expect(await keys.matches(hashApiKey('pvaultauth'))).toBe(false)
    expect(await keys.matches(hashApiKey('Runtime-Admin-Key-1'))).toBe(true)
    expect(await db.store.meta.get(ADMIN_KEY_META)).toMatch(/^[0-9a-f]{64}$/)
  })

  it('survives a restart without override, and is replaced by the variable with it', async () => {
    const kept = createAdminKeys({
      meta: db.store.meta,
      envKey: 'pvaultauth',
      overrideOnRestart: false,
    })
    await kept.initialize()
    expect(await kept.matches(hashApiKey('Runtime-Admin-Key-1'))).toBe(true)
    const overridden = createAdminKeys({
      meta: db.store.meta,
      envKey: 'pvaultauth',
      overrideOnRestart: true,
    })
    await overridden.initialize()
    expect(await overridden.matches(hashApiKey('Runtime-Admin-Key-1'))).toBe(false)
    expect(await overridden.matches(hashApiKey('pvaultauth'))).toBe(true)
  })
})
