// src/http/server.ts: buildServer(services, options) → the Fastify instance with every route

import { randomUUID } from 'node:crypto'
import type { IncomingMessage, RequestListener } from 'node:http'
import type { Duplex } from 'node:stream'
import cors from '@fastify/cors'
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
  type RouteHandlerMethod,
} from 'fastify'
import { ERRORS } from '../contract/errors.ts'
import { VaultError } from '../core/errors.ts'
import { type Operation, WRITE_OPERATIONS } from '../core/iam/operations.ts'
import type { Services } from '../core/services.ts'
import { detailsOf, unwrapAudited } from './audited.ts'
import { authenticateRequest, isPublic } from './auth.ts'
import { lazyCompilers } from './compilers.ts'
import { type ErrorStyle, styleErrorBody, toErrorResponse } from './errors.ts'
import { registerJsonBodyParser } from './json-body.ts'
import { type MetricsEndpoint, registerMetrics } from './metrics.ts'
import { registerOpenApi } from './openapi.ts'
import { parseQuery } from './query.ts'
import { actionsRoutes } from './routes/actions.ts'
import { analysisRoutes } from './routes/analysis.ts'
import { bundlesRoutes } from './routes/bundles.ts'
import { collectionsRoutes } from './routes/collections.ts'
import { cryptoRoutes } from './routes/crypto-api.ts'
import { dataTypesRoutes } from './routes/data-types.ts'
import { iamRoutes } from './routes/iam.ts'
import { keysRoutes } from './routes/keys.ts'
import { objectsRoutes } from './routes/objects.ts'
import { systemRoutes } from './routes/system.ts'
import { systemAdminRoutes } from './routes/system-admin.ts'
import { tokensRoutes } from './routes/tokens.ts'
import type { RoutesPlugin } from './routes/types.ts'

// `import … from 'node:http'` would build its ES module namespace, which reads every export,
// including the lazy ones that load undici (~45 ms of every start); Fastify needs none of them.
const { createServer } = process.getBuiltinModule('node:http')
const { createServer: createHttpsServer } = process.getBuiltinModule('node:https')

export type ServerOptions = Readonly<{
  /** The service's logger (app-logger.ts); requests log through its children, with `reqId`. */
  logger: FastifyBaseLogger
  bodyLimitBytes: number
  timeoutMs: number
  allowOrigins: readonly string[]
  components: readonly ('data' | 'control')[]
  /** How error bodies name their codes (`ERRnnnn` or another prefix) and link them. */
  errorStyle: ErrorStyle
  useXff: boolean
  /** Serve the OpenAPI document at /openapi.json (off with SVC_FEATURES_DISABLE_DOCS). */
  isDocsEnabled: boolean
  version: string
  /** PEM key and certificate: serve HTTPS instead of HTTP. */
  tls?: Readonly<{ key: string; cert: string }>
  /** GET /metrics on this port (only when a metrics token is configured). */
  metrics?: MetricsEndpoint
  /** Metrics and traces watch every call through these; absent when neither is on. */
  observer?: RequestObserver
}>

/** One answered call, as metrics and traces see it: names and numbers, never values. */
export type AnsweredCall = Readonly<{
  /** The route's operationId; its URL pattern for undocumented routes; `unmatched` for 404s. */
  operation: string
  method: string
  route: string
  status: number
  seconds: number
  requestId: string
}>

export type RequestObserver = Readonly<{
  /** Wraps Node's request listener: a trace span around the whole call. */
  wrapListener?: (listener: RequestListener) => RequestListener
  /** Called once per answered call, after its response is sent. */
  onResponse?: (raw: IncomingMessage, call: AnsweredCall) => void
}>

/** Path params may hold token IDs (≤ 128) and transaction IDs; Fastify's default cap is 100. */
const MAX_PARAM_LENGTH = 2048
/** `ids` may list 1000 UUIDs, so URLs up to 64 KiB are served; longer ones get 414. */
const MAX_URL_LENGTH = 65_536

