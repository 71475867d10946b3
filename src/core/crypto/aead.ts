// src/core/crypto/aead.ts: the AEAD for stored values: AES-256-CTR + HMAC-SHA256 (encrypt-then-MAC), batched
import {
  type Cipheriv,
  createCipheriv,
  hkdfSync,
  randomBytes,
  randomFillSync,
  timingSafeEqual,
} from 'node:crypto'
import { createMac, type Mac } from './mac.ts'

/**
 * Format v1: [0x01][key version: uint32 BE][IV: 16][ciphertext][tag: 16].
 *
 * The construction is Tink's AES-CTR-HMAC AEAD: AES-256-CTR with a random 128-bit initial counter
 * block (NIST SP 800-38A, whole-block increment), then HMAC-SHA256 truncated to 128 bits over
 * header ‖ IV ‖ len(AAD) ‖ AAD ‖ ciphertext, with independent encryption and MAC keys derived by
 * HKDF from the data key. Encrypt-then-MAC with a PRF-based MAC is IND-CCA2 (Bellare–Namprempre).
 * Why not AES-GCM: every Node cipher object costs 20–30 µs to create on the target hardware
 * (OpenSSL 3 context set-up), which capped bulk writes far below the throughput target; CTR lets
 * one AES-ECB call produce the keystream of a whole batch (docs/adr/0004).
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

export type AeadKey = Readonly<{
  version: number
  enc: Uint8Array
  /** AES-256-ECB over whole counter blocks: the CTR keystream generator of this key. */
  blocks: (counters: Buffer) => Buffer
  mac: Mac
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

/** Splits a 256-bit data key into its encryption and MAC keys (HKDF-SHA256, RFC 5869). */
export function deriveAeadKey(dataKey: Uint8Array, version: number): AeadKey {
  const enc = new Uint8Array(
    hkdfSync('sha256', dataKey, Buffer.alloc(0), 'strongroom aead v1 enc', 32),
  )
  const macKey = new Uint8Array(
    hkdfSync('sha256', dataKey, Buffer.alloc(0), 'strongroom aead v1 mac', 32),
  )
  return { version, enc, blocks: ecbBlocks(enc), mac: createMac(macKey) }
}

function increment(counter: Buffer): void {
  for (let i = BLOCK - 1; i >= 0; i--) {
    counter[i] = ((counter[i] as number) + 1) & 0xff
    if (counter[i] !== 0) return
  }
}

/** CTR keystreams for several (IV, length) pairs from one AES-ECB call over all counter blocks. */
function keystreams(key: AeadKey, ivs: readonly Buffer[], lengths: readonly number[]): Buffer[] {
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
  return lengths.map((length, i) => {
    const slice = stream.subarray(start, start + length)
    start += (blocks[i] as number) * BLOCK
    return slice
  })
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

/**
 * IVs come from a buffer of CSPRNG output refilled 4 KiB at a time: one `randomBytes` call per
 * seal cost more than the AES and the MAC together. Bytes are handed out once, never reused.
 */
const IV_POOL = Buffer.alloc(4096)
let ivPoolOffset = IV_POOL.length

function randomIvs(count: number): Buffer {
  const size = IV * count
  if (size > IV_POOL.length) return randomBytes(size)
  if (ivPoolOffset + size > IV_POOL.length) {
    randomFillSync(IV_POOL)
    ivPoolOffset = 0
  }
  // A copy, so a caller holding the result never sees bytes handed out later.
  const ivs = Buffer.from(IV_POOL.subarray(ivPoolOffset, ivPoolOffset + size))
  ivPoolOffset += size
  return ivs
}

export type SealItem = Readonly<{ plaintext: Uint8Array; aad: Uint8Array }>

/** Seals every item under one key with a fresh random IV each; one cipher set-up for the batch. */
export function sealMany(key: AeadKey, items: readonly SealItem[]): Buffer[] {
  const head = Buffer.alloc(HEADER)
  head[0] = FORMAT_V1
  head.writeUInt32BE(key.version, 1)
  const random = randomIvs(items.length)
  const ivs = items.map((_, i) => random.subarray(i * IV, (i + 1) * IV))
  const streams = keystreams(
    key,
    ivs,
    items.map((item) => item.plaintext.length),
  )
  return items.map((item, i) => {
    // One buffer per sealed value: header, IV, ciphertext written in place, then the tag.
    const length = item.plaintext.length
    const out = Buffer.allocUnsafe(HEADER + IV + length + TAG)
    head.copy(out, 0)
    ;(ivs[i] as Buffer).copy(out, HEADER)
    xorInto(out, HEADER + IV, item.plaintext, streams[i] as Buffer)
    const body = out.subarray(HEADER + IV, HEADER + IV + length)
    tag(key, out.subarray(0, HEADER + IV), item.aad, body).copy(out, HEADER + IV + length)
    return out
  })
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
  const streams = keystreams(
    key,
    parts.map((part) => part.iv),
    parts.map((part) => part.body.length),
  )
  return parts.map((part, i) => xor(part.body, streams[i] as Buffer))
}

export function open(key: AeadKey, sealed: Uint8Array, aad: Uint8Array): Buffer {
  return openMany(key, [{ sealed, aad }])[0] as Buffer
}
