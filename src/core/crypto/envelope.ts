// src/core/crypto/envelope.ts: envelope encryption and keyed derivations used by the data services
import {
  type AeadKey,
  DecryptionError,
  deriveAeadKey,
  type IvSource,
  keyVersionOf,
  openMany,
  sealMany,
} from './aead.ts'
import type { DerivationPurpose, Keyring, RotatablePurpose } from './keyring.ts'
import { createMac, type Mac } from './mac.ts'

/**
 * Associated data from a list of parts, each length-prefixed so that ("ab","c") and ("a","bc")
 * never collide: u32 BE byte length ‖ UTF-8 bytes, for each part in order (docs/adr/0004).
 */
export function bindingOf(parts: readonly string[]): Buffer {
  let length = 0
  const lengths = parts.map((part) => {
    const bytes = Buffer.byteLength(part, 'utf8')
    length += 4 + bytes
    return bytes
  })
  // One buffer, written in place: bulk writes build one binding per sealed value.
  const out = Buffer.allocUnsafe(length)
  let offset = 0
  parts.forEach((part, i) => {
    offset = out.writeUInt32BE(lengths[i] as number, offset)
    offset += out.write(part, offset, 'utf8')
  })
  return out
}

export type SealRequest = Readonly<{ plaintext: Uint8Array; binding: readonly string[] }>
export type OpenRequest = Readonly<{ sealed: Uint8Array; binding: readonly string[] }>

/** Seals every request under `key`, each bound to its binding (what `sealAll` does). */
export function sealWith(key: AeadKey, requests: readonly SealRequest[]): Buffer[] {
  return sealMany(
    key,
    requests.map((r) => ({ plaintext: r.plaintext, aad: bindingOf(r.binding) })),
  )
}

/**
 * Raw key material for a worker thread of this process that seals and digests on the main
 * thread's behalf (objects/seal-thread.ts): a data key of a rotatable purpose, and derived MAC
 * keys. It is posted to that thread only: never stored, logged or sent out of the process.
 */
export type ThreadKeys = Readonly<{
  version: number
  dataKey: Uint8Array
  macKeys: readonly Uint8Array[]
}>

export type EnvelopeOptions = Readonly<{
  /** Where sealed values' IVs come from: the thread's CSPRNG pool unless a test fixes them. */
  ivs?: IvSource
}>

export function createEnvelope(keyring: Keyring, options: EnvelopeOptions = {}) {
  const aeadKeys = new WeakMap<Uint8Array, AeadKey>()
  const macs = new Map<string, Mac>()

  function aeadKey(purpose: RotatablePurpose, version: number): AeadKey {
    const dataKey = keyring.byVersion(purpose, version)
    let key = aeadKeys.get(dataKey)
    if (key === undefined) {
      key = deriveAeadKey(dataKey, version, options.ivs)
      aeadKeys.set(dataKey, key)
    }
    return key
  }

  /** HKDF-SHA256 of the purpose's key with the base64 text of the scope's binding as info. */
  const macKeyOf = (purpose: DerivationPurpose, scope: readonly string[]) =>
    keyring.derive(purpose, bindingOf(scope).toString('base64'))

  function macOf(purpose: DerivationPurpose, scope: readonly string[]): Mac {
    // The cache key only has to be unambiguous (JSON of the parts): building the
    // length-prefixed binding on every call cost more than the HMAC itself on hot paths.
    const id = `${purpose}\u0000${JSON.stringify(scope)}`
    let mac = macs.get(id)
    if (mac === undefined) {
      mac = createMac(macKeyOf(purpose, scope))
      macs.set(id, mac)
    }
    return mac
  }

  /** Seals every request with the newest key version of the purpose, in one batch. */
  function sealAll(purpose: RotatablePurpose, requests: readonly SealRequest[]): Buffer[] {
    if (requests.length === 0) return []
    return sealWith(aeadKey(purpose, keyring.current(purpose).version), requests)
  }

  /** The newest data key of `purpose` and the MAC keys of `macs`, for a worker thread. */
  function threadKeys(
    purpose: RotatablePurpose,
    macs: readonly Readonly<{ purpose: DerivationPurpose; scope: readonly string[] }>[],
  ): ThreadKeys {
    const { version, key } = keyring.current(purpose)
    return { version, dataKey: key, macKeys: macs.map((m) => macKeyOf(m.purpose, m.scope)) }
  }

  /** Opens values sealed under any versions of the purpose; one batch per key version. */
  function openAll(purpose: RotatablePurpose, requests: readonly OpenRequest[]): Buffer[] {
    const results: Buffer[] = new Array(requests.length)
    const byVersion = new Map<number, number[]>()
    requests.forEach((request, index) => {
      const version = keyVersionOf(request.sealed)
      if (version === undefined) throw new DecryptionError(`item ${index}: not a v1 ciphertext`)
      // Appending in place: copying the list per item made opening n values O(n²).
      const indexes = byVersion.get(version)
      if (indexes === undefined) byVersion.set(version, [index])
      else indexes.push(index)
    })
    for (const [version, indexes] of byVersion) {
      let key: AeadKey
      try {
        key = aeadKey(purpose, version)
      } catch {
        throw new DecryptionError(`unknown ${purpose} key version ${version}`)
      }
      const items = indexes.map((i) => ({
        sealed: requests[i]?.sealed as Uint8Array,
        aad: bindingOf(requests[i]?.binding ?? []),
      }))
      openMany(key, items).forEach((plaintext, j) => {
        results[indexes[j] as number] = plaintext
      })
    }
    return results
  }

  return {
    sealAll,
    openAll,
    seal: (purpose: RotatablePurpose, plaintext: Uint8Array, binding: readonly string[]) =>
      sealAll(purpose, [{ plaintext, binding }])[0] as Buffer,
    open: (purpose: RotatablePurpose, sealed: Uint8Array, binding: readonly string[]) =>
      openAll(purpose, [{ sealed, binding }])[0] as Buffer,
    /** The key version a sealed value was written with (rotation progress, re-encryption). */
    keyVersionOf,
    /** Keyed digest (HMAC-SHA256) under the sub-key of `purpose` for `scope`; never a plain hash. */
    mac(purpose: DerivationPurpose, scope: readonly string[], data: Uint8Array | string): Buffer {
      return macOf(purpose, scope)(data)
    },
    /** The keyed digest function of `purpose` and `scope`, for callers that digest many values. */
    macOf,
    threadKeys,
  }
}

export type Envelope = ReturnType<typeof createEnvelope>
export { DecryptionError }
