// src/http/openapi.ts: GET /openapi.json (the OpenAPI 3.1 document of the route schemas) and the /docs page
import Fastify, { type FastifyInstance, type FastifyReply, type RouteOptions } from 'fastify'
import { ErrorBody } from '../contract/errors.ts'
import { OPERATIONS } from '../core/iam/operations.ts'
import { compilersFactory } from './compilers.ts'
import { describeRequirement, errorResponses } from './openapi-errors.ts'

// @fastify/swagger is a large module graph and walks every route schema when the server gets
// ready: ~0.1 s of every start in dev mode, for a document few starts ever serve (ADR 0010). The
// routes are recorded as they are added; the first request for the document or the page loads
// the plugins into a private Fastify instance that never listens and replays the routes into it,
// so the plugins see the very route definitions they saw when registered at start. The page is
// @fastify/swagger-ui (Swagger UI's files from the package, nothing from a CDN), answered through
// that instance's `inject`.

type RecordedRoute = Pick<RouteOptions, 'method' | 'url' | 'schema' | 'config'>

type Operation = {
  operationId?: string
  description?: string
  responses?: Record<string, unknown>
  security?: unknown[]
}
type Document = { paths?: Record<string, Record<string, Operation>> }

// The private instance never validates or serializes a real request: its routes need no working
// compilers (the docs plugin's own routes send strings, buffers or the document).
const idle = compilersFactory(
  () => () => true,
  () => () => (data: unknown) => JSON.stringify(data),
)

/** Swagger UI may load its own files and nothing else: the browser enforces "no CDN" too. */
const DOCS_CSP = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'frame-ancestors': ["'self'"],
}

const INPUTS = ['params', 'querystring', 'body', 'headers'] as const

/** Adds to each operation what is rendered centrally: its error responses and its credential. */
function completeDocument(document: Document, routes: readonly RecordedRoute[]): Document {
  const byOperationId = new Map(
    routes.map((route) => [(route.schema as { operationId?: string })?.operationId, route]),
  )
  for (const methods of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(methods)) {
      const route = byOperationId.get(operation.operationId)
      if (route === undefined) continue
      const schema = (route.schema ?? {}) as Record<string, unknown>
      const errors = errorResponses({
        operation: route.config?.operation,
        errors: route.config?.errors,
        isTimeoutExempt: route.config?.isTimeoutExempt,
        hasInput: INPUTS.some((input) => schema[input] !== undefined),
      })
      operation.responses = { ...errors, ...operation.responses }
      const name = route.config?.operation
      operation.description = [operation.description, describeRequirement(name)]
        .filter(Boolean)
        .join('\n\n')
      if (name !== undefined && OPERATIONS[name].kind === 'public') operation.security = []
    }
  }
  return document
}

async function buildDocs(routes: readonly RecordedRoute[], version: string) {
  const [{ default: swagger }, { default: swaggerUi }] = await Promise.all([
    import('@fastify/swagger'),
    import('@fastify/swagger-ui'),
  ])
  const docs = Fastify({ schemaController: { compilersFactory: idle } })
  await docs.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Strongroom API',
        version,
        description:
          'The vault API under /api/pvlt/1.0. Errors share one body: `{ error_code, message, context }`.',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
        schemas: { ErrorBody: ErrorBody as object },
      },
      security: [{ bearer: [] }],
    },
    transformObject: (object) =>
      completeDocument(('openapiObject' in object ? object.openapiObject : {}) as Document, routes),
  })
  await docs.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: DOCS_CSP,
    theme: { title: 'Strongroom API reference' },
    uiConfig: { deepLinking: true, docExpansion: 'list', validatorUrl: null },
  })
  for (const route of routes) {
    docs.route({ ...route, exposeHeadRoute: false, handler: async () => undefined })
  }
  await docs.ready()
  return docs
}

/** Response headers of the docs instance that the page needs (not connection or length). */
const PASSED_HEADERS = [
  'content-type',
  'content-security-policy',
  'cache-control',
  'etag',
  'last-modified',
  'location',
]

/** Serves the document and the page (no credential); registered before the routes it describes. */
export function registerOpenApi(app: FastifyInstance, version: string): void {
  const routes: RecordedRoute[] = []
  app.addHook('onRoute', (route) => {
    // What @fastify/swagger leaves out anyway: HEAD twins of GET routes and hidden routes.
    if (route.method === 'HEAD' || (route.schema as { hide?: boolean } | undefined)?.hide) return
    routes.push({
      method: route.method,
      url: route.url,
      schema: route.schema,
      config: route.config,
    })
  })
  let docs: Promise<FastifyInstance> | undefined
  const instance = () => {
    docs ??= buildDocs(routes, version).catch((error: unknown) => {
      docs = undefined
      throw error
    })
    return docs
  }
  async function page(url: string, reply: FastifyReply) {
    const response = await (await instance()).inject({ method: 'GET', url })
    for (const name of PASSED_HEADERS) {
      const value = response.headers[name]
      if (value !== undefined) reply.header(name, value)
    }
    return reply.code(response.statusCode).send(response.rawPayload)
  }
  app.register(async (scope) => {
    scope.get('/openapi.json', { schema: { hide: true } }, async () => (await instance()).swagger())
    scope.get('/docs', { schema: { hide: true } }, (req, reply) => page(req.url, reply))
    scope.get('/docs/*', { schema: { hide: true } }, (req, reply) => page(req.url, reply))
  })
}
