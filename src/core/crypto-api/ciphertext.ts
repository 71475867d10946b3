// src/core/crypto-api/ciphertext.ts: the encrypt-API ciphertext format: header, associated data, batched seal and open
import type { DeterministicCipher } from '../crypto/deterministic.ts'
import { bindingOf, DecryptionError, type Envelope } from '../crypto/envelope.ts'
import { VaultError } from '../errors.ts'
import { decodePayload, encodePayload, type Payload } from './payload.ts'

/**
 * Format v1 (docs/adr/0008): [0x01 format][type: 0x01 randomized | 0x02 deterministic][body].
 * - randomized: the body is an envelope value of the `ciphertext` purpose (its own format byte,
 *   key version, random IV, AES-256-CTR ciphertext, HMAC tag: docs/adr/0004), sealed in batches.
 * - deterministic: [siv key version: uint32][SIV: 16][ciphertext] (AES-256-SIV, crypto/deterministic.ts).
 * Both authenticate the header and the associated data ('encrypt-api', collection, scope), so a
 * ciphertext presented to another collection or with another scope fails like a tampered one.
 */
export type EncryptionType = 'randomized' | 'deterministic'

const FORMAT_V1 = 0x01
const TYPE_BYTES: Readonly<Record<EncryptionType, number>> = {
  randomized: 0x01,
  deterministic: 0x02,
}
const HEADER = 2

export type SealInput = Readonly<{
  collection: string
  scope: string
  type: EncryptionType
  payload: Payload
}>

export type OpenInput = Readonly<{ bytes: Uint8Array; collection: string; scope: string }>

export type Opened = Payload & Readonly<{ type: EncryptionType }>

/** One error for every reason a ciphertext cannot be opened, so a caller never learns which. */
export function invalidCiphertext(): VaultError {
  return new VaultError('invalidRequest', {
    message: 'The ciphertext is not valid for this collection and scope.',
    context: { field: 'ciphertext' },
  })
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/

/** Standard base64 (RFC 4648 §4, padded) to bytes; anything else is the invalid-ciphertext error. */
export function decodeBase64(text: string): Buffer {
  if (!BASE64.test(text)) throw invalidCiphertext()
  return Buffer.from(text, 'base64')
}

function header(type: EncryptionType): Buffer {
  return Buffer.from([FORMAT_V1, TYPE_BYTES[type]])
}

function typeOf(bytes: Uint8Array): EncryptionType | undefined {
  if (bytes.length <= HEADER || bytes[0] !== FORMAT_V1) return undefined
  if (bytes[1] === TYPE_BYTES.randomized) return 'randomized'
  return bytes[1] === TYPE_BYTES.deterministic ? 'deterministic' : undefined
}

function binding(collection: string, scope: string, type: EncryptionType): string[] {
  return ['encrypt-api', 'v1', collection, scope, type]
}

export function createCiphertexts(deps: { envelope: Envelope; siv: DeterministicCipher }) {
  function sealDeterministic(input: SealInput): Buffer {
    const aad = [
      header('deterministic'),
      bindingOf(binding(input.collection, input.scope, 'deterministic')),
    ]
    return deps.siv.seal(`encrypt-api:${input.collection}`, aad, encodePayload(input.payload))
  }

  /** Seals every input; all randomized ones in one envelope batch (ADR 0004). */
  function sealAll(inputs: readonly SealInput[]): Buffer[] {
    const randomized = inputs.flatMap((input, index) =>
      input.type === 'randomized' ? [index] : [],
    )
    const sealed = deps.envelope.sealAll(
      'ciphertext',
      randomized.map((index) => {
        const input = inputs[index] as SealInput
        return {
          plaintext: encodePayload(input.payload),
          binding: binding(input.collection, input.scope, 'randomized'),
        }
      }),
    )
    const bodies = new Map(randomized.map((index, i) => [index, sealed[i] as Buffer]))
    return inputs.map((input, index) =>
      Buffer.concat([header(input.type), bodies.get(index) ?? sealDeterministic(input)]),
    )
  }

  function openDeterministic(input: OpenInput): Buffer {
    const aad = [
      header('deterministic'),
      bindingOf(binding(input.collection, input.scope, 'deterministic')),
    ]
    return deps.siv.open(`encrypt-api:${input.collection}`, aad, input.bytes.subarray(HEADER))
  }

  function openRandomized(inputs: readonly OpenInput[]): Buffer[] {
    return deps.envelope.openAll(
      'ciphertext',
      inputs.map((input) => ({
        sealed: input.bytes.subarray(HEADER),
        binding: binding(input.collection, input.scope, 'randomized'),
      })),
    )
  }

  function decryptAll(inputs: readonly OpenInput[], types: readonly EncryptionType[]): Buffer[] {
    const randomized = types.flatMap((type, index) => (type === 'randomized' ? [index] : []))
    const opened = openRandomized(randomized.map((index) => inputs[index] as OpenInput))
    const plain = new Map(randomized.map((index, i) => [index, opened[i] as Buffer]))
    return inputs.map((input, index) => plain.get(index) ?? openDeterministic(input))
  }

  /**
   * Authenticates and opens every input, the randomized ones in one batch. Any failure (format,
   * key version, tag, collection, scope) is the one invalid-ciphertext error (400 ERR1012).
   */
  function openAll(inputs: readonly OpenInput[]): Opened[] {
    const types = inputs.map((input) => typeOf(input.bytes))
    if (types.some((type) => type === undefined)) throw invalidCiphertext()
    const known = types as EncryptionType[]
    let plaintexts: Buffer[]
    try {
      plaintexts = decryptAll(inputs, known)
    } catch (error) {
      if (error instanceof DecryptionError) throw invalidCiphertext()
      throw error
    }
    return plaintexts.map((plaintext, index) => {
      const payload = decodePayload(plaintext)
      if (payload === undefined) throw invalidCiphertext()
      return { ...payload, type: known[index] as EncryptionType }
    })
  }

  return { sealAll, openAll }
}

export type Ciphertexts = ReturnType<typeof createCiphertexts>
