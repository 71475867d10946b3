// src/core/system/system.ts: health, version, cluster information, configuration and test-aid errors
import { randomBytes } from 'node:crypto'
import { ERRORS, type ErrorName } from '../../contract/errors.ts'
import type { Kms } from '../crypto/kms.ts'
import { VaultError } from '../errors.ts'
import type { Store } from '../store.ts'
import { formatNano } from '../time.ts'

const LICENSE_KEY = 'license'
/** A control character (Unicode Cc: NUL, line breaks, DEL…), refused in a license key. */
const CONTROL = /\p{Cc}/u
const MAX_LICENSE_LENGTH = 8192

export type SystemDeps = {
  readonly store: Store
  readonly version: string
  readonly vaultId: string
  /** The effective configuration, already masked, as GET /system/info/configuration shows it. */
  readonly configuration: Readonly<Record<string, unknown>>
  readonly license: Readonly<{ key: string; isMasked: boolean }>
  readonly healthTimeoutMs: number
  readonly kms: Kms
  readonly exportKms: Kms | undefined
}

/** `pass` when a fresh random key wraps and unwraps back to itself through the KMS. */
async function kmsStatus(kms: Kms): Promise<{ status: 'pass' | 'fail'; type: Kms['type'] }> {
  try {
    const probe = randomBytes(32)
    const unwrapped = await kms.unwrap(await kms.wrap(probe, 'status-probe'), 'status-probe')
    return { status: Buffer.from(unwrapped).equals(probe) ? 'pass' : 'fail', type: kms.type }
  } catch {
    return { status: 'fail', type: kms.type }
  }
}

/** Catalogue entries the trigger-error aid may produce, by status. */
function errorForStatus(status: number): ErrorName {
  const match = (Object.keys(ERRORS) as ErrorName[]).find((name) => ERRORS[name].status === status)
  return match ?? 'internal'
}

export function createSystemService(deps: SystemDeps) {
  async function isHealthy(): Promise<boolean> {
    const timeout = new Promise<never>((_, reject) => {
      setTimeout(() => reject(new Error('health check timed out')), deps.healthTimeoutMs).unref()
    })
    try {
      await Promise.race([deps.store.ping(), timeout])
      return true
    } catch {
      return false
    }
  }

  return {
    isHealthy,
    async getVersion() {
      return {
        vault_id: deps.vaultId,
        vault_version: deps.version,
        db_schema_version: await deps.store.schemaVersion(),
      }
    },
    async getClusterInfo() {
      const generation = await deps.store.meta.getGeneration()
      const workers = await deps.store.workers.list()
      return {
        vault: {
          generation_number: generation.generation,
          modified_at: formatNano(generation.modifiedAt),
        },
        workers: workers.map((w) => ({
          worker_id: w.workerId,
          generation_number: w.generationNumber,
          generation_checked_at: formatNano(w.generationCheckedAt),
          refresh_interval_seconds: w.refreshIntervalSeconds,
          priority: w.priority,
          component: w.component,
        })),
      }
    },
    getConfiguration: () => deps.configuration,
    async getKmsStatus() {
      const kms = await kmsStatus(deps.kms)
      return deps.exportKms ? { kms, kms_export: await kmsStatus(deps.exportKms) } : { kms }
    },
    async getLicense() {
      const stored = (await deps.store.meta.get(LICENSE_KEY)) ?? deps.license.key
      return { key: deps.license.isMasked && stored ? '***' : stored, expiration: '' }
    },
    /** Licensing is not enforced; the key is kept so get-license shows what was set. */
    async setLicense(key: string, now: number): Promise<void> {
      // PostgreSQL text holds no NUL: refused here, not as a failed statement (500).
      if (key.length > MAX_LICENSE_LENGTH || CONTROL.test(key) || !key.isWellFormed()) {
        throw new VaultError('invalidRequest', {
          message:
            'The license key must be text of at most 8192 characters without control characters.',
          context: { field: 'key' },
        })
      }
      await deps.store.meta.set(LICENSE_KEY, key, now)
    },
    /** Test aid: answers the catalogue error with the requested status. */
    triggerError(status: number): never {
      const name = errorForStatus(status)
      throw new VaultError(name, { message: `Triggered error with status ${ERRORS[name].status}.` })
    },
  }
}

export type SystemService = ReturnType<typeof createSystemService>
