// src/contract/keys.ts: wire shapes of key administration (rotation of data keys and its progress)
import type { Static } from 'typebox'
import { Type } from './schema.ts'

const NullableTime = Type.Union([Type.String(), Type.Null()])

/**
 * Key rotation and background re-encryption: the newest key version of each rotatable purpose,
 * and how far re-encryption of stored data to the target versions has come.
 * @example { "status": "running", "key_versions": { "property": 2, "token": 2, "ciphertext": 2 }, "target_versions": { "property": 2 }, "pass": 1, "source": "objects", "scanned": 5000, "reencrypted": 4990, "conflicts": 10, "failures": 0, "rotated_at": "…", "updated_at": "…", "finished_at": null }
 */
export const RotationStatus = Type.Object({
  status: Type.Union([Type.Literal('idle'), Type.Literal('running'), Type.Literal('done')]),
  key_versions: Type.Record(Type.String(), Type.Integer()),
  target_versions: Type.Record(Type.String(), Type.Integer()),
  pass: Type.Integer(),
  source: Type.Union([Type.String(), Type.Null()]),
  scanned: Type.Integer(),
  reencrypted: Type.Integer(),
  conflicts: Type.Integer(),
  failures: Type.Integer(),
  rotated_at: NullableTime,
  updated_at: NullableTime,
  finished_at: NullableTime,
})
export type RotationStatus = Static<typeof RotationStatus>
