// src/core/system/system.ts: health, version, cluster information, configuration and test-aid errors

import { randomBytes } from 'node:crypto'
import { ERRORS, type ErrorName } from '../../contract/errors.ts'
import type { AuditedWrites } from '../audit/audit.ts'
import { NO_DETAILS } from '../audit/details.ts'
import type { RequestContext } from '../context.ts'
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
  readonly audit: AuditedWrites
  readonly version: string
  readonly vaultId: string
  /** The effective configuration, already masked, as GET /system/info/configuration shows it. */
  readonly configuration: Readonly<Record<string, unknown>>
  readonly license: Readonly<{ key: string; isMasked: boolean }>
  readonly healthTimeoutMs: number
  /** Whether each audit sink can record (by sink name). */
  readonly auditReadiness: () => Promise<Record<string, boolean>>
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
  /** Whether `work` succeeds within the health timeout. */
  async function within<T>(work: Promise<T>, isPass: (value: T) => boolean): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('check timed out')), deps.healthTimeoutMs)
    })
    try {
      return isPass(await Promise.race([work, timeout]))
    } catch {
      return false
    } finally {
      clearTimeout(timer)
    }
  }

  function isHealthy(): Promise<boolean> {
    return within(deps.store.ping(), () => true)
  }

  /**
   * Readiness: the database answers, every audit sink can record, and the KMS wraps and unwraps.
   * Each check is bounded by the health timeout; the result names each check, never why it failed.
   */
  async function readiness(): Promise<{
    isReady: boolean
    checks: Record<string, 'pass' | 'fail'>
  }> {
    let bySink: Record<string, boolean> = {}
    const [database, kms, audit] = await Promise.all([
      within(deps.store.ping(), () => true),
      within(kmsStatus(deps.kms), (status) => status.status === 'pass'),
      within(deps.auditReadiness(), (ready) => {
        bySink = ready
        return Object.values(ready).every(Boolean)
      }),
    ])
    const checks: Record<string, 'pass' | 'fail'> = {
      database: database ? 'pass' : 'fail',
      kms: kms ? 'pass' : 'fail',
    }
    for (const [name, isReady] of Object.entries(bySink))
      checks[`audit_${name}`] = isReady ? 'pass' : 'fail'
    if (!audit && Object.keys(bySink).length === 0) checks.audit = 'fail'
    return { isReady: database && kms && audit, checks }
  }

  return {
    isHealthy,
    readiness,
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
    async setLicense(ctx: RequestContext, key: string): Promise<void> {
      // PostgreSQL text holds no NUL: refused here, not as a failed statement (500).
      if (key.length > MAX_LICENSE_LENGTH || CONTROL.test(key) || !key.isWellFormed()) {
        throw new VaultError('invalidRequest', {
          message:
            'The license key must be text of at most 8192 characters without control characters.',
          context: { field: 'key' },
        })
      }
      await deps.audit.transaction(ctx, NO_DETAILS, (tx) => tx.meta.set(LICENSE_KEY, key, ctx.now))
    },
    /** Test aid: answers the catalogue error with the requested status. */
    triggerError(status: number): never {
      const name = errorForStatus(status)
      throw new VaultError(name, { message: `Triggered error with status ${ERRORS[name].status}.` })
    },
  }
}

export type SystemService = ReturnType<typeof createSystemService>
