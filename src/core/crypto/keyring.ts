// src/core/crypto/keyring.ts: versioned data keys per purpose, wrapped by the KMS and stored in the database
import { hkdfSync, randomBytes } from 'node:crypto'
import type { KeysRepo, Store } from '../store.ts'
import type { Clock } from '../time.ts'
import type { Kms } from './kms.ts'

/**
 * Encryption purposes get new versions on rotation; derivation purposes (blind indexes, n-grams,
 * deterministic IDs) never rotate, or equal values would stop matching (spec crypto.md §6.1).
 */
export const ROTATABLE_PURPOSES = ['property', 'token', 'ciphertext'] as const
export const DERIVATION_PURPOSES = ['blind_index', 'substring', 'deterministic', 'siv'] as const
export type RotatablePurpose = (typeof ROTATABLE_PURPOSES)[number]
export type DerivationPurpose = (typeof DERIVATION_PURPOSES)[number]
export type Purpose = RotatablePurpose | DerivationPurpose
const PURPOSES: readonly Purpose[] = [...ROTATABLE_PURPOSES, ...DERIVATION_PURPOSES]

export type KeyringDeps = { readonly store: Store; readonly kms: Kms; readonly clock: Clock }

export class UnknownKeyVersionError extends Error {}

type Versions = Map<number, Uint8Array>

/** A version as unwrapped, with the wrapped bytes it came from (a version never changes). */
type Unwrapped = Readonly<{ wrapped: Uint8Array; key: Uint8Array }>

function context(purpose: string, version: number): string {
  return `data-key:${purpose}:${version}`
}

/**
 * Stores version 1 of every purpose as a key derived from the KMS (`Kms.derive`) instead of a
 * random one: nodes that share the KMS configuration but no database (stateless mode) hold the
 * same keys, so each opens the others' ciphertexts. Run before the keyring first loads.
 */
export async function installDerivedKeys(deps: KeyringDeps): Promise<void> {
  const { kms } = deps
  if (kms.derive === undefined)
    throw new Error(`The ${kms.type} KMS cannot derive keys; stateless nodes need one that can.`)
  for (const purpose of PURPOSES) {
    const key = await kms.derive(context(purpose, 1))
    const wrapped = await kms.wrap(key, context(purpose, 1))
    await deps.store.keys.insert({ purpose, version: 1, wrapped, createdAt: deps.clock() })
  }
}

export function createKeyring(deps: KeyringDeps) {
  let keys = new Map<Purpose, Versions>()
  const derived = new Map<string, Uint8Array>()
  /**
   * Every version unwrapped so far, by `purpose:version`. A reload (every rotation, every cache
   * refresh) unwraps only versions it has not seen: unwrapping all of them each time made new
   * key objects for every version, and with them new ciphers in envelope.ts (keyed by the key
   * object), so each rotation cost memory in proportion to all the versions before it.
   */
  const unwrapped = new Map<string, Unwrapped>()

  async function unwrapAll(): Promise<Map<Purpose, Versions>> {
    const loaded = new Map<Purpose, Versions>()
    for (const row of await deps.store.keys.list()) {
      const purpose = row.purpose as Purpose
      const versions = loaded.get(purpose) ?? new Map()
      const id = context(row.purpose, row.version)
      let known = unwrapped.get(id)
      if (known === undefined || !Buffer.from(known.wrapped).equals(row.wrapped)) {
        // A copy of its own: what a KMS returns may be a view of a 64 KiB Buffer pool slab
        // (Node 24's Buffer.poolSize), which the key kept alive for the process's life: with
        // three versions per rotation, ~85 KB of every rotation stayed (bench/README.md).
        const key = new Uint8Array(await deps.kms.unwrap(row.wrapped, id))
        known = { wrapped: row.wrapped, key }
        unwrapped.set(id, known)
      }
      versions.set(row.version, known.key)
      loaded.set(purpose, versions)
    }
    return loaded
  }

  /** Stores a new random key version; false when another node stored that version first. */
  async function insertVersion(
    purpose: Purpose,
    version: number,
    repo: KeysRepo = deps.store.keys,
  ): Promise<boolean> {
    const key = randomBytes(32)
    const wrapped = await deps.kms.wrap(key, context(purpose, version))
    return repo.insert({ purpose, version, wrapped, createdAt: deps.clock() })
  }

  function latestVersion(purpose: Purpose): number {
    return Math.max(0, ...(keys.get(purpose)?.keys() ?? []))
  }

  /** Loads every key version; creates version 1 of any purpose that has none (first start). */
  async function load(): Promise<void> {
    let loaded = await unwrapAll()
    const missing = PURPOSES.filter((purpose) => !loaded.has(purpose))
    for (const purpose of missing) await insertVersion(purpose, 1)
    if (missing.length > 0) loaded = await unwrapAll()
    keys = loaded
  }

  function current(purpose: Purpose): { readonly version: number; readonly key: Uint8Array } {
    const version = latestVersion(purpose)
    const key = keys.get(purpose)?.get(version)
    if (key === undefined) throw new UnknownKeyVersionError(`no ${purpose} key loaded`)
    return { version, key }
  }

  function byVersion(purpose: Purpose, version: number): Uint8Array {
    const key = keys.get(purpose)?.get(version)
    if (key === undefined)
      throw new UnknownKeyVersionError(`unknown ${purpose} key version ${version}`)
    return key
  }

  /**
   * A sub-key for one use of a derivation purpose (HKDF-SHA256, RFC 5869), e.g. the blind-index
   * key of one property: compromising one property's key reveals nothing about another's.
   */
  function derive(purpose: DerivationPurpose, info: string): Uint8Array {
    const id = `${purpose}\u0000${info}`
    let key = derived.get(id)
    if (key === undefined) {
      key = new Uint8Array(hkdfSync('sha256', byVersion(purpose, 1), Buffer.alloc(0), info, 32))
      derived.set(id, key)
    }
    return key
  }

  /** Adds a version to each rotatable purpose; new writes use it, old versions still decrypt. */
  /** Stores the next version of every rotatable key through `repo` (a transaction's); `load` uses them. */
  async function addVersions(repo: KeysRepo): Promise<void> {
    for (const purpose of ROTATABLE_PURPOSES)
      await insertVersion(purpose, latestVersion(purpose) + 1, repo)
  }

  async function rotate(): Promise<void> {
    await addVersions(deps.store.keys)
    keys = await unwrapAll()
  }

  return {
    load,
    current,
    byVersion,
    derive,
    rotate,
    addVersions,
    versions: (purpose: Purpose) => [...(keys.get(purpose)?.keys() ?? [])].sort((a, b) => a - b),
  }
}

export type Keyring = ReturnType<typeof createKeyring>
