// test/vectors/stored-formats.test.ts: frozen bytes of every stored format: what is on disk must keep opening, and equal inputs keep giving equal bytes
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLocalKms } from '../../src/core/crypto/kms.ts'
import { hashApiKey } from '../../src/core/iam/api-keys.ts'
import { runSealJob } from '../../src/core/objects/seal-job.ts'
import { fingerprintOf } from '../../src/core/tokens/ids.ts'
import { sealTokens, tokenBinding } from '../../src/core/tokens/records.ts'
import { exportValues, importValues } from '../../src/core/values/export.ts'
import { openObjects, sealObjects } from '../../src/core/values/sealing.ts'
import { type CiphertextVector, ciphertextInputs } from './inputs.ts'
import { openVectorVault, type VectorVault } from './vault.ts'

type Values = Record<string, unknown>
type Derivation = { collection: string; scope: string; values: Values }
type SealedObject = {
  collection: string
  objectId: string
  values: Values
  sealed: Record<string, string>
}
/** The shape of stored-formats.json (hex unless said otherwise). */
type Vectors = {
  kmsSeed: string
  dataKeys: { purpose: string; version: number; key: string; wrapped: string }[]
  /** `wrapped` in base64, as GET /system/admin/export_key returns it. */
  exportKey: { key: string; wrapped: string }
  /** `sealed`: property → base64, the objects row's `sealed` column. */
  objectValues: SealedObject[]
  rotatedObjectValues: SealedObject[]
  tokenData: { collection: string; rowId: string; values: Values; sealed: string }[]
  ciphertexts: (CiphertextVector & { bytes: string })[]
  /** `exported`: as list objects with export=true returns the fields (base64 values). */
  exportedValues: { fields: Values; exported: Values }[]
  blindDigests: { collection: string; property: string; value: unknown; digest: string }[]
  gramDigests: { collection: string; property: string; value: string; digests: string[] }[]
  tokenIds: (Derivation & { uuid: string })[]
  pans: (Derivation & { card: string; pan: string })[]
  fingerprints: (Derivation & {
    template: string | null
    card: string | null
    fingerprint: string
  })[]
  apiKeyHashes: { key: string; hash: string }[]
}
const vectors = JSON.parse(
  readFileSync(new URL('./stored-formats.json', import.meta.url), 'utf8'),
) as Vectors

/**
 * The vectors were printed by generate.ts from the code of the day they were added, with fixed
 * data keys and IVs; they are never regenerated. Every format is checked both ways: the frozen
 * bytes open to their inputs (data on disk stays readable), and the same inputs with the same
 * IVs seal or digest to the same bytes (nothing writes a variant the old code could not read).
 */
const bytes = (hex: string) => Buffer.from(hex, 'hex')
const hex = (data: Uint8Array) => Buffer.from(data).toString('hex')
const rowOf = (k: { purpose: string; version: number; wrapped: string }) => ({
  ...k,
  wrapped: bytes(k.wrapped),
})
const v1Keys = vectors.dataKeys.filter((k) => k.version === 1)
const rotatedKeys = vectors.dataKeys.filter((k) => k.version !== 1)

/** The IVs the next seals take, in order: those of the frozen values being re-sealed. */
const queued: Buffer[] = []
function ivs(count: number): Buffer {
  if (queued.length < count) throw new Error(`${count} IVs asked, ${queued.length} queued`)
  return Buffer.concat(queued.splice(0, count))
}
/** Queues the IV at `offset` of each frozen sealed value. */
function queueIvs(sealed: readonly Uint8Array[], offset: number): void {
  for (const s of sealed) queued.push(Buffer.from(s.subarray(offset, offset + 16)))
}
/** Where the IV sits: after 0x01 ‖ key version (aead.ts), and the encrypt-API header before it. */
const AEAD_IV = 5
const CIPHERTEXT_IV = 2 + AEAD_IV
const sealedOf = (objects: readonly SealedObject[]) =>
  objects.flatMap((o) => Object.values(o.sealed).map((s) => Buffer.from(s, 'base64')))