const ROUTES: readonly RoutesPlugin[] = [
  systemRoutes,
  iamRoutes,
  collectionsRoutes,
  dataTypesRoutes,
  objectsRoutes,
  systemAdminRoutes,
  cryptoRoutes,
  keysRoutes,
  tokensRoutes,
  bundlesRoutes,
  actionsRoutes,
  analysisRoutes,
]

const TEXT_TYPES = ['application/pvschema', 'application/xschema', 'application/toml', 'text/plain']

/** Log levels at which each request is logged (`info` and finer); 5xx are logged at any level. */
const LOGS_REQUESTS: ReadonlySet<string> = new Set(['info', 'debug', 'trace'])

/**
 * A client's X-Request-ID is used when it is 1 to 128 characters of letters, digits and
 * `- _ . : + / =` (UUIDs, ULIDs, hex and base64 trace ids); anything else is replaced by a new
 * UUID, so a log line or audit record never carries spaces, control characters or arbitrary size.
 */
const REQUEST_ID = /^[A-Za-z0-9._:+/=-]{1,128}$/

function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id']
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID()
}

type RoutePattern = { readonly method: string; readonly pattern: RegExp }

function toPattern(url: string): RegExp {
  const escaped = url.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z_]+/g, '[^/]+')
  return new RegExp(`^${escaped}/?$`)
}

/** An allowed CORS origin; one ending in `:*` allows any port (`http://localhost:*`). */
function originMatcher(origin: string): string | RegExp {
  if (!origin.endsWith(':*')) return origin
  const base = origin.slice(0, -2).replace(/[.+?^${}()|[\]\\/*]/g, '\\$&')
  return new RegExp(`^${base}(:\\d+)?$`)
}

/**
 * An operation that takes no body, called with an empty body and a content type (Python's
 * `requests` sessions send `Content-Type: application/json` on every call), is served as if no
 * content type was sent: there is nothing to parse.
 */
function ignoreEmptyBodyType(req: FastifyRequest, takesBody: boolean): void {
  const { headers } = req
  if (takesBody || headers['content-type'] === undefined) return
  const length = headers['content-length']
  const isEmpty =
    length === '0' || (length === undefined && headers['transfer-encoding'] === undefined)
  if (isEmpty) delete headers['content-type']
}

function family(url: string): 'data' | 'control' | 'system' {
  if (url.startsWith('/api/pvlt/1.0/data/')) return 'data'
  if (url.startsWith('/api/pvlt/1.0/ctl/')) return 'control'
  return 'system'
}

/** A CORS preflight names its origin and method; the CORS plugin's refusal is plain text. */
function preflightError(req: FastifyRequest): VaultError | undefined {
  if (req.headers.origin && req.headers['access-control-request-method']) return undefined
  return new VaultError('invalidRequest', {
    message:
      'A CORS preflight request (OPTIONS) needs the Origin and Access-Control-Request-Method headers.',
    context: { field: 'headers' },
  })
}

function abortedPromise(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason)
    signal.addEventListener('abort', () => reject(signal.reason), { once: true })
  })
}

/**
 * Errors Fastify raises before a route is found (malformed percent-encoding, an over-long path
 * parameter): the same body as every other error.
 */
function sendFrameworkError(options: ServerOptions) {
  return (error: unknown, req: FastifyRequest, reply: FastifyReply) => {
    const { status, body } = toErrorResponse(error, req.log)
    reply.header('x-request-id', req.id)
    return reply
      .code(status)
      .type('application/json; charset=utf-8')
      .send(styleErrorBody(body, options.errorStyle))
  }
}

/**
 * Requests Node's HTTP parser refuses (an unknown method, malformed or oversized headers): the
 * spec's error body, written on the socket, which is then closed.
 */
function sendClientError(
  error: Error & { code?: string },
  socket: Duplex,
  style: ErrorStyle,
): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return
  const [status, reason, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'The request headers are too large.']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'The request was not received in time.']
        : [400, 'Bad Request', 'The request is not valid HTTP/1.1: check its method and headers.']
  const body = JSON.stringify(
    styleErrorBody({ error_code: ERRORS.invalidRequest.code, message, context: {} }, style),
  )
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    )
  }
  socket.destroy()
}

