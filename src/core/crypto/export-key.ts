// src/core/crypto/export-key.ts: the export key (crypto.md §6.3): a data key wrapped by the export KMS, and values sealed with it
import { randomBytes } from 'node:crypto'
import { VaultError } from '../errors.ts'
import type { MetaRepo } from '../store.ts'
import type { Clock } from '../time.ts'
import { type AeadKey, deriveAeadKey, type IvSource, openMany, sealMany } from './aead.ts'
import { bindingOf } from './envelope.ts'
import type { Kms } from './kms.ts'

const META_KEY = 'export_key'
const WRAP_CONTEXT = 'export-key'
/** Exported values carry key version 1: the export key is not rotated, a new vault gets a new one. */
const VERSION = 1

export class InvalidExportKeyError extends Error {
  override readonly name = 'InvalidExportKeyError'
}

export type ExportKeysDeps = Readonly<{
  meta: MetaRepo
  kms: Kms
  clock: Clock
  /** In-memory mode refuses the export key (config.md §7): nothing would outlive the process. */
  isMemory: boolean
  /** Where exported values' IVs come from: the thread's CSPRNG pool unless a test fixes them. */
  ivs?: IvSource
}>

/**
 * An exported value is the v1 AEAD (aead.ts) under the export key, key version 1, of the bytes the
 * caller passes (the value's JSON text), bound to its property name only so it can be imported
 * into any object: AAD = bindingOf(['export', property]).
 */
const binding = (property: string) => bindingOf(['export', property])

export function createExportKeys(deps: ExportKeysDeps) {
  let current: Promise<{ wrapped: string; key: AeadKey }> | undefined

  async function unwrap(wrapped: string): Promise<AeadKey> {
    try {
      const dataKey = await deps.kms.unwrap(Buffer.from(wrapped, 'base64'), WRAP_CONTEXT)
      return deriveAeadKey(dataKey, VERSION, deps.ivs)
    } catch (cause) {
      throw new InvalidExportKeyError('the export key cannot be unwrapped', { cause })
    }
  }

  /** The vault's export key, created once; two nodes racing keep whichever was stored last. */
  async function load(): Promise<{ wrapped: string; key: AeadKey }> {
    let wrapped = await deps.meta.get(META_KEY)
    if (wrapped === undefined) {
      const created = await deps.kms.wrap(randomBytes(32), WRAP_CONTEXT)
      await deps.meta.set(META_KEY, Buffer.from(created).toString('base64'), deps.clock())
      wrapped = (await deps.meta.get(META_KEY)) as string
    }
    return { wrapped, key: await unwrap(wrapped) }
  }

  function ensure() {
    current ??= load().catch((error) => {
      current = undefined
      throw error
    })
    return current
  }

  return {
    /** The wrapped export key as base64 (GET /system/admin/export_key); 405 in in-memory mode. */
    async wrapped(): Promise<string> {
      if (deps.isMemory)
        throw new VaultError('notInMemoryMode', {
          message: 'Getting the export key is not allowed in in-memory mode.',
        })
      return (await ensure()).wrapped
    },
    /** Seals values for export: each `plaintext` bound to its property name. */
    async seal(items: readonly { property: string; plaintext: Uint8Array }[]): Promise<Buffer[]> {
      const { key } = await ensure()
      return sealMany(
        key,
        items.map((item) => ({ plaintext: item.plaintext, aad: binding(item.property) })),
      )
    },
    /**
     * Opens exported values with a wrapped key given by the caller (import); a key the export KMS
     * cannot unwrap, or a value that fails authentication, throws InvalidExportKeyError.
     */
    async open(
      wrapped: string,
      items: readonly { property: string; sealed: Uint8Array }[],
    ): Promise<Buffer[]> {
      const key = await unwrap(wrapped)
      try {
        return openMany(
          key,
          items.map((item) => ({ sealed: item.sealed, aad: binding(item.property) })),
        )
      } catch (cause) {
        throw new InvalidExportKeyError('an exported value cannot be opened', { cause })
      }
    },
  }
}

export type ExportKeys = ReturnType<typeof createExportKeys>
