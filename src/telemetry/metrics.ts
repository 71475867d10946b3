// src/telemetry/metrics.ts: the Prometheus metrics of a node (prom-client), fed by callbacks; loaded only when served
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client'

/** Re-encryption progress as the job records it (core/crypto-api/rotation-state.ts). */
export type ReencryptionProgress = Readonly<{
  pass: number
  scanned: number
  reencrypted: number
  conflicts: number
  failures: number
  finishedAt: number | undefined
}>

/** What the metrics read when scraped; each may fail (database down) without failing the scrape. */
export type MetricsSources = Readonly<{
  poolStats: () => { total: number; idle: number; waiting: number } | undefined
  reencryption: () => Promise<ReencryptionProgress | undefined>
  substringQueue: () => Promise<number>
}>

/** Seconds; from a cached key lookup (~1 ms) to a bulk call near the 30 s timeout. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]

/**
 * Labels are operation IDs, statuses, sink kinds and outcomes: a bounded set that never holds a
 * value, an ID, a key or a token.
 */
export function createMetrics(sources: MetricsSources) {
  const registry = new Registry()
  // Event-loop delay (nodejs_eventloop_lag_*), GC (nodejs_gc_duration_seconds), heap, CPU, handles.
  collectDefaultMetrics({ register: registry })
  const registers = [registry]

  const requests = new Counter({
    name: 'strongroom_http_requests_total',
    help: 'Answered HTTP requests by operation ID and status code.',
    labelNames: ['operation', 'status'] as const,
    registers,
  })
  const latency = new Histogram({
    name: 'strongroom_http_request_duration_seconds',
    help: 'Time from request to response by operation ID.',
    labelNames: ['operation'] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  })
  const statementErrors = new Counter({
    name: 'strongroom_db_statement_errors_total',
    help: 'Database statements that failed (constraint violations the service expects included).',
    registers,
  })
  const auditRecords = new Counter({
    name: 'strongroom_audit_records_total',
    help: 'Audit records handed to a sink, by sink and outcome (written or failed).',
    labelNames: ['sink', 'outcome'] as const,
    registers,
  })
  const auditFailures = new Counter({
    name: 'strongroom_audit_sink_failures_total',
    help: 'Audit sink failures by sink and reason: a write that failed (error) or a record not confirmed within SVC_LOG_AUDIT_TIMEOUT (timeout).',
    labelNames: ['sink', 'reason'] as const,
    registers,
  })
  new Gauge({
    name: 'strongroom_db_pool_connections',
    help: 'Connections of the PostgreSQL pool by state (absent on SQLite).',
    labelNames: ['state'] as const,
    registers,
    collect() {
      const stats = sources.poolStats()
      if (stats === undefined) return
      this.set({ state: 'total' }, stats.total)
      this.set({ state: 'idle' }, stats.idle)
      this.set({ state: 'waiting' }, stats.waiting)
    },
  })
  new Gauge({
    name: 'strongroom_substring_index_queue_objects',
    help: 'Objects queued for the substring index (an object queued by two writes counts twice).',
    registers,
    async collect() {
      await sources.substringQueue().then(
        (count) => this.set(count),
        () => this.reset(),
      )
    },
  })
  new Gauge({
    name: 'strongroom_reencryption_running',
    help: '1 while stored data is being re-encrypted to the newest keys, else 0.',
    registers,
    async collect() {
      const state = await sources.reencryption().catch(() => undefined)
      this.set(state !== undefined && state.finishedAt === undefined ? 1 : 0)
      if (state === undefined) return progress.reset()
      progress.set({ kind: 'scanned' }, state.scanned)
      progress.set({ kind: 'reencrypted' }, state.reencrypted)
      progress.set({ kind: 'conflicts' }, state.conflicts)
      progress.set({ kind: 'failures' }, state.failures)
      progress.set({ kind: 'pass' }, state.pass)
    },
  })
  // Registered after the gauge above, whose collect sets it: scrapes read metrics in order.
  const progress = new Gauge({
    name: 'strongroom_reencryption_items',
    help: 'Items of the current re-encryption run after a key rotation, by kind.',
    labelNames: ['kind'] as const,
    registers,
  })

  return {
    /** One answered request. */
    request(operation: string, status: number, seconds: number): void {
      requests.inc({ operation, status: String(status) })
      latency.observe({ operation }, seconds)
    },
    statementFailed(): void {
      statementErrors.inc()
    },
    auditWrite(sink: string, records: number, isWritten: boolean): void {
      auditRecords.inc({ sink, outcome: isWritten ? 'written' : 'failed' }, records)
    },
    auditSinkFailure(sink: string, reason: 'error' | 'timeout'): void {
      auditFailures.inc({ sink, reason })
    },
    /** The text exposition format (gauges read their sources now). */
    async render(): Promise<{ contentType: string; body: string }> {
      return { contentType: registry.contentType, body: await registry.metrics() }
    },
    close(): void {
      registry.clear()
    },
  }
}

export type Metrics = ReturnType<typeof createMetrics>