/** How long an error answer caused by a timeout or an outage waits for its audit record. */
const OUTAGE_AUDIT_GRACE_MS = 1000

function withinGrace(work: Promise<unknown>): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined
  const grace = new Promise((resolve) => {
    timer = setTimeout(resolve, OUTAGE_AUDIT_GRACE_MS)
  })
  return Promise.race([work, grace]).finally(() => clearTimeout(timer))
}

function sendError(app: FastifyInstance, services: Services, options: ServerOptions) {
  return async (error: unknown, req: FastifyRequest, reply: FastifyReply) => {
    const { status, body } = toErrorResponse(error, req.log)
    if (req.ctx !== undefined && !isPublic(req)) {
      // The audit trail keeps the catalogue's ERRnnnn, whatever prefix clients see.
      const recorded = services.audit
        .record(req.ctx, detailsOf(error), { status, errorCode: body.error_code })
        .catch((auditError) =>
          app.log.error({ err: auditError }, 'audit record could not be written'),
        )
      // The audit trail itself failed: its failure record is written if the sink comes back,
      // but the answer does not wait a second SVC_LOG_AUDIT_TIMEOUT for it. After a timeout or a
      // database outage the record may hang on the same database: the answer waits for it a
      // bounded time (the record still completes or fails, and is logged).
      if (body.error_code !== ERRORS.auditUnavailable.code)
        await (status === 503 || req.ctx.signal.aborted ? withinGrace(recorded) : recorded)
    }
    return reply
      .code(status)
      .type('application/json; charset=utf-8')
      .send(styleErrorBody(body, options.errorStyle))
  }
}

/**
 * Wraps every handler: the call is abandoned with 503 ERR1009 when its time is up (its
 * transaction sees the aborted signal and rolls back). A successful read records its audit event
 * before the response leaves; if that record cannot be written the call fails (fail closed). A
 * write's service has recorded it already, in the transaction of its change.
 */
function wrapHandler(services: Services, handler: RouteHandlerMethod): RouteHandlerMethod {
  return async function wrapped(this: FastifyInstance, req, reply) {
    const work = Promise.resolve(handler.call(this, req, reply))
    work.catch(() => {})
    const returned = await Promise.race([work, abortedPromise(req.ctx.signal)])
    const { result, details } = unwrapAudited(returned)
    const operation = req.ctx.audit.operation as Operation
    if (!isPublic(req) && !WRITE_OPERATIONS.has(operation))
      await services.audit.record(req.ctx, details, { status: reply.statusCode })
    if (result === undefined && !reply.sent) return reply.send()
    return result
  }
}

