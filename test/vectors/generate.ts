// test/vectors/generate.ts: prints the stored-format vectors that today's code produces from fixed keys and IVs
//
// Run once per new format, review, and append to stored-formats.json by hand:
//   npx node test/vectors/generate.ts > /tmp/vectors.json
// Never regenerate vectors already in the file: they freeze bytes that data on disk depends on.
import { hash } from 'node:crypto'
import { createLocalKms } from '../../src/core/crypto/kms.ts'
import { hashApiKey } from '../../src/core/iam/api-keys.ts'
import { fingerprintOf } from '../../src/core/tokens/ids.ts'
import { sealTokens } from '../../src/core/tokens/records.ts'
import { exportValues } from '../../src/core/values/export.ts'
import { sealObjects } from '../../src/core/values/sealing.ts'
import * as inputs from './inputs.ts'
import { KMS_SEED, openVectorVault } from './vault.ts'

/** The IV of the n-th sealed value: a fixed mix of arbitrary counters and ones that carry. */
function ivOfSlot(slot: number): Buffer {
  const iv = hash('sha256', `strongroom vector iv ${slot}`, 'buffer').subarray(0, 16)
  if (slot % 3 === 1) iv.fill(0xff, 12) // carries across 4 bytes on the second block
  if (slot % 3 === 2) iv.fill(0xff) // the whole 128-bit counter wraps to zero
  return iv
}

// Every sealed value (wrapped keys included) takes the next slots' IVs, in the order sealed.
let slot = 0
const ivs = (count: number) => Buffer.concat(Array.from({ length: count }, () => ivOfSlot(slot++)))

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex')
const keyOf = (label: string) => hash('sha256', `strongroom vector key ${label}`, 'buffer')

const kms = createLocalKms(KMS_SEED, { ivs })
const wrapKey = async (purpose: string, version: number) => {
  const key = keyOf(`${purpose} v${version}`)
  const wrapped = await kms.wrap(key, `data-key:${purpose}:${version}`)
  return { purpose, version, key: hex(key), wrapped: hex(wrapped) }
}
const dataKeys = []
for (const purpose of inputs.PURPOSES) dataKeys.push(await wrapKey(purpose, 1))
const rotated = await wrapKey('property', 2)
const exportKey = keyOf('export')
const exportWrapped = Buffer.from(await kms.wrap(exportKey, 'export-key')).toString('base64')

const asRow = (k: { purpose: string; version: number; wrapped: string }) => ({
  ...k,
  wrapped: Buffer.from(k.wrapped, 'hex'),
})
const vault = await openVectorVault(dataKeys.map(asRow), exportWrapped, ivs)

const objectValues = inputs.OBJECTS.map((o) => ({
  ...o,
  sealed: sealObjects(vault.envelope, [o])[0],
}))
const tokenData = inputs.TOKENS.map((t) => ({
  ...t,
  sealed: hex(sealTokens(vault.envelope, [t])[0] as Buffer),
}))
const sealedCiphertexts = vault.ciphertexts.sealAll(inputs.ciphertextInputs())
const ciphertexts = inputs.CIPHERTEXTS.map((c, i) => ({
  ...c,
  bytes: hex(sealedCiphertexts[i] as Buffer),
}))
const exported = await exportValues(vault.exportKeys, inputs.EXPORTED)
const blindDigests = inputs.BLIND.map((b) => ({
  ...b,
  digest: hex(vault.indexing.blindDigest(b.collection, b.property, b.value)),
}))
const gramDigests = inputs.GRAMS.map((g) => ({
  ...g,
  digests: vault.indexing.gramDigests(g.collection, g.property, g.value).map(hex),
}))
const tokenIds = inputs.IDS.map((i) => ({ ...i, uuid: vault.ids.uuid(i) }))
const pans = inputs.PANS.map((p) => ({ ...p, pan: vault.ids.pan(p, p.card) }))
const fingerprints = inputs.FINGERPRINTS.map((f) => ({
  ...f,
  fingerprint: hex(
    fingerprintOf(vault.envelope, {
      ...f,
      template: f.template ?? undefined,
      card: f.card ?? undefined,
    }),
  ),
}))
const apiKeyHashes = inputs.API_KEYS.map((key) => ({ key, hash: hex(hashApiKey(key)) }))

await vault.addKeys([asRow(rotated)])
const rotatedObjectValues = inputs.ROTATED_OBJECTS.map((o) => ({
  ...o,
  sealed: sealObjects(vault.envelope, [o])[0],
}))
await vault.close()

process.stdout.write(
  `${JSON.stringify(
    {
      kmsSeed: KMS_SEED,
      dataKeys: [...dataKeys, rotated],
      exportKey: { key: hex(exportKey), wrapped: exportWrapped },
      objectValues,
      rotatedObjectValues,
      tokenData,
      ciphertexts,
      exportedValues: inputs.EXPORTED.map((fields, i) => ({ fields, exported: exported[i] })),
      blindDigests,
      gramDigests,
      tokenIds,
      pans,
      fingerprints,
      apiKeyHashes,
    },
    null,
    2,
  )}\n`,
)
