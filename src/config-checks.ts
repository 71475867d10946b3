// src/config-checks.ts: checks across settings, made once every value is read (start-up refusals)
import type { Config } from './config.ts'
import { DEFAULT_ADMIN_API_KEY } from './config-sections.ts'
import type { Reader } from './config-values.ts'

/** Start-up checks of spec §4 that need no I/O. */
export function checkConfig(config: Config, read: Reader): void {
  const { kms, tls, service } = config
  if (kms.uri === '' && !kms.allowLocal) {
    read.problem(
      'SVC_KMS_URI: no KMS is configured; set SVC_KMS_URI, or SVC_KMS_ALLOW_LOCAL=true with SVC_KMS_SEED',
    )
  } else if (kms.uri === '' && kms.seed === '' && !config.generateSecrets) {
    read.problem(
      'SVC_KMS_SEED: the local KMS has no seed; set SVC_KMS_SEED (or SVC_KMS_SEED_FILE), SVC_KMS_URI, or SVC_GENERATE_SECRETS=true',
    )
  }
  if (tls.enable && !tls.selfSigned && (tls.certFile === '' || tls.keyFile === '')) {
    read.problem(
      'SVC_TLS_ENABLE: TLS is on but SVC_TLS_CERT_FILE and SVC_TLS_KEY_FILE are not both set; set them, or SVC_TLS_SELFSIGNED=true, or SVC_TLS_ENABLE=false',
    )
  }
  if (!config.devmode) checkServerSecrets(config, read)
  if (config.database.kind === 'none') checkStateless(config, read)
  if (service.defaultPageSize > service.maxPageSize) {
    read.problem(
      `SVC_SERVICE_DEFAULT_PAGE_SIZE: ${service.defaultPageSize} is above SVC_SERVICE_MAX_PAGE_SIZE (${service.maxPageSize})`,
    )
  }
}

/** Shorter KMS seeds are refused in server mode: they are guessable. */
export const MIN_KMS_SEED_LENGTH = 32
const GENERATE_HINT = 'generate one with `openssl rand -base64 32`'

/** Server mode refuses the well-known dev Admin key and short KMS seeds (README, Configuration). */
function checkServerSecrets(config: Config, read: Reader): void {
  const { kms, service, generateSecrets } = config
  // SVC_GENERATE_SECRETS replaces the default key with a random one on first start.
  if (service.adminApiKey === DEFAULT_ADMIN_API_KEY && !generateSecrets) {
    read.problem(
      `SVC_SERVICE_ADMIN_API_KEY: server mode refuses the dev Admin key ${DEFAULT_ADMIN_API_KEY}; set SVC_SERVICE_ADMIN_API_KEY to a secret (${GENERATE_HINT}), or SVC_GENERATE_SECRETS=true`,
    )
  }
  const seed = kms.uri === '' ? kms.seed : ''
  if (seed !== '' && Array.from(seed).length < MIN_KMS_SEED_LENGTH) {
    read.problem(
      `SVC_KMS_SEED: server mode needs a KMS seed of at least ${MIN_KMS_SEED_LENGTH} characters (${Array.from(seed).length} given); ${GENERATE_HINT} and keep it safe: data encrypted under a seed cannot be read without it`,
    )
  }
}

/** Stateless mode (config.md §8): no database to audit into, and a seed every node shares. */
function checkStateless(config: Config, read: Reader): void {
  if (config.log.auditSinks.includes('database')) {
    read.problem(
      'SVC_LOG_AUDIT_SINK: a stateless node (SVC_BACKING_STORE=none) has no database; set SVC_LOG_AUDIT_SINK to stdout or file',
    )
  }
  const { kms } = config
  if (kms.allowLocal && kms.uri === '' && kms.seed === '' && config.generateSecrets) {
    read.problem(
      'SVC_KMS_SEED: a stateless node cannot generate its seed (every node needs the same one); set SVC_KMS_SEED or seed in [kms] of secrets.toml',
    )
  }
}
