// src/core/keys/keys.ts: key administration: rotate data keys, report rotation and re-encryption progress

import type { RotationStatus } from '../../contract/keys.ts'
import type { AuditedWrites } from '../audit/audit.ts'
import { NO_DETAILS } from '../audit/details.ts'
import type { ControlCache } from '../cache.ts'
import type { RequestContext } from '../context.ts'
import { type Keyring, ROTATABLE_PURPOSES } from '../crypto/keyring.ts'
import { VaultError } from '../errors.ts'
import type { Store } from '../store.ts'
import { formatNano } from '../time.ts'
import type { ReencryptionJob, ReencryptionSource } from './rotation.ts'
import {
  isBehind,
  needsWork,
  type RotationState,
  sameTargets,
  type Targets,
} from './rotation-state.ts'

export type KeysDeps = Readonly<{
  store: Store
  audit: AuditedWrites
  keyring: Keyring
  cache: ControlCache
  job: ReencryptionJob
  sources: readonly ReencryptionSource[]
}>

const time = (micros: number | undefined) => (micros === undefined ? null : formatNano(micros))

function progress(state: RotationState | undefined, sources: readonly ReencryptionSource[]) {
  return {
    target_versions: { ...(state?.targets ?? {}) },
    pass: state?.pass ?? 0,
    source:
      state?.finishedAt === undefined ? (sources[state?.sourceIndex ?? -1]?.name ?? null) : null,
    scanned: state?.scanned ?? 0,
    reencrypted: state?.reencrypted ?? 0,
    conflicts: state?.conflicts ?? 0,
    failures: state?.failures ?? 0,
    rotated_at: time(state?.rotatedAt),
    updated_at: time(state?.updatedAt),
    finished_at: time(state?.finishedAt),
  }
}

/** `idle`: never rotated; `done`: stored data uses the newest keys; else `running` (or about to). */
function statusOf(state: RotationState | undefined, local: Targets): RotationStatus['status'] {
  if (state === undefined) return needsWork(undefined, local) ? 'running' : 'idle'
  const isNewerPending = !sameTargets(state.targets, local) && !isBehind(local, state.targets)
  return state.finishedAt === undefined || isNewerPending ? 'running' : 'done'
}

/** 409 ERR9005: the data keys are in use by the re-encryption of an earlier rotation. */
function rotationRunning(state: RotationState | undefined): VaultError {
  const targets = Object.entries(state?.targets ?? {})
    .map(([purpose, version]) => `${purpose} ${version}`)
    .join(', ')
  return new VaultError('inUse', {
    message: `A key rotation is still running: stored data is being re-encrypted to the key versions of the previous rotation${targets ? ` (${targets})` : ''}. Rotate again once GET /api/pvlt/1.0/system/admin/keys/rotation reports status done.`,
    context: { status: 'running' },
  })
}

export function createKeysService(deps: KeysDeps) {
  /** A rotation of this node in progress: a second one at the same time is refused too. */
  let isRotating = false
  return {
    /**
     * Adds a version to every rotatable data key (crypto.md §6.2): new writes use it at once on
     * every node (the control cache reloads keys), old versions still decrypt, and the
     * re-encryption job moves stored data to it in the background. Refused in in-memory mode.
     */
    async rotate(ctx: RequestContext): Promise<void> {
      if (deps.store.isMemory) {
        throw new VaultError('notInMemoryMode', {
          message: 'Key rotation is not allowed in in-memory mode.',
        })
      }
      // One rotation at a time: a rotation requested while the re-encryption of the previous one
      // runs (on any node: the state is the shared lease's) is refused, not queued, so rotations
      // cannot pile up key versions faster than stored data follows them.
      if (isRotating) throw rotationRunning(undefined)
      isRotating = true
      try {
        // Versions another node added since this node's last refresh: rotate past them.
        await deps.keyring.load()
        const state = await deps.job.state()
        if (statusOf(state, deps.job.targets()) === 'running') throw rotationRunning(state)
        await deps.audit.transaction(ctx, NO_DETAILS, (tx) => deps.keyring.addVersions(tx.keys))
        await deps.keyring.load()
        await deps.cache.changed()
        deps.job.kick()
      } finally {
        isRotating = false
      }
    },

    async getStatus(_ctx: RequestContext): Promise<RotationStatus> {
      const state = await deps.job.state()
      const key_versions = Object.fromEntries(
        ROTATABLE_PURPOSES.map((purpose) => [purpose, deps.keyring.current(purpose).version]),
      )
      return {
        status: statusOf(state, deps.job.targets()),
        key_versions,
        ...progress(state, deps.sources),
      }
    },
  }
}

export type KeysService = ReturnType<typeof createKeysService>
