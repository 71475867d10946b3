// src/app.ts: composition root: opens the database, builds store, services and server, starts and stops them
import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import type { Logger } from 'pino'
import { auditSinks } from './app-audit.ts'
import { createLogger, startupLogger } from './app-logger.ts'
import { createIdleRelease } from './app-memory.ts'
import { coreSettings } from './app-settings.ts'
import { applyGeneratedSecrets, tlsMaterial } from './app-setup.ts'
import { loadStatelessFiles, openStateless } from './app-stateless.ts'
import { createTelemetry } from './app-telemetry.ts'
import { readTypesFile } from './app-types-file.ts'
import type { Config } from './config.ts'
import { createLocalKms, type Kms } from './core/crypto/kms.ts'
import { applyTypesFile } from './core/data-types/types-file.ts'
import { isVaultError } from './core/errors.ts'
import type { IamFile } from './core/iam/iam.ts'
import { createServices, type Services } from './core/services.ts'
import type { Store } from './core/store.ts'
import { type Clock, systemClock } from './core/time.ts'
import { warmCompilersLater } from './http/compilers.ts'
import { buildServer } from './http/server.ts'
import { createOutbound } from './sandbox/outbound.ts'
import { createQuickJsSandbox } from './sandbox/quickjs-sandbox.ts'
import { DatabaseUnreachable, waitForDatabase } from './storage/connect.ts'
import { openDatabase } from './storage/database.ts'
import type { OpenDatabase, QueryObserver } from './storage/dialects/dialect.ts'
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
  /** The service's logger; the server's request loggers are its children. */
  readonly logger: Logger
  readonly services: Services
  readonly store: Store
  /** Starts listening; resolves to the address actually bound (port 0 picks a free port). */
  listen(): Promise<string>
  /** Where the separate metrics listener (SVC_METRICS_LISTEN_ADDR) listens, once it does. */
  readonly metricsAddress: string | undefined
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

async function openStore(
  config: Config,
  onQuery: QueryObserver,
  logger: Logger,
  stateless: Readonly<{ kms: Kms; clock: Clock }>,
): Promise<
  { store: Store; seal?: () => void } & Pick<OpenDatabase, 'poolStats' | 'releaseMemory'>
> {
  if (config.database.kind === 'none') {
    const { store, seal } = await openStateless(stateless.kms, stateless.clock, onQuery)
    return { store, seal }
  }
  const warn = (line: string) => logger.warn(line)
  const database = openDatabase(config.database, { onQuery, onWarning: warn })
  try {
    await reachDatabase(database.db, config, warn, (line) => logger.info(line))
    if (config.migration.autoRun || database.isMemory)
      await migrate(database.db, database.dialect, config.migration)
  } catch (error) {
    await database.db.destroy()
    throw error
  }
  return { ...database, store: createSqlStore(database) }
}

/**
 * PostgreSQL: says where it connects, waits for the server with a visible message per retry, and
 * gives up after SVC_DB_CONNECT_TIMEOUT naming host, port, user, database and the cause.
 */
export async function reachDatabase(
  db: OpenDatabase['db'],
  config: Config,
  onRetry: (line: string) => void,
  onConnecting: (line: string) => void,
): Promise<void> {
  const { database } = config
  if (database.kind !== 'postgres') return
  const where = `PostgreSQL at ${database.host}:${database.port} (user ${database.user}, database ${database.database})`
  onConnecting(`Connecting to ${where}`)
  try {
    await waitForDatabase(db, {
      description: where,
      timeoutMs: config.db.connectTimeoutMs,
      onRetry,
    })
  } catch (error) {
    if (!(error instanceof DatabaseUnreachable)) throw error
    throw new StartupError(
      `${error.message}. Set SVC_DB_HOSTNAME, SVC_DB_PORT, SVC_DB_USER, SVC_DB_PASSWORD and SVC_DB_NAME (defaults localhost, 5432, pvault, pvault, pvault); SVC_DB_CONNECT_TIMEOUT waits longer (default 15s).`,
    )
  }
}

