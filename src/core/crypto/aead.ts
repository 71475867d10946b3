// src/core/crypto/aead.ts: the AEAD for stored values: AES-256-CTR + HMAC-SHA256 (encrypt-then-MAC), batched
import {
  type Cipheriv,
  createCipheriv,
  hkdfSync,
  randomFillSync,
  timingSafeEqual,
} from 'node:crypto'
import { createMac, type Mac } from './mac.ts'

/**
 * Format v1, byte for byte (docs/adr/0004; frozen in test/vectors/stored-formats.json):
 *
 *   sealed = 0x01 ‖ version (uint32 BE) ‖ IV (16) ‖ C (|P| bytes) ‖ T (16)
 *   C      = P XOR the first |P| bytes of AES-256-ECB(K_enc, IV ‖ IV+1 ‖ IV+2 ‖ …), where IV+i is
 *            the IV read as a 128-bit big-endian integer plus i, modulo 2^128 (NIST SP 800-38A
 *            CTR with the standard whole-block increment; OpenSSL's aes-256-ctr gives equal bytes)
 *   T      = HMAC-SHA256(K_mac, 0x01 ‖ version ‖ IV ‖ uint64 BE |AAD| ‖ AAD ‖ C), first 16 bytes
 *   K_enc  = HKDF-SHA256(data key, salt empty, info "strongroom aead v1 enc", 32 bytes)
 *   K_mac  = HKDF-SHA256(data key, salt empty, info "strongroom aead v1 mac", 32 bytes)
 *
 * The IV is 16 random bytes per value. The AAD is not stored; every caller passes its binding
 * (envelope.ts `bindingOf`). This is our own layout: it is not Tink's AES-CTR-HMAC (which puts
 * the AAD first and its bit length last) nor any other library's, so only this module reads it.
 * Encrypt-then-MAC with a PRF-based MAC is IND-CCA2 (Bellare–Namprempre); the tag is checked in
 * constant time before anything is decrypted. Why not AES-GCM: every Node cipher object costs
 * 20–30 µs to create on the target hardware (OpenSSL 3 context set-up), which capped bulk writes
 * far below the throughput target; CTR lets one AES-ECB call produce the keystream of a whole
 * batch (docs/adr/0004).
 */
const FORMAT_V1 = 0x01
const HEADER = 5
const IV = 16
const TAG = 16
const BLOCK = 16

export const AEAD_OVERHEAD = HEADER + IV + TAG

export class DecryptionError extends Error {
  override readonly name = 'DecryptionError'
}

/** `count` × 16 bytes of fresh IVs: never handed out before, by this source or any other. */
export type IvSource = (count: number) => Buffer

/**
 * IVs from a buffer of CSPRNG output refilled 4 KiB at a time: one `randomBytes` call per seal
 * cost more than the AES and the MAC together. Bytes are handed out once, never reused; a
 * request larger than the buffer gets its own fill. `fill` is node's CSPRNG except in tests.
 */
export function createIvPool(fill: (target: Buffer) => void = randomFillSync): IvSource {
  const pool = Buffer.alloc(4096)
  let offset = pool.length
  return (count) => {
    const size = IV * count
    if (size > pool.length) {
      const ivs = Buffer.allocUnsafe(size)
      fill(ivs)
      return ivs
    }
    if (offset + size > pool.length) {
      fill(pool)
      offset = 0
    }
    // A copy, so a caller holding the result never sees bytes handed out later.
    const ivs = Buffer.from(pool.subarray(offset, offset + size))
    offset += size
    return ivs
  }
}

/** The IV source of every key made without one: one pool per thread (module instance). */
const threadIvs = createIvPool()

export type AeadKey = Readonly<{
  version: number
  enc: Uint8Array
  /** AES-256-ECB over whole counter blocks: the CTR keystream generator of this key. */
  blocks: (counters: Buffer) => Buffer
  mac: Mac
  ivs: IvSource
}>

/**
 * One AES-256-ECB cipher per key, kept for the key's life. ECB without padding is stateless
 * between whole blocks, so `update` can be called for ever (never `final`); creating a cipher
 * costs 20–70 µs, which dominated sealing a single value.
 */
function ecbBlocks(enc: Uint8Array): (counters: Buffer) => Buffer {
  let ecb: Cipheriv | undefined
  return (counters) => {
    ecb ??= createCipheriv('aes-256-ecb', enc, null).setAutoPadding(false)
    return ecb.update(counters)
  }
}

/** A key from its two halves as they are (known-answer tests use this; stored data does not). */
export function createAeadKey(
  version: number,
  enc: Uint8Array,
  macKey: Uint8Array,
  ivs: IvSource = threadIvs,
): AeadKey {
  return { version, enc, blocks: ecbBlocks(enc), mac: createMac(macKey), ivs }
}

/** Splits a 256-bit data key into its encryption and MAC keys (HKDF-SHA256, RFC 5869). */
export function deriveAeadKey(dataKey: Uint8Array, version: number, ivs?: IvSource): AeadKey {
  const enc = new Uint8Array(
    hkdfSync('sha256', dataKey, Buffer.alloc(0), 'strongroom aead v1 enc', 32),
  )
  const macKey = new Uint8Array(
    hkdfSync('sha256', dataKey, Buffer.alloc(0), 'strongroom aead v1 mac', 32),
  )
  return createAeadKey(version, enc, macKey, ivs)
}

function increment(counter: Buffer): void {
  for (let i = BLOCK - 1; i >= 0; i--) {
    counter[i] = ((counter[i] as number) + 1) & 0xff
    if (counter[i] !== 0) return
  }
}

