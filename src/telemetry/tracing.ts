// src/telemetry/tracing.ts: OpenTelemetry spans exported over OTLP/HTTP; loaded only when an endpoint is set
import { AsyncLocalStorage } from 'node:async_hooks'
import type { IncomingMessage, RequestListener } from 'node:http'
import {
  type Attributes,
  type Context,
  defaultTextMapGetter,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api'
import { W3CTraceContextPropagator } from '@opentelemetry/core'
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { resourceFromAttributes } from '@opentelemetry/resources'
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  type Sampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from '@opentelemetry/sdk-trace'

export type TracingOptions = Readonly<{
  url: string
  headers: Readonly<Record<string, string>>
  serviceName: string
  /** The OTEL_TRACES_SAMPLER names. */
  sampler: string
  samplerRatio: number
  version: string
  /** `sqlite` or `postgresql` (the semantic conventions' db.system.name). */
  database: string
}>

/** What the composition root reports to the tracer: names and timings, never values. */
export type FinishedCall = Readonly<{
  operation: string
  method: string
  route: string
  status: number
  requestId: string
}>

/**
 * Spans: one SERVER span per HTTP call (named `METHOD /route/pattern`), a CLIENT span per database
 * statement (its text has placeholders; parameter values are never recorded) and per KMS call.
 * Other adapters (the sandbox) use `inSpan`. The request's span travels in an AsyncLocalStorage of
 * this module, not OpenTelemetry's global context, so nothing else in the process is affected.
 */
/** The sampler OTEL_TRACES_SAMPLER names; a call that is not sampled costs almost nothing. */
function samplerOf(name: string, ratio: number): Sampler {
  const root = name.endsWith('always_off')
    ? new AlwaysOffSampler()
    : name.endsWith('traceidratio')
      ? new TraceIdRatioBasedSampler(ratio)
      : new AlwaysOnSampler()
  return name.startsWith('parentbased_') ? new ParentBasedSampler({ root }) : root
}

export function createTracing(options: TracingOptions) {
  const provider = new TracerProvider({
    sampler: samplerOf(options.sampler, options.samplerRatio),
    resource: resourceFromAttributes({
      'service.name': options.serviceName,
      'service.version': options.version,
    }),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: new OTLPTraceExporter({ url: options.url, headers: { ...options.headers } }),
      }),
    ],
  })
  const tracer = provider.getTracer('strongroom', options.version)
  const propagator = new W3CTraceContextPropagator()
  const current = new AsyncLocalStorage<Context>()
  const spans = new WeakMap<IncomingMessage, Span>()
  const active = () => current.getStore() ?? ROOT_CONTEXT

  /** Runs `work` inside a span, child of the current call's span; ends it however `work` ends. */
  async function inSpan<T>(
    name: string,
    attributes: Attributes,
    work: () => Promise<T>,
  ): Promise<T> {
    const span = tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes }, active())
    try {
      return await current.run(trace.setSpan(active(), span), work)
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error)?.name ?? 'Error' })
      throw error
    } finally {
      span.end()
    }
  }

  return {
    inSpan,
    /** Starts the call's span (continuing a W3C `traceparent` if the caller sent one). */
    wrapListener(listener: RequestListener): RequestListener {
      return (req, res) => {
        const parent = propagator.extract(ROOT_CONTEXT, req.headers, defaultTextMapGetter)
        const span = tracer.startSpan(
          `${req.method ?? 'HTTP'}`,
          { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method ?? '' } },
          parent,
        )
        spans.set(req, span)
        // A connection closed before any response still ends the span.
        res.once('close', () => span.end())
        current.run(trace.setSpan(parent, span), () => listener(req, res))
      }
    },
    /** Names the call's span after its route and records the outcome. */
    finishCall(req: IncomingMessage, call: FinishedCall): void {
      const span = spans.get(req)
      if (span === undefined) return
      span.updateName(call.route ? `${call.method} ${call.route}` : call.method)
      span.setAttributes({
        'http.route': call.route,
        'http.response.status_code': call.status,
        'strongroom.operation': call.operation,
        'strongroom.request_id': call.requestId,
      })
      if (call.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR })
    },
    /** A statement that already ran: its span is placed where it started, under the call's span. */
    statement(sql: string, durationMs: number, error?: unknown): void {
      const end = Date.now()
      const span = tracer.startSpan(
        sql
          .replace(/^\/\*.*?\*\/\s*/, '')
          .split(/\s/, 1)[0]
          ?.toUpperCase() || 'SQL',
        {
          kind: SpanKind.CLIENT,
          startTime: end - durationMs,
          attributes: { 'db.system.name': options.database, 'db.query.text': sql },
        },
        active(),
      )
      if (error !== undefined) span.setStatus({ code: SpanStatusCode.ERROR })
      span.end(end)
    },
    /** Flushes spans still queued, then stops exporting. */
    close: () => provider.shutdown(),
  }
}

export type Tracing = ReturnType<typeof createTracing>
