// src/core/crypto/mac.ts: HMAC-SHA256 (RFC 2104) from node:crypto, with the key imported once
import { createHmac, createSecretKey, type KeyObject } from 'node:crypto'

/** `data → HMAC-SHA256(key, data)`; `concat(parts)` is the MAC of the parts joined, unjoined. */
export type Mac = ((data: Uint8Array | string) => Buffer) & {
  readonly concat: (parts: readonly Uint8Array[]) => Buffer
}

/**
 * Returns `data → HMAC-SHA256(key, data)` computed by OpenSSL through node's `createHmac`; strings
 * are hashed as UTF-8. The key is imported once as a KeyObject: `createHmac` with raw key bytes
 * imports them on every call and costs about six times as much (bench/crypto-micro.ts). Parts are
 * fed to the HMAC one by one, so no buffer of ours ever holds a joined message: there is no
 * scratch copy of a value (blind-index and n-gram inputs are plaintext) to clear or to leak.
 */
export function createMac(key: Uint8Array): Mac {
  const secret: KeyObject = createSecretKey(key)

  function concat(parts: readonly Uint8Array[]): Buffer {
    const hmac = createHmac('sha256', secret)
    for (const part of parts) hmac.update(part)
    return hmac.digest()
  }

  const mac = (data: Uint8Array | string): Buffer =>
    createHmac('sha256', secret).update(data).digest()
  return Object.assign(mac, { concat })
}
