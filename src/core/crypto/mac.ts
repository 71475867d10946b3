// src/core/crypto/mac.ts: HMAC-SHA256 on Node's one-shot SHA-256 (RFC 2104), for hot paths
import { hash } from 'node:crypto'

const BLOCK = 64

/**
 * Returns `data → HMAC-SHA256(key, data)`, computed as H((K ⊕ opad) ‖ H((K ⊕ ipad) ‖ m)) with
 * Node's one-shot `hash`. Same output as `createHmac` (tested against RFC 4231 vectors), but
 * `createHmac` builds a stream object per call, which costs ~20 µs on this hardware against ~1.5 µs.
 */
export function createMac(key: Uint8Array): (data: Uint8Array | string) => Buffer {
  const block = Buffer.alloc(BLOCK)
  if (key.length > BLOCK) hash('sha256', key, 'buffer').copy(block)
  else block.set(key)
  const ipad = Buffer.alloc(BLOCK)
  const opad = Buffer.alloc(BLOCK)
  for (let i = 0; i < BLOCK; i++) {
    ipad[i] = (block[i] as number) ^ 0x36
    opad[i] = (block[i] as number) ^ 0x5c
  }
  return (data) => {
    const message = typeof data === 'string' ? Buffer.from(data, 'utf8') : data
    const inner = hash('sha256', Buffer.concat([ipad, message]), 'buffer')
    return hash('sha256', Buffer.concat([opad, inner]), 'buffer')
  }
}
