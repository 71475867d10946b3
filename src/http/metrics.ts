// src/http/metrics.ts: GET /metrics (Prometheus text) on the main port or on its own listener
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify'
import { constantTimeEqual, sha256 } from '../core/crypto/hash.ts'
import { VaultError } from '../core/errors.ts'
import { bearer } from './auth.ts'
import { toErrorResponse } from './errors.ts'

export type MetricsEndpoint = Readonly<{
  render(): Promise<{ contentType: string; body: string }>
  /** The bearer token scrapers present (SVC_METRICS_TOKEN); empty: none is asked for. */
  token: string
}>

/** Hashed first, so the comparison takes the same time whatever the lengths (CWE-208). */
function isAllowed(token: string, header: string | undefined): boolean {
  if (token === '') return true
  const given = bearer(header)
  return given !== undefined && constantTimeEqual(sha256(given), sha256(token))
}

/** Adds GET /metrics: hidden from the API document, not audited (it returns no vault data). */
export function registerMetrics(app: FastifyInstance, endpoint: MetricsEndpoint): void {
  app.get('/metrics', { schema: { hide: true } }, async (req, reply) => {
    if (!isAllowed(endpoint.token, req.headers.authorization))
      throw new VaultError('unauthorized', {
        message:
          'The metrics credential is missing or wrong: send Authorization: Bearer <SVC_METRICS_TOKEN>.',
      })
    const { contentType, body } = await endpoint.render()
    return reply.type(contentType).send(body)
  })
}

/**
 * The listener of SVC_METRICS_LISTEN_ADDR: /metrics and nothing else, answered with the spec's
 * error body like the main port.
 */
export function buildMetricsServer(
  endpoint: MetricsEndpoint,
  logger: FastifyBaseLogger,
): FastifyInstance {
  const app = Fastify({
    loggerInstance: logger,
    logController: new LogController({ disableRequestLogging: true }),
  })
  registerMetrics(app, endpoint)
  app.setNotFoundHandler(async (req) => {
    throw new VaultError('routeNotFound', {
      message: 'This listener serves only GET /metrics.',
      context: { method: req.method, path: req.url.split('?')[0] ?? '' },
    })
  })
  app.setErrorHandler(async (error, req, reply) => {
    const { status, body } = toErrorResponse(error, req.log)
    return reply.code(status).type('application/json; charset=utf-8').send(body)
  })
  return app
}
