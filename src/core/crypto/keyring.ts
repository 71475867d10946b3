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

export type KeyringDeps = {
  readonly store: Pick<Store, 'keys'>
  readonly kms: Kms
  readonly clock: Clock
}

export class UnknownKeyVersionError extends Error {}

type Versions = Map<number, Uint8Array>

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
  /**
   * Every version loaded so far, per purpose. A stored version never changes and versions only
   * ascend (a rotation stores the newest plus one), so a reload (every rotation, every cache
   * refresh, every refused rotation) reads only the versions above the newest it holds. Reading
   * and unwrapping all of them each time cost work and memory in proportion to all the versions
   * before: new key objects (and with them new ciphers in envelope.ts, keyed by the key object),
   * then, once those were kept, every stored row parsed again (on PostgreSQL, glibc's main arena
   * grew with the churn: bench/README.md, issue 15 item 7, third pass).
   */
  const keys = new Map<Purpose, Versions>()
  /** The newest version of each purpose: every seal asks for it. */
  const newest = new Map<Purpose, Readonly<{ version: number; key: Uint8Array }>>()
  const derived = new Map<string, Uint8Array>()

  function newestHeld(): Record<string, number> {
    return Object.fromEntries([...newest].map(([purpose, held]) => [purpose, held.version]))
  }

  /** Loads the stored versions this keyring does not hold yet. */
  async function loadNewer(): Promise<void> {
    const added: [Purpose, number, Uint8Array][] = []
    for (const row of await deps.store.keys.listNewer(newestHeld())) {
      const purpose = row.purpose as Purpose
      if (keys.get(purpose)?.has(row.version)) continue // a concurrent load got it first
      const id = context(row.purpose, row.version)
      // A copy of its own: what a KMS returns may be a view of a 64 KiB Buffer pool slab
      // (Node 24's Buffer.poolSize), which the key kept alive for the process's life: with
      // three versions per rotation, ~85 KB of every rotation stayed (bench/README.md).
      added.push([purpose, row.version, new Uint8Array(await deps.kms.unwrap(row.wrapped, id))])
    }
    // All at once, after every unwrap: a reader never sees one purpose rotated and not another.
    for (const [purpose, version, key] of added) {
      const versions = keys.get(purpose) ?? new Map()
      if (!versions.has(version)) versions.set(version, key)
      keys.set(purpose, versions)
      const held = newest.get(purpose)
      if (held === undefined || held.version < version) newest.set(purpose, { version, key })
    }
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
    return newest.get(purpose)?.version ?? 0
  }

  /** Loads new key versions; creates version 1 of any purpose that has none (first start). */
  async function load(): Promise<void> {
    await loadNewer()
    const missing = PURPOSES.filter((purpose) => !keys.has(purpose))
    for (const purpose of missing) await insertVersion(purpose, 1)
    if (missing.length > 0) await loadNewer()
  }

  function current(purpose: Purpose): { readonly version: number; readonly key: Uint8Array } {
    const held = newest.get(purpose)
    if (held === undefined) throw new UnknownKeyVersionError(`no ${purpose} key loaded`)
    return held
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
    await loadNewer()
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
