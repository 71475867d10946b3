// src/core/crypto/mac.test.ts: the HMAC equals a one-off createHmac, whole or in parts (RFC 4231: known-answers.test.ts)
import { createHmac, randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { createMac } from './mac.ts'

describe('createMac (HMAC-SHA256)', () => {
  it('equals a one-off createHmac for every message length up to five blocks, any key length, in parts', () => {
    for (let length = 0; length <= 320; length++) {
      const key = randomBytes([1, 31, 32, 63, 64, 65, 200][length % 7] as number)
      const message = randomBytes(length)
      const expected = createHmac('sha256', key).update(message).digest()
      const mac = createMac(key)
      expect(mac(message).equals(expected)).toBe(true)
      const cut = length >> 1
      expect(mac.concat([message.subarray(0, cut), message.subarray(cut)]).equals(expected)).toBe(
        true,
      )
    }
  })

  it('hashes strings as UTF-8, and gives each call its own result', () => {
    const key = randomBytes(32)
    const mac = createMac(key)
    const first = mac('é€😀 '.repeat(40))
    const again = mac('x')
    expect(first).toEqual(createHmac('sha256', key).update('é€😀 '.repeat(40), 'utf8').digest())
    expect(again).toEqual(createHmac('sha256', key).update('x').digest())
    expect(first.equals(again)).toBe(false)
  })
})