function serviceLogger(config: Config, isSilent: boolean): Promise<Logger> {
  return createLogger({
    level: isSilent ? 'silent' : config.log.level,
    format: config.log.format,
    destination: config.log.destination,
    labels: {
      customer_identifier: config.log.customerIdentifier || undefined,
      customer_env: config.log.customerEnv || undefined,
      customer_region: config.log.customerRegion || undefined,
    },
  })
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

/** Custom types and bundles of the configuration directory; a file that is refused stops the start. */
async function initializeTypes(services: Services, config: Config, store: Store): Promise<void> {
  try {
    const file = await readTypesFile(config)
    if (file === undefined) return
    const deps = {
      store,
      bundles: services.bundles,
      dataTypes: services.dataTypes,
      isReloadedOnStart: services.settings.code.reloadTypesFileOnStart,
    }
    await applyTypesFile(deps, file, services.clock)
  } catch (error) {
    await store.close()
    if (isVaultError(error)) throw new StartupError(error.message)
    const code = (error as NodeJS.ErrnoException).code
    if (code !== undefined) throw new StartupError(`The types file cannot be read (${code}).`)
    throw error
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
  const logger = await serviceLogger(config, options.isLogSilent === true)
  // Start-up lines are written whatever SVC_LOG_LEVEL says, unless a test silenced the log.
  const startup = options.isLogSilent ? logger : startupLogger(logger)
  // Ignored values of compatibility-only settings: said once, never a failed start.
  for (const warning of config.warnings) startup.warn(warning)
  const telemetry = await createTelemetry(config, logger, VERSION)
  let server: FastifyInstance | undefined
  let isTracingSql = config.db.traceSql
  const rawKms = createKms(config.kms.uri, config.kms.seed, 'SVC_KMS')
  const kms = telemetry.wrapKms(rawKms)
  const { exportUri, exportSeed } = config.kms
  const exportKms =
    exportUri || exportSeed
      ? telemetry.wrapKms(createKms(exportUri, exportSeed, 'SVC_KMS_EXPORT'))
      : undefined
  const onQuery: QueryObserver = (sql, ms, parameters, error) => {
    if (isTracingSql) server?.log.info({ sql, ms: Math.round(ms * 100) / 100 }, 'sql')
    telemetry.onQuery?.(sql, ms, parameters, error)
  }
  const { store, poolStats, seal, releaseMemory } = await openStore(config, onQuery, startup, {
    kms: rawKms,
    clock,
  })
  const outbound = createOutbound()
  // Worker threads start on the first call of bundle code, not here (cold start stays the same).
  const sandbox = createQuickJsSandbox({
    ...config.sandbox,
    maxWorkers: config.sandbox.workers,
    outbound,
    fetchDestinations: config.service.allowedPciHttpDestinations,
    log: ({ bundle, text }) => server?.log.debug({ bundle }, `bundle: ${text}`),
  })
  const sinks = auditSinks(config, logger)
  const services = createServices({
    store: telemetry.wrapStore(store),
    clock,
    sandbox,
    outbound,
    auditSinks: sinks.entries.map(telemetry.wrapAuditSink),
    onAuditFailure({ sink, reason, error }) {
      telemetry.auditFailed(sink, reason)
      logger.error(
        { err: error, sink },
        reason === 'timeout'
          ? `audit sink ${sink} did not confirm a record in time; the call failed with 503`
          : `audit sink ${sink} could not write; the calls of the batch failed with 503`,
      )
    },
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
    logger,
    bodyLimitBytes: config.service.bodyLimitBytes,
    timeoutMs: config.service.timeoutMs,
    allowOrigins: config.service.allowOrigins,
    components: config.service.components,
    errorStyle: {
      codePrefix: config.service.errorCodePrefix,
      urlBase: config.service.errorUrlBase,
    },
    useXff: config.log.auditRemoteAddrXff,
    isDocsEnabled: !config.features.disableDocs,
    version: VERSION,
    tls,
    metrics: telemetry.mainPortMetrics,
    observer: telemetry.observer,
  })
  telemetry.attach({ services, store, poolStats })
  const app = server
  let metricsAddress: string | undefined
  // A stateless node's store comes from its files and is sealed: it has no jobs to run.
  if (seal) await loadStatelessFiles(services, config, { store, seal }, clock)
  else await initializeIam(services, config, store)
  await services.cache.start()
  if (!seal) {
    await initializeTypes(services, config, store)
    services.jobs.start()
  }
  // In-memory mode refuses rotation, so there is never anything to re-encrypt.
  if (!store.isMemory && !seal) services.reencryption.start()
  const idleRelease = createIdleRelease({ releaseDatabase: releaseMemory })
  return {
    config,
    newAdminKey,
    server: app,
    logger,
    services,
    store,
    async listen() {
      const address = await app.listen({ host: config.service.host, port: config.service.port })
      metricsAddress = await telemetry.listen()
      warmCompilersLater()
      // A node that has bundles starts a sandbox worker once it serves, so the first call of
      // their code does not wait for one.
      if (services.bundles.registry.count() > 0) sandbox.warm()
      return tls ? address.replace(/^http:/, 'https:') : address
    },
    get metricsAddress() {
      return metricsAddress
    },
    async close() {
      await app.close()
      idleRelease.stop()
      await services.jobs.stop()
      await services.sealThread.stop()
      await services.reencryption.stop()
      await services.cache.stop()
      await sandbox.close()
      await store.close()
      await sinks.close()
      // Last: spans of the work stopped above are flushed too.
      await telemetry.close()
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
  say: (line: string) => void = () => {},
): Promise<{ applied: number[]; version: number }> {
  if (config.database.kind === 'none')
    throw new StartupError('Stateless mode has no database to migrate.')
  const database = openDatabase(config.database)
  try {
    await reachDatabase(database.db, config, say, say)
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

/** Writes the start-up banner through the logger, one JSON object per line (see app-logger.ts). */
export function logStartup(app: App, address: string): void {
  const log = startupLogger(app.logger)
  const [listening, ...rest] = describeStartup(app, address)
  log.info({ address, version: VERSION }, listening)
  for (const line of rest) log.info(line)
}

/** The start-up banner: where the node listens, which store it uses, and the dev Admin key. */
export function describeStartup(app: App, address: string): string[] {
  const { config } = app
  const lines = [`Strongroom ${VERSION} listening on ${address}`, `Store: ${describeStore(config)}`]
  if (app.newAdminKey)
    lines.push(
      `Generated Admin API key (shown once, kept in the data directory): ${app.newAdminKey}`,
    )
  if (app.metricsAddress) lines.push(`Metrics: ${app.metricsAddress}/metrics`)
  if (config.devmode) lines.push(`Dev mode: the Admin API key is ${config.service.adminApiKey}`)
  else if (config.service.adminApiKeyIsDefault) {
    lines.push(
      'Warning: the Admin API key is the default one; set SVC_SERVICE_ADMIN_API_KEY in server mode.',
    )
  }
  return lines
}
