// src/app.ts: composition root: opens the database, builds store, services and server, starts and stops them
import { randomUUID } from 'node:crypto'
import { createWriteStream, readFileSync } from 'node:fs'
import { mkdir, readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { coreSettings } from './app-settings.ts'
import { applyGeneratedSecrets, tlsMaterial } from './app-setup.ts'
import type { Config } from './config.ts'
import type { AuditSink } from './core/audit/audit.ts'
import { createLocalKms, type Kms } from './core/crypto/kms.ts'
import { isVaultError } from './core/errors.ts'
import type { IamFile } from './core/iam/iam.ts'
import { createServices, type Services } from './core/services.ts'
import type { Store } from './core/store.ts'
import { type Clock, systemClock } from './core/time.ts'
import { warmCompilersLater } from './http/compilers.ts'
import { buildServer } from './http/server.ts'
import { openDatabase } from './storage/database.ts'
import type { QueryObserver } from './storage/dialects/dialect.ts'
import { migrate } from './storage/migrate.ts'
import { createSqlStore } from './storage/sql-store.ts'

export const VERSION: string = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
).version

export type App = {
  readonly config: Config
  /** An Admin key generated on this start (SVC_GENERATE_SECRETS); shown once. */
  readonly newAdminKey: string | undefined
  readonly server: FastifyInstance
  readonly services: Services
  readonly store: Store
  /** Starts listening; resolves to the address actually bound (port 0 picks a free port). */
  listen(): Promise<string>
  /** Stops accepting connections, lets in-flight requests finish, then closes the database. */
  close(): Promise<void>
}

export type AppOptions = {
  readonly clock?: Clock
  /** Tests silence the service log (they assert on responses and audit records instead). */
  readonly isLogSilent?: boolean
}

export class StartupError extends Error {}

/**
 * The local seed KMS, or a refusal for cloud KMS URIs: this build ships no cloud KMS client
 * (no network access to one here). A cloud kind implements the `Kms` port in core/crypto/kms.ts.
 */
function createKms(uri: string, seed: string, variable: string): Kms {
  if (uri) {
    throw new StartupError(
      `${variable}_URI names a cloud KMS (${uri.split('://')[0]}); this build supports only the local KMS: set ${variable}_SEED instead.`,
    )
  }
  return createLocalKms(seed)
}

async function openStore(config: Config, onQuery: QueryObserver): Promise<Store> {
  if (config.database.kind === 'none') {
    throw new StartupError(
      'SVC_BACKING_STORE=none (stateless mode) is not implemented yet; use sqlite, postgres or memory.',
    )
  }
  const database = openDatabase(config.database, { onQuery })
  try {
    if (config.migration.autoRun || database.isMemory)
      await migrate(database.db, database.dialect, config.migration)
  } catch (error) {
    await database.db.destroy()
    throw error
  }
  return createSqlStore(database)
}

/** Appends a line and resolves once it is handed to the OS; a broken stream rejects every write. */
function streamSink(stream: NodeJS.WritableStream): AuditSink {
  let failure: Error | undefined
  stream.on('error', (error: Error) => {
    failure = error
  })
  return {
    write: (lines) =>
      new Promise((resolve, reject) => {
        if (failure) return reject(failure)
        stream.write(`${lines.join('\n')}\n`, (error) => (error ? reject(error) : resolve()))
      }),
  }
}

/** The audit sink: JSON lines on stdout or appended to a file, the database table, or none. */
async function auditSink(config: Config): Promise<AuditSink | 'database' | 'none'> {
  const { auditSink: kind, auditFile } = config.log
  if (kind === 'database' || kind === 'none') return kind
  if (kind === 'stdout') return streamSink(process.stdout)
  await mkdir(dirname(auditFile), { recursive: true })
  return streamSink(createWriteStream(auditFile, { flags: 'a', mode: 0o600 }))
}

function loggerOptions(config: Config) {
  const labels = {
    customer_identifier: config.log.customerIdentifier || undefined,
    customer_env: config.log.customerEnv || undefined,
    customer_region: config.log.customerRegion || undefined,
  }
  return {
    level: config.log.level,
    base: labels,
    // STYLE §9: never log credentials or values, whatever path they take.
    redact: {
      paths: [
        'req.headers.authorization',
        '*.value',
        '*.values',
        '*.properties',
        '*.plaintext',
        '*.token',
        '*.key',
      ],
      censor: '[redacted]',
    },
    stream: config.log.destination === 'stderr' ? process.stderr : process.stdout,
  }
}

/** `iam.toml` in the configuration directory (config.md §5), or undefined when there is none. */
async function readIamFile(config: Config): Promise<IamFile | undefined> {
  const path = join(config.configDir, 'iam.toml')
  try {
    return { path, text: await readFile(path, 'utf8') }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return undefined
    throw new StartupError(`${path}: cannot be read (${code ?? 'unknown error'}).`)
  }
}

/** Installs the IAM configuration at start; one that cannot be used stops the start. */
async function initializeIam(services: Services, config: Config, store: Store): Promise<void> {
  try {
    await services.iam.initialize(await readIamFile(config))
  } catch (error) {
    await store.close()
    throw isVaultError(error) ? new StartupError(error.message) : error
  }
}