let vault: VectorVault
beforeAll(async () => {
  vault = await openVectorVault(v1Keys.map(rowOf), vectors.exportKey.wrapped, ivs)
})
afterAll(() => vault.close())

describe('frozen stored formats: wrapped keys', () => {
  it('data keys unwrap under the local KMS seed to the frozen keys', async () => {
    expect(vectors.kmsSeed).toBe('strongroom frozen stored-format vectors')
    for (const k of v1Keys)
      expect(hex(vault.keyring.byVersion(k.purpose as 'property', 1))).toBe(k.key)
    const kms = createLocalKms(vectors.kmsSeed)
    for (const k of vectors.dataKeys) {
      const key = await kms.unwrap(bytes(k.wrapped), `data-key:${k.purpose}:${k.version}`)
      expect(hex(key), `${k.purpose} v${k.version}`).toBe(k.key)
    }
    const exportKey = await kms.unwrap(
      Buffer.from(vectors.exportKey.wrapped, 'base64'),
      'export-key',
    )
    expect(hex(exportKey)).toBe(vectors.exportKey.key)
  })
})

describe('frozen stored formats: sealed values open to their inputs', () => {
  it('object values (property purpose, version 1)', () => {
    const opened = openObjects(vault.envelope, vectors.objectValues)
    expect(opened).toEqual(vectors.objectValues.map((o) => o.values))
  })

  it('token data (token purpose)', () => {
    const opened = vault.envelope.openAll(
      'token',
      vectors.tokenData.map((t) => ({
        sealed: bytes(t.sealed),
        binding: tokenBinding(t.collection, t.rowId),
      })),
    )
    expect(opened.map((p) => JSON.parse(p.toString('utf8')))).toEqual(
      vectors.tokenData.map((t) => t.values),
    )
  })

  it('encrypt-API ciphertexts, randomized and deterministic, fields and blobs', () => {
    const opened = vault.ciphertexts.openAll(
      vectors.ciphertexts.map((c) => ({
        bytes: bytes(c.bytes),
        collection: c.collection,
        scope: c.scope,
      })),
    )
    const inputs = ciphertextInputs(vectors.ciphertexts)
    expect(opened).toEqual(inputs.map((input) => ({ ...input.payload, type: input.type })))
  })

  it('exported values (the export key)', async () => {
    for (const v of vectors.exportedValues) {
      const [fields] = await importValues(vault.exportKeys, vectors.exportKey.wrapped, [v.exported])
      expect(fields).toEqual(v.fields)
    }
  })
})

describe('frozen stored formats: deterministic outputs are recomputed equal', () => {
  it('blind-index digests', () => {
    for (const b of vectors.blindDigests)
      expect(hex(vault.indexing.blindDigest(b.collection, b.property, b.value))).toBe(b.digest)
  })

  it('n-gram digests', () => {
    for (const g of vectors.gramDigests)
      expect(vault.indexing.gramDigests(g.collection, g.property, g.value).map(hex)).toEqual(
        g.digests,
      )
  })

  it('deterministic token IDs and hashes, and the primary_account_number template', () => {
    for (const i of vectors.tokenIds) expect(vault.ids.uuid(i)).toBe(i.uuid)
    for (const p of vectors.pans) expect(vault.ids.pan(p, p.card)).toBe(p.pan)
  })

  it('pci reuse fingerprints', () => {
    for (const f of vectors.fingerprints) {
      const input = { ...f, template: f.template ?? undefined, card: f.card ?? undefined }
      expect(hex(fingerprintOf(vault.envelope, input))).toBe(f.fingerprint)
    }
  })

  it('the sealing thread of bulk adds: the same blind digests, values that open', () => {
    const blind = vectors.blindDigests.filter((b) => b.collection === 'people')
    const indexed = [...new Set(blind.map((b) => b.property))]
    const keys = vault.envelope.threadKeys(
      'property',
      indexed.map((property) => ({ purpose: 'blind_index', scope: ['people', property] })),
    )
    const objects = blind.map((b, i) => ({ objectId: `object-${i}`, value: b.value }))
    const job = runSealJob({
      keys,
      collection: 'people',
      indexed,
      items: objects.map((o, i) => ({
        objectId: o.objectId,
        secret: { secret: o.value },
        indexed: { [blind[i]?.property as string]: o.value },
      })),
    })
    expect(job.digests.map((d, i) => d[blind[i]?.property as string])).toEqual(
      blind.map((b) => bytes(b.digest).toString('base64')),
    )
    const sealed = job.sealed.map((map, i) => ({
      collection: 'people',
      objectId: objects[i]?.objectId as string,
      sealed: map,
    }))
    expect(openObjects(vault.envelope, sealed)).toEqual(objects.map((o) => ({ secret: o.value })))
  })

  it('API-key hashes', () => {
    for (const k of vectors.apiKeyHashes) expect(hex(hashApiKey(k.key))).toBe(k.hash)
  })
})

