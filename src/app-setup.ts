// src/app-setup.ts: start-up material for the composition root: TLS certificates and generated secrets
import { randomBytes } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Config } from './config.ts'

export type TlsMaterial = { readonly key: string; readonly cert: string }

const SELF_SIGNED_HOURS = 24

/** The certificate to serve HTTPS with, or undefined for plain HTTP (spec config.md §2.7). */
export async function tlsMaterial(config: Config): Promise<TlsMaterial | undefined> {
  if (config.tls.selfSigned) {
    // Loaded only when needed: certificate generation pulls in a large ASN.1 stack.
    const { generate } = await import('selfsigned')
    const now = new Date()
    const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
      keySize: 2048,
      algorithm: 'sha256',
      notBeforeDate: now,
      notAfterDate: new Date(now.getTime() + SELF_SIGNED_HOURS * 3_600_000),
    })
    return { key: pems.private, cert: pems.cert }
  }
  if (!config.tls.enable) return undefined
  return {
    key: readFileSync(config.tls.keyFile, 'utf8'),
    cert: readFileSync(config.tls.certFile, 'utf8'),
  }
}

type Secrets = { admin_api_key?: string; kms_seed?: string }

export type GeneratedSecrets = { readonly config: Config; readonly newAdminKey: string | undefined }

/**
 * SVC_GENERATE_SECRETS: on first start, create a random Admin key (unless one is configured) and
 * a local KMS seed (unless one is configured), keep them in `<data dir>/secrets.json` (mode 0600)
 * and reuse them on later starts. The new Admin key is returned once so the caller can print it.
 */
export async function applyGeneratedSecrets(config: Config): Promise<GeneratedSecrets> {
  if (
    !config.generateSecrets ||
    config.database.kind !== 'sqlite' ||
    config.database.file === ':memory:'
  ) {
    return { config, newAdminKey: undefined }
  }
  const file = join(config.dataDir, 'secrets.json')
  const stored: Secrets = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {}
  const wanted: Secrets = {
    admin_api_key: config.service.adminApiKeyIsDefault
      ? (stored.admin_api_key ?? randomBytes(32).toString('base64url'))
      : undefined,
    kms_seed: config.kms.seed ? undefined : (stored.kms_seed ?? randomBytes(32).toString('hex')),
  }
  const isNew = wanted.admin_api_key !== undefined && stored.admin_api_key === undefined
  if (JSON.stringify({ ...stored, ...wanted }) !== JSON.stringify(stored)) {
    await mkdir(config.dataDir, { recursive: true })
    await writeFile(file, JSON.stringify({ ...stored, ...wanted }, null, 2), { mode: 0o600 })
  }
  const next: Config = {
    ...config,
    service: wanted.admin_api_key
      ? { ...config.service, adminApiKey: wanted.admin_api_key, adminApiKeyIsDefault: false }
      : config.service,
    kms: wanted.kms_seed ? { ...config.kms, seed: wanted.kms_seed } : config.kms,
  }
  return { config: next, newAdminKey: isNew ? wanted.admin_api_key : undefined }
}
