// src/app-telemetry.ts: metrics and traces for the composition root; each is loaded only when configured
import type { FastifyInstance } from 'fastify'
import type { Logger } from 'pino'
import type { Config } from './config.ts'
import type { AuditSinkEntry } from './core/audit/audit.ts'
import type { AuditRepo } from './core/audit/store.ts'
import type { Kms } from './core/crypto/kms.ts'
import type { Services } from './core/services.ts'
import type { Repos, Store } from './core/store.ts'
import { buildMetricsServer, type MetricsEndpoint } from './http/metrics.ts'
import type { RequestObserver } from './http/server.ts'
import type { PoolStats, QueryObserver } from './storage/dialects/dialect.ts'
import type { Metrics } from './telemetry/metrics.ts'
import type { Tracing } from './telemetry/tracing.ts'

type AuditWrite = (records: number, isWritten: boolean) => void

/** Counts the records an audit writer is handed and whether the write succeeded. */
async function counted(write: () => Promise<void>, records: number, count: AuditWrite) {
  try {
    await write()
    count(records, true)
  } catch (error) {
    count(records, false)
    throw error
  }
}

function countedAuditRepo(repo: AuditRepo, count: AuditWrite): AuditRepo {
  return { ...repo, insert: (rows) => counted(() => repo.insert(rows), rows.length, count) }
}

/**
 * The database audit sink writes through `store.audit` and through each transaction's `audit`:
 * both are counted. Transactions get a proxy that swaps only that one repository.
 */
function countedStore(store: Store, count: AuditWrite): Store {
  const swap = (tx: Repos): Repos =>
    new Proxy(tx, {
      get: (target, name) =>
        name === 'audit'
          ? countedAuditRepo(target.audit, count)
          : Reflect.get(target, name, target),
    })
  return {
    ...store,
    audit: countedAuditRepo(store.audit, count),
    transaction: (work, options) => store.transaction((tx) => work(swap(tx)), options),
  }
}

/** The metrics (SVC_METRICS_*) and traces (OTEL_*) of one node, or nothing for either. */
export async function createTelemetry(config: Config, logger: Logger, version: string) {
  const isMetricsOn = config.metrics.listen !== undefined || config.metrics.token !== ''
  let sources: { services: Services; store: Store; poolStats?: () => PoolStats | undefined }
  const metrics: Metrics | undefined = isMetricsOn
    ? (await import('./telemetry/metrics.ts')).createMetrics({
        poolStats: () => sources?.poolStats?.(),
        reencryption: async () => sources?.services.reencryption.state(),
        substringQueue: async () => (sources ? sources.store.substring.countPending() : 0),
      })
    : undefined
  const tracing: Tracing | undefined = config.tracing.url
    ? (await import('./telemetry/tracing.ts')).createTracing({
        ...config.tracing,
        version,
        database: config.database.kind === 'postgres' ? 'postgresql' : 'sqlite',
      })
    : undefined
  const endpoint: MetricsEndpoint | undefined = metrics && {
    render: metrics.render,
    token: config.metrics.token,
  }
  let listener: FastifyInstance | undefined

  const observer: RequestObserver | undefined =
    metrics || tracing
      ? {
          wrapListener: tracing?.wrapListener,
          onResponse(raw, call) {
            metrics?.request(call.operation, call.status, call.seconds)
            tracing?.finishCall(raw, call)
          },
        }
      : undefined
  const onQuery: QueryObserver | undefined =
    metrics || tracing
      ? (sql, ms, _parameters, error) => {
          if (error !== undefined) metrics?.statementFailed()
          tracing?.statement(sql, ms, error)
        }
      : undefined

  return {
    observer,
    onQuery,
    /** /metrics on the main port: only behind a token (an open one belongs on its own listener). */
    mainPortMetrics: config.metrics.token ? endpoint : undefined,
    wrapKms(kms: Kms): Kms {
      if (tracing === undefined) return kms
      const attributes = { 'strongroom.kms.type': kms.type }
      return {
        type: kms.type,
        wrap: (key, context) =>
          tracing.inSpan('kms.wrap', attributes, () => kms.wrap(key, context)),
        unwrap: (wrapped, context) =>
          tracing.inSpan('kms.unwrap', attributes, () => kms.unwrap(wrapped, context)),
      }
    },
    /** A line sink whose writes are counted when metrics are on. */
    wrapAuditSink(entry: AuditSinkEntry): AuditSinkEntry {
      const { name, sink } = entry
      if (metrics === undefined || sink === 'database') return entry
      const count: AuditWrite = (records, ok) => metrics.auditWrite(name, records, ok)
      return {
        name,
        sink: { ...sink, write: (lines) => counted(() => sink.write(lines), lines.length, count) },
      }
    },
    /** Counts a sink failure: a write that failed, or a record not confirmed in time. */
    auditFailed(sink: string, reason: 'error' | 'timeout'): void {
      metrics?.auditSinkFailure(sink, reason)
    },
    /** The store the services use: counts database audit writes when metrics are on. */
    wrapStore(store: Store): Store {
      if (metrics === undefined || !config.log.auditSinks.includes('database')) return store
      return countedStore(store, (records, ok) => metrics.auditWrite('database', records, ok))
    },
    attach(running: typeof sources): void {
      sources = running
    },
    /** Starts the separate metrics listener, if one is configured; resolves to its address. */
    async listen(): Promise<string | undefined> {
      const { listen } = config.metrics
      if (endpoint === undefined || listen === undefined) return undefined
      listener = buildMetricsServer(endpoint, logger)
      return listener.listen({ host: listen.host, port: listen.port })
    },
    async close(): Promise<void> {
      await listener?.close()
      metrics?.close()
      // A collector that is down must not fail the shutdown: its spans are lost, and said so.
      await tracing
        ?.close()
        .catch((error: unknown) => logger.warn({ err: error }, 'spans could not be exported'))
    },
  }
}

export type Telemetry = Awaited<ReturnType<typeof createTelemetry>>