/**
 * CTR keystreams for several (IV, length) pairs from one AES-ECB call over all counter blocks,
 * handed to `use`; zeroed when it returns (with the ciphertext, a keystream is the plaintext).
 */
function withKeystreams<T>(
  key: AeadKey,
  ivs: readonly Uint8Array[],
  lengths: readonly number[],
  use: (streams: readonly Buffer[]) => T,
): T {
  const blocks = lengths.map((length) => Math.ceil(length / BLOCK))
  const counters = Buffer.allocUnsafe(blocks.reduce((sum, n) => sum + n, 0) * BLOCK)
  let offset = 0
  ivs.forEach((iv, i) => {
    const counter = Buffer.from(iv)
    for (let b = 0; b < (blocks[i] as number); b++, offset += BLOCK) {
      counter.copy(counters, offset)
      increment(counter)
    }
  })
  const stream = key.blocks(counters)
  let start = 0
  const streams = lengths.map((length, i) => {
    const slice = stream.subarray(start, start + length)
    start += (blocks[i] as number) * BLOCK
    return slice
  })
  try {
    return use(streams)
  } finally {
    stream.fill(0)
  }
}

/** Writes `data` XOR `stream` into `out` at `offset`. */
function xorInto(out: Buffer, offset: number, data: Uint8Array, stream: Buffer): void {
  for (let i = 0; i < data.length; i++)
    out[offset + i] = (data[i] as number) ^ (stream[i] as number)
}

function xor(data: Uint8Array, stream: Buffer): Buffer {
  const out = Buffer.allocUnsafe(data.length)
  xorInto(out, 0, data, stream)
  return out
}

/** The big-endian 64-bit length of the AAD, as the tag covers it. */
function aadLength(aad: Uint8Array): Buffer {
  const length = Buffer.alloc(8)
  length.writeUInt32BE(Math.floor(aad.length / 2 ** 32), 0)
  length.writeUInt32BE(aad.length >>> 0, 4)
  return length
}

/** The tag over header ‖ IV (`headIv`, contiguous), len(AAD), AAD and ciphertext. */
function tag(key: AeadKey, headIv: Uint8Array, aad: Uint8Array, body: Uint8Array): Buffer {
  return key.mac.concat([headIv, aadLength(aad), aad, body]).subarray(0, TAG)
}

export type SealItem = Readonly<{ plaintext: Uint8Array; aad: Uint8Array }>

/** Seals every item under one key with a fresh random IV each; one cipher set-up for the batch. */
export function sealMany(key: AeadKey, items: readonly SealItem[]): Buffer[] {
  const head = Buffer.alloc(HEADER)
  head[0] = FORMAT_V1
  head.writeUInt32BE(key.version, 1)
  const random = key.ivs(items.length)
  const ivs = items.map((_, i) => random.subarray(i * IV, (i + 1) * IV))
  const lengths = items.map((item) => item.plaintext.length)
  return withKeystreams(key, ivs, lengths, (streams) =>
    items.map((item, i) => {
      // One buffer per sealed value: header, IV, ciphertext written in place, then the tag.
      const length = item.plaintext.length
      const out = Buffer.allocUnsafe(HEADER + IV + length + TAG)
      head.copy(out, 0)
      ;(ivs[i] as Buffer).copy(out, HEADER)
      xorInto(out, HEADER + IV, item.plaintext, streams[i] as Buffer)
      const body = out.subarray(HEADER + IV, HEADER + IV + length)
      tag(key, out.subarray(0, HEADER + IV), item.aad, body).copy(out, HEADER + IV + length)
      return out
    }),
  )
}

export function seal(key: AeadKey, plaintext: Uint8Array, aad: Uint8Array): Buffer {
  return sealMany(key, [{ plaintext, aad }])[0] as Buffer
}

/** The key version a sealed value names, or undefined when it is not a v1 ciphertext. */
export function keyVersionOf(sealed: Uint8Array): number | undefined {
  if (sealed.length < AEAD_OVERHEAD || sealed[0] !== FORMAT_V1) return undefined
  return Buffer.from(sealed.buffer, sealed.byteOffset, sealed.length).readUInt32BE(1)
}

export type OpenItem = Readonly<{ sealed: Uint8Array; aad: Uint8Array }>

/**
 * Authenticates and decrypts items sealed under `key` (all of one key version). The MAC is
 * checked in constant time before anything is decrypted; any mismatch throws DecryptionError
 * naming the item's position.
 */
export function openMany(key: AeadKey, items: readonly OpenItem[]): Buffer[] {
  const parts = items.map((item, index) => {
    const data = Buffer.from(item.sealed.buffer, item.sealed.byteOffset, item.sealed.length)
    if (keyVersionOf(data) !== key.version)
      throw new DecryptionError(`item ${index}: wrong format or key version`)
    const iv = data.subarray(HEADER, HEADER + IV)
    const body = data.subarray(HEADER + IV, data.length - TAG)
    const expected = tag(key, data.subarray(0, HEADER + IV), item.aad, body)
    if (!timingSafeEqual(expected, data.subarray(data.length - TAG))) {
      throw new DecryptionError(`item ${index}: authentication failed`)
    }
    return { iv, body }
  })
  const ivs = parts.map((part) => part.iv)
  const lengths = parts.map((part) => part.body.length)
  return withKeystreams(key, ivs, lengths, (streams) =>
    parts.map((part, i) => xor(part.body, streams[i] as Buffer)),
  )
}

export function open(key: AeadKey, sealed: Uint8Array, aad: Uint8Array): Buffer {
  return openMany(key, [{ sealed, aad }])[0] as Buffer
}