describe('frozen stored formats: the same inputs and IVs seal to the frozen bytes', () => {
  it('wrapped data keys and the wrapped export key (local KMS)', async () => {
    for (const k of vectors.dataKeys) {
      queueIvs([bytes(k.wrapped)], AEAD_IV)
      const wrapped = await vault.kms.wrap(bytes(k.key), `data-key:${k.purpose}:${k.version}`)
      expect(hex(wrapped), `${k.purpose} v${k.version}`).toBe(k.wrapped)
    }
    const exportWrapped = Buffer.from(vectors.exportKey.wrapped, 'base64')
    queueIvs([exportWrapped], AEAD_IV)
    expect(hex(await vault.kms.wrap(bytes(vectors.exportKey.key), 'export-key'))).toBe(
      hex(exportWrapped),
    )
  })

  it('object values', () => {
    queueIvs(sealedOf(vectors.objectValues), AEAD_IV)
    expect(sealObjects(vault.envelope, vectors.objectValues)).toEqual(
      vectors.objectValues.map((o) => o.sealed),
    )
  })

  it('token data', () => {
    queueIvs(
      vectors.tokenData.map((t) => bytes(t.sealed)),
      AEAD_IV,
    )
    expect(sealTokens(vault.envelope, vectors.tokenData).map(hex)).toEqual(
      vectors.tokenData.map((t) => t.sealed),
    )
  })

  it('encrypt-API ciphertexts, sealed in one call', () => {
    const randomized = vectors.ciphertexts.filter((c) => c.type === 'randomized')
    queueIvs(
      randomized.map((c) => bytes(c.bytes)),
      CIPHERTEXT_IV,
    )
    const sealed = vault.ciphertexts.sealAll(ciphertextInputs(vectors.ciphertexts))
    expect(sealed.map(hex)).toEqual(vectors.ciphertexts.map((c) => c.bytes))
  })

  it('exported values', async () => {
    for (const v of vectors.exportedValues) {
      const values = Object.entries(v.exported).flatMap(([name, value]) =>
        name !== 'id' && typeof value === 'string' ? [Buffer.from(value, 'base64')] : [],
      )
      queueIvs(values, AEAD_IV)
      expect(await exportValues(vault.exportKeys, [v.fields])).toEqual([v.exported])
    }
  })
})

describe('frozen stored formats: a rotated key version', () => {
  it('opens values sealed under property version 2 beside version 1', async () => {
    await vault.addKeys(rotatedKeys.map(rowOf))
    const all = [...vectors.objectValues, ...vectors.rotatedObjectValues]
    expect(openObjects(vault.envelope, all)).toEqual(all.map((o) => o.values))
    const versions = vectors.rotatedObjectValues.flatMap((o) =>
      Object.values(o.sealed).map((s) => vault.envelope.keyVersionOf(Buffer.from(s, 'base64'))),
    )
    expect(versions).toEqual([2])
    queueIvs(sealedOf(vectors.rotatedObjectValues), AEAD_IV)
    expect(sealObjects(vault.envelope, vectors.rotatedObjectValues)).toEqual(
      vectors.rotatedObjectValues.map((o) => o.sealed),
    )
    expect(queued).toEqual([])
  })
})
