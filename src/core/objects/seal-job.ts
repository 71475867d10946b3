// src/core/objects/seal-job.ts: the sealing and blind digests of new objects, as run on the sealing thread

import { deriveAeadKey } from '../crypto/aead.ts'
import { sealWith, type ThreadKeys } from '../crypto/envelope.ts'
import { createMac } from '../crypto/mac.ts'
import { ownValue } from '../own.ts'
import { type SealedMap, sealedMapsOf, sealRequestsOf } from '../values/sealing.ts'
import { blindDigestWith, type DigestMap } from './indexing.ts'

type Fields = Record<string, unknown>

/**
 * One step of a bulk write, posted to the sealing thread: the keys (`macKeys[i]` is the
 * blind-index key of `indexed[i]`), and per object its id, the values to seal and the values of
 * its indexed properties.
 */
export type SealJob = Readonly<{
  keys: ThreadKeys
  collection: string
  indexed: readonly string[]
  items: readonly Readonly<{ objectId: string; secret: Fields; indexed: Fields }>[]
}>

export type SealJobResult = Readonly<{ sealed: SealedMap[]; digests: DigestMap[] }>

/**
 * Exactly what `sealObjects` and `digestsOf` compute on the main thread (tested against them):
 * the same seal requests and AEAD, the same digests, property order and encoding.
 */
export function runSealJob(job: SealJob): SealJobResult {
  const key = deriveAeadKey(job.keys.dataKey, job.keys.version)
  const macs = job.keys.macKeys.map((macKey) => createMac(macKey))
  const objects = job.items.map((item) => ({
    collection: job.collection,
    objectId: item.objectId,
    values: item.secret,
  }))
  const sealed = sealedMapsOf(objects, sealWith(key, sealRequestsOf(objects)))
  const digests = job.items.map((item) => {
    const map: DigestMap = {}
    job.indexed.forEach((property, i) => {
      const mac = macs[i]
      if (mac !== undefined)
        map[property] = blindDigestWith(mac, ownValue(item.indexed, property)).toString('base64')
    })
    return map
  })
  return { sealed, digests }
}
