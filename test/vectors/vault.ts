// test/vectors/vault.ts: the real crypto modules over fixed data keys, for the frozen stored-format vectors

import type { IvSource } from '../../src/core/crypto/aead.ts'
import { createDeterministicCipher } from '../../src/core/crypto/deterministic.ts'
import { createDeterministicIds } from '../../src/core/crypto/deterministic-id.ts'
import { createEnvelope } from '../../src/core/crypto/envelope.ts'
import { createExportKeys } from '../../src/core/crypto/export-key.ts'
import { createKeyring } from '../../src/core/crypto/keyring.ts'
import { createLocalKms } from '../../src/core/crypto/kms.ts'
import { createCiphertexts } from '../../src/core/crypto-api/ciphertext.ts'
import { createIndexing } from '../../src/core/objects/indexing.ts'
import { openTestStore } from '../helpers/store.ts'

/** The local KMS seed every frozen wrapped key is wrapped under. */
export const KMS_SEED = 'strongroom frozen stored-format vectors'
/** Where the export key's wrapped form lives in vault_meta (core/crypto/export-key.ts). */
const EXPORT_KEY_META = 'export_key'
const CLOCK = () => 1_700_000_000_000_000

export type WrappedKeyRow = Readonly<{ purpose: string; version: number; wrapped: Uint8Array }>

/**
 * A vault's crypto services as `core/services.ts` wires them, over a real (in-memory SQLite)
 * store holding the given wrapped data keys and wrapped export key: nothing is generated. Every
 * IV comes from `ivs`.
 */
export async function openVectorVault(
  rows: readonly WrappedKeyRow[],
  exportKey: string,
  ivs: IvSource,
) {
  const handle = await openTestStore()
  const { store } = handle
  for (const row of rows) await store.keys.insert({ ...row, createdAt: CLOCK() })
  await store.meta.set(EXPORT_KEY_META, exportKey, CLOCK())
  const kms = createLocalKms(KMS_SEED, { ivs })
  const keyring = createKeyring({ store, kms, clock: CLOCK })
  await keyring.load()
  const envelope = createEnvelope(keyring, { ivs })
  const siv = createDeterministicCipher(keyring)
  return {
    kms,
    keyring,
    envelope,
    ciphertexts: createCiphertexts({ envelope, siv }),
    indexing: createIndexing(envelope),
    // As core/services.ts wires the deterministic token IDs and hashes.
    ids: createDeterministicIds((use, data) => envelope.mac('deterministic', use, data)),
    exportKeys: createExportKeys({ meta: store.meta, kms, clock: CLOCK, isMemory: false, ivs }),
    /** Adds key rows (e.g. a rotated version) and reloads the keyring, as a rotation does. */
    async addKeys(more: readonly WrappedKeyRow[]) {
      for (const row of more) await store.keys.insert({ ...row, createdAt: CLOCK() })
      await keyring.load()
    },
    close: () => handle.close(),
  }
}

export type VectorVault = Awaited<ReturnType<typeof openVectorVault>>
