// src/core/crypto-api/payload.ts: the plaintext inside an encrypt-API ciphertext: metadata, then fields or blob bytes
import { canonicalJson } from '../crypto/canonical.ts'

/**
 * What a ciphertext carries besides its values. The type is in the header, the scope and the
 * collection are associated data only (presented again on decrypt), and the object ID is never
 * included (crypto.md §1).
 */
export type CiphertextMetadata = Readonly<{
  /** Expiry in whole seconds since the epoch; undefined: never. */
  expiresAt: number | undefined
  tags: readonly string[]
  /** Microseconds; deterministic ciphertexts carry none (it would make equal inputs differ). */
  createdAt: number | undefined
}>

/** Fields (a JSON object), or the raw bytes of one BLOB property (encrypt blob). */
export type CiphertextContent =
  | Readonly<{ kind: 'fields'; fields: Readonly<Record<string, unknown>> }>
  | Readonly<{ kind: 'blob'; property: string; bytes: Uint8Array }>

export type Payload = Readonly<{ metadata: CiphertextMetadata; content: CiphertextContent }>

type WireMetadata = { e: number | null; t: string[]; c?: number; b?: string }

/** [metadata length: uint32 BE][metadata JSON][content: canonical JSON of fields, or raw bytes]. */
export function encodePayload(payload: Payload): Buffer {
  const { metadata, content } = payload
  const wire: WireMetadata = { e: metadata.expiresAt ?? null, t: [...metadata.tags] }
  if (metadata.createdAt !== undefined) wire.c = metadata.createdAt
  if (content.kind === 'blob') wire.b = content.property
  const head = Buffer.from(JSON.stringify(wire), 'utf8')
  const length = Buffer.alloc(4)
  length.writeUInt32BE(head.length)
  const body =
    content.kind === 'blob' ? content.bytes : Buffer.from(canonicalJson(content.fields), 'utf8')
  return Buffer.concat([length, head, body])
}

function isWireMetadata(value: unknown): value is WireMetadata {
  if (typeof value !== 'object' || value === null) return false
  const { e, t, c, b } = value as Record<string, unknown>
  return (
    (e === null || Number.isSafeInteger(e)) &&
    Array.isArray(t) &&
    t.every((tag) => typeof tag === 'string') &&
    (c === undefined || Number.isSafeInteger(c)) &&
    (b === undefined || typeof b === 'string')
  )
}

/**
 * Reads an authenticated plaintext; undefined when it is not one we wrote (it cannot be, once
 * authenticated, unless the format changed).
 */
export function decodePayload(plaintext: Buffer): Payload | undefined {
  if (plaintext.length < 4) return undefined
  const length = plaintext.readUInt32BE(0)
  if (4 + length > plaintext.length) return undefined
  try {
    const wire: unknown = JSON.parse(plaintext.subarray(4, 4 + length).toString('utf8'))
    if (!isWireMetadata(wire)) return undefined
    const metadata = { expiresAt: wire.e ?? undefined, tags: wire.t, createdAt: wire.c }
    const body = plaintext.subarray(4 + length)
    if (wire.b !== undefined)
      return { metadata, content: { kind: 'blob', property: wire.b, bytes: body } }
    const fields: unknown = JSON.parse(body.toString('utf8'))
    if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) return undefined
    return { metadata, content: { kind: 'fields', fields: fields as Record<string, unknown> } }
  } catch {
    return undefined
  }
}

/** The values of a payload as fields: a blob becomes its property with the standard base64. */
export function fieldsOf(content: CiphertextContent): Record<string, unknown> {
  if (content.kind === 'fields') return { ...content.fields }
  return { [content.property]: Buffer.from(content.bytes).toString('base64') }
}
