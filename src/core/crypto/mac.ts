// src/core/crypto/mac.ts: HMAC-SHA256 on Node's one-shot SHA-256 (RFC 2104), for hot paths
import { hash } from 'node:crypto'

const BLOCK = 64
const DIGEST = 32

/** `data → HMAC-SHA256(key, data)`; `concat(parts)` is the MAC of the parts joined, unjoined. */
export type Mac = ((data: Uint8Array | string) => Buffer) & {
  readonly concat: (parts: readonly Uint8Array[]) => Buffer
}

/**
 * Returns `data → HMAC-SHA256(key, data)`, computed as H((K ⊕ opad) ‖ H((K ⊕ ipad) ‖ m)) with
 * Node's one-shot `hash`. Same output as `createHmac` (tested against RFC 4231 vectors), but
 * `createHmac` builds a stream object per call, which costs ~20 µs on this hardware against ~1.5 µs.
 * The message is written once, after the inner pad, into one buffer: joining parts and pads with
 * `Buffer.concat` cost as much again as the two hashes on bulk writes.
 */
export function createMac(key: Uint8Array): Mac {
  const block = Buffer.alloc(BLOCK)
  if (key.length > BLOCK) hash('sha256', key, 'buffer').copy(block)
  else block.set(key)
  const ipad = Buffer.alloc(BLOCK)
  // The outer message is the outer pad and the inner digest; the digest part is overwritten on
  // every call (`hash` is synchronous, so one buffer serves every call).
  const outer = Buffer.alloc(BLOCK + DIGEST)
  for (let i = 0; i < BLOCK; i++) {
    ipad[i] = (block[i] as number) ^ 0x36
    outer[i] = (block[i] as number) ^ 0x5c
  }
  function finish(inner: Buffer): Buffer {
    hash('sha256', inner, 'buffer').copy(outer, BLOCK)
    return hash('sha256', outer, 'buffer')
  }
  const mac = (data: Uint8Array | string): Buffer => {
    if (typeof data !== 'string') return concat([data])
    const inner = Buffer.allocUnsafe(BLOCK + Buffer.byteLength(data, 'utf8'))
    ipad.copy(inner)
    inner.write(data, BLOCK, 'utf8')
    return finish(inner)
  }
  function concat(parts: readonly Uint8Array[]): Buffer {
    let length = BLOCK
    for (const part of parts) length += part.length
    const inner = Buffer.allocUnsafe(length)
    ipad.copy(inner)
    let offset = BLOCK
    for (const part of parts) {
      inner.set(part, offset)
      offset += part.length
    }
    return finish(inner)
  }
  return Object.assign(mac, { concat })
}
