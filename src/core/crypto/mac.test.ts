// src/core/crypto/mac.test.ts: the HMAC equals RFC 4231 vectors and node's createHmac
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

  it('equals createHmac for every message length up to five blocks and keys of any length', () => {
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