export function buildServer(services: Services, options: ServerOptions): FastifyInstance {
  const app = Fastify({
    loggerInstance: options.logger,
    bodyLimit: options.bodyLimitBytes,
    genReqId: requestIdOf,
    requestIdHeader: false,
    routerOptions: {
      querystringParser: parseQuery,
      maxParamLength: MAX_PARAM_LENGTH,
      ignoreTrailingSlash: true,
    },
    logController: new LogController({ disableRequestLogging: true }),
    forceCloseConnections: 'idle',
    schemaController: { compilersFactory: lazyCompilers },
    frameworkErrors: sendFrameworkError(options),
    clientErrorHandler: (error, socket) => sendClientError(error, socket, options.errorStyle),
    serverFactory: (fastifyHandler) => {
      const handler = options.observer?.wrapListener?.(fastifyHandler) ?? fastifyHandler
      return options.tls
        ? createHttpsServer({ ...options.tls, maxHeaderSize: MAX_URL_LENGTH * 2 }, handler)
        : createServer({ maxHeaderSize: MAX_URL_LENGTH * 2 }, handler)
    },
  })
  registerJsonBodyParser(app)
  app.addContentTypeParser(TEXT_TYPES, { parseAs: 'string' }, (_req, body, done) =>
    done(null, body),
  )
  app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer' }, (_req, body, done) =>
    done(null, body),
  )

  const patterns: RoutePattern[] = []
  app.addHook('onRoute', (route) => {
    // CORS preflight answers OPTIONS on every path; it says nothing about which paths exist.
    if (!route.url.includes('*')) {
      for (const method of [route.method].flat())
        patterns.push({ method, pattern: toPattern(route.url) })
    }
    if (route.config?.operation !== undefined) route.handler = wrapHandler(services, route.handler)
  })

  if (options.allowOrigins.length > 0) {
    // Before the CORS plugin's own hook, whose refusal of a preflight is plain text.
    app.addHook('onRequest', (req, _reply, done) => {
      done(req.method === 'OPTIONS' ? preflightError(req) : undefined)
    })
    app.register(cors, {
      origin: options.allowOrigins.includes('*') ? '*' : options.allowOrigins.map(originMatcher),
    })
  }

  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id)
    if (req.url.length > MAX_URL_LENGTH) throw new VaultError('urlTooLong')
    const urlFamily = family(req.url)
    if (urlFamily !== 'system' && !options.components.includes(urlFamily))
      throw new VaultError('routeNotFound')
    // routeOptions builds a new object on every access: read it once.
    const { config, url, schema } = req.routeOptions
    ignoreEmptyBodyType(req, schema?.body !== undefined)
    if (config.operation === undefined) return
    const controller = new AbortController()
    if (!config.isTimeoutExempt) {
      const timer = setTimeout(() => controller.abort(new VaultError('timeout')), options.timeoutMs)
      reply.raw.once('close', () => clearTimeout(timer))
    }
    // Authentication reads the database too: a frozen one must not hold the call past its time.
    const authenticated = authenticateRequest(services, req, { config, url }, controller.signal, {
      useXff: options.useXff,
    })
    authenticated.catch(() => {})
    await Promise.race([authenticated, abortedPromise(controller.signal)])
  })

  // During shutdown, in-flight responses close their connection so keep-alive sockets do not hold
  // the process open until the client's idle timeout.
  let isClosing = false
  app.addHook('preClose', async () => {
    isClosing = true
  })
  // The per-request hooks below take `done` rather than returning a promise: each async hook
  // costs a promise and a microtask turn on every call.
  app.addHook('onSend', (_req, reply, payload, done) => {
    if (isClosing) reply.header('connection', 'close')
    done(null, payload)
  })

  const onAnswered = options.observer?.onResponse
  app.addHook('onResponse', (req, reply, done) => {
    const status = reply.statusCode
    const isLogged = status >= 500 || LOGS_REQUESTS.has(req.log.level)
    if (!isLogged && onAnswered === undefined) return done()
    // routeOptions builds a new object on every access: read it once.
    const { url: route = '', schema } = req.routeOptions
    if (isLogged) {
      const line = { method: req.method, route, status, ms: Math.round(reply.elapsedTime) }
      // A 4xx is the client's mistake, answered as designed: info. A 5xx is ours: error.
      if (status >= 500) req.log.error(line, 'request')
      else req.log.info(line, 'request')
    }
    onAnswered?.(req.raw, {
      operation: schema?.operationId ?? (route || 'unmatched'),
      method: req.method,
      route,
      status,
      seconds: reply.elapsedTime / 1000,
      requestId: req.id,
    })
    done()
  })

  app.setErrorHandler(sendError(app, services, options))

  app.setNotFoundHandler(async (req) => {
    const path = req.url.split('?')[0] ?? ''
    const known = patterns.some((route) => route.pattern.test(path))
    throw new VaultError(known ? 'methodNotAllowed' : 'routeNotFound', {
      message: known
        ? `The method ${req.method} is not allowed on ${path}.`
        : `The requested path ${path} does not exist.`,
      context: { method: req.method, path },
    })
  })

  if (options.isDocsEnabled) registerOpenApi(app, options.version)
  if (options.metrics) registerMetrics(app, options.metrics)
  for (const routes of ROUTES) app.register(routes, { services, errorStyle: options.errorStyle })
  return app
}
