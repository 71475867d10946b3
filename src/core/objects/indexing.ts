// src/core/objects/indexing.ts: keyed digests for blind-index entries, uniqueness claims and substring n-grams

import type { StoredCollection, StoredProperty } from '../collections/collection.ts'
import type { Envelope } from '../crypto/envelope.ts'
import type { Mac } from '../crypto/mac.ts'
import { ownValue } from '../own.ts'
import type { IndexEntry } from './store.ts'
import { trigrams } from './substring.ts'

/**
 * Blind-index digests are HMAC-SHA256 under a per-property key, truncated to 128 bits: collisions
 * stay negligible at any collection size, and the database never holds a searchable plaintext.
 */
const BLIND_DIGEST_BYTES = 16
/** N-gram digests are shorter: a collision only adds a candidate that the glob check then drops. */
const GRAM_DIGEST_BYTES = 8

/** Digests of an object's indexed properties: property → base64 (the row's `digests` column). */
export type DigestMap = Record<string, string>

/** Properties with equality entries: `is_index`, or `is_unique` (which implies an index). */
export function isIndexed(property: StoredProperty): boolean {
  return property.isIndex || property.isUnique
}

/** Substring search is implemented for encrypted properties only (data-model §5.2). */
export function isSubstringIndexed(property: StoredProperty): boolean {
  return property.isSubstringIndex && property.isEncrypted
}

/** A blind-index digest under the property's MAC (also computed on the sealing thread). */
export function blindDigestWith(mac: Mac, value: unknown): Buffer {
  return mac(JSON.stringify(value ?? null)).subarray(0, BLIND_DIGEST_BYTES)
}

export function createIndexing(envelope: Envelope) {
  const nullDigests = new Map<string, string>()
  const blindMacs = new Map<string, Mac>()

  /** The digest of a normalized value (JSON text); `null` has one too, so it can be matched. */
  function blindDigest(collection: string, property: string, value: unknown): Buffer {
    const key = `${collection}\u0000${property}`
    let mac = blindMacs.get(key)
    if (mac === undefined) {
      mac = envelope.macOf('blind_index', [collection, property])
      blindMacs.set(key, mac)
    }
    return blindDigestWith(mac, value)
  }

  function nullDigest(collection: string, property: string): string {
    const key = `${collection}\u0000${property}`
    let digest = nullDigests.get(key)
    if (digest === undefined) {
      digest = blindDigest(collection, property, null).toString('base64')
      nullDigests.set(key, digest)
    }
    return digest
  }

  function gramDigest(collection: string, property: string, gram: string): Buffer {
    return envelope.mac('substring', [collection, property], gram).subarray(0, GRAM_DIGEST_BYTES)
  }

  /** The keyed digests of a value's distinct trigrams (case-insensitive, NFC). */
  function gramDigests(collection: string, property: string, value: string): Buffer[] {
    return trigrams(value).map((gram) => gramDigest(collection, property, gram))
  }

  /** Index entries of an object, from its digest map (only `properties` when given). */
  function entriesOf(
    collection: string,
    objectId: string,
    digests: DigestMap,
    properties?: readonly string[],
  ): IndexEntry[] {
    return (properties ?? Object.keys(digests)).flatMap((property) => {
      const digest = ownValue(digests, property)
      if (digest === undefined) return []
      return [{ collection, property, objectId, digest: Buffer.from(digest, 'base64') }]
    })
  }

  /** Uniqueness claims of an object: its unique properties that hold a value. */
  function claimsOf(
    collection: StoredCollection,
    objectId: string,
    digests: DigestMap,
    properties?: readonly string[],
  ): IndexEntry[] {
    const unique = collection.properties
      .filter((p) => p.isUnique && (properties === undefined || properties.includes(p.name)))
      .map((p) => p.name)
      .filter((name) => ownValue(digests, name) !== nullDigest(collection.name, name))
    return entriesOf(collection.name, objectId, digests, unique)
  }

  return { blindDigest, gramDigest, gramDigests, entriesOf, claimsOf }
}

export type Indexing = ReturnType<typeof createIndexing>
