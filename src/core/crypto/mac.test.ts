// src/core/crypto/mac.test.ts: the one-shot HMAC equals RFC 4231 vectors and node's createHmac
import { createHmac, randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { createMac } from './mac.ts'

describe('createMac (HMAC-SHA256)', () => {
  it('matches RFC 4231 test case 2 and case 6 (key longer than a block)', () => {
    expect(createMac(Buffer.from('Jefe'))('what do ya want for nothing?').toString('hex')).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    )
    const long = Buffer.alloc(131, 0xaa)
    expect(
      createMac(long)('Test Using Larger Than Block-Size Key - Hash Key First').toString('hex'),
    ).toBe('60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54')
  })

  it('equals createHmac for random keys and messages of many lengths', () => {
    for (let length = 0; length < 200; length += 7) {
      const key = randomBytes((length % 90) + 1)
      const message = randomBytes(length)
      expect(
        createMac(key)(message).equals(createHmac('sha256', key).update(message).digest()),
      ).toBe(true)
    }
  })
})