async function vaultId(store: Store, now: number): Promise<string> {
  const existing = await store.meta.get('vault_id')
  if (existing) return existing
  await store.meta.set('vault_id', randomUUID(), now)
  return (await store.meta.get('vault_id')) as string
}

export async function createApp(configured: Config, options: AppOptions = {}): Promise<App> {
  const clock = options.clock ?? systemClock
  const { config, newAdminKey } = await applyGeneratedSecrets(configured)
  const tls = await tlsMaterial(config)
  let server: FastifyInstance | undefined
  let isTracingSql = config.db.traceSql
  const kms = createKms(config.kms.uri, config.kms.seed, 'SVC_KMS')
  const { exportUri, exportSeed } = config.kms
  const exportKms =
    exportUri || exportSeed ? createKms(exportUri, exportSeed, 'SVC_KMS_EXPORT') : undefined
  const store = await openStore(config, (sql, ms) => {
    if (isTracingSql) server?.log.info({ sql, ms: Math.round(ms * 100) / 100 }, 'sql')
  })
  const services = createServices({
    store,
    clock,
    auditSink: await auditSink(config),
    kms,
    exportKms,
    applyConfvars(values) {
      const level = values.get('log_level')
      if (server && level && !options.isLogSilent) server.log.level = level
      isTracingSql = values.get('trace_sql') === 'true'
    },
    settings: coreSettings(config, {
      workerId: randomUUID(),
      version: VERSION,
      vaultId: await vaultId(store, clock()),
    }),
    onJobError(job, error) {
      server?.log.error({ err: error, job }, 'background job failed')
    },
  })
  server = buildServer(services, {
    logger: { ...loggerOptions(config), level: options.isLogSilent ? 'silent' : config.log.level },
    bodyLimitBytes: config.service.bodyLimitBytes,
    timeoutMs: config.service.timeoutMs,
    allowOrigins: config.service.allowOrigins,
    components: config.service.components,
    errorUrlBase: config.service.errorUrlBase,
    useXff: config.log.auditRemoteAddrXff,
    isDocsEnabled: !config.features.disableDocs,
    version: VERSION,
    tls,
  })
  const app = server
  await initializeIam(services, config, store)
  await services.cache.start()
  services.jobs.start()
  // In-memory mode refuses rotation, so there is never anything to re-encrypt.
  if (!store.isMemory) services.reencryption.start()
  return {
    config,
    newAdminKey,
    server: app,
    services,
    store,
    async listen() {
      const address = await app.listen({ host: config.service.host, port: config.service.port })
      warmCompilersLater()
      return tls ? address.replace(/^http:/, 'https:') : address
    },
    async close() {
      await app.close()
      await services.jobs.stop()
      await services.sealThread.stop()
      await services.reencryption.stop()
      await services.cache.stop()
      await store.close()
    },
  }
}

/**
 * Runs until SIGTERM or SIGINT, then shuts down gracefully: stop accepting connections, finish
 * in-flight requests, close the database. A second signal exits at once.
 */
export function closeOnSignals(app: App, onClosed: (error?: unknown) => void): void {
  let isClosing = false
  const shutdown = (signal: NodeJS.Signals) => {
    if (isClosing) process.exit(1)
    isClosing = true
    app.server.log.info({ signal }, 'shutting down')
    app.close().then(() => onClosed(), onClosed)
  }
  process.once('SIGTERM', shutdown)
  process.once('SIGINT', shutdown)
}

/** `strongroom migrate`: brings the configured database to the latest schema version. */
export async function runMigrations(
  config: Config,
): Promise<{ applied: number[]; version: number }> {
  if (config.database.kind === 'none')
    throw new StartupError('Stateless mode has no database to migrate.')
  const database = openDatabase(config.database)
  try {
    const applied = await migrate(database.db, database.dialect, config.migration)
    return { applied, version: await createSqlStore(database).schemaVersion() }
  } finally {
    await database.db.destroy()
  }
}

function describeStore(config: Config): string {
  const { database } = config
  if (database.kind === 'postgres') {
    return `PostgreSQL ${database.user}@${database.host}:${database.port}/${database.database}`
  }
  if (database.kind === 'sqlite') {
    return database.file === ':memory:'
      ? 'SQLite in memory (in-memory mode)'
      : `SQLite ${database.file}`
  }
  return 'none (stateless)'
}

/** The start-up banner: where the node listens, which store it uses, and the dev Admin key. */
export function describeStartup(app: App, address: string): string[] {
  const { config } = app
  const lines = [`Strongroom ${VERSION} listening on ${address}`, `Store: ${describeStore(config)}`]
  if (app.newAdminKey)
    lines.push(
      `Generated Admin API key (shown once, kept in the data directory): ${app.newAdminKey}`,
    )
  if (config.devmode) lines.push(`Dev mode: the Admin API key is ${config.service.adminApiKey}`)
  else if (config.service.adminApiKeyIsDefault) {
    lines.push(
      'Warning: the Admin API key is the default one; set SVC_SERVICE_ADMIN_API_KEY in server mode.',
    )
  }
  return lines
}
