// src/http/openapi.ts: GET /openapi.json, the OpenAPI document generated from the route schemas
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify'
import { compilersFactory } from './compilers.ts'

// @fastify/swagger is a large module graph and walks every route schema when the server gets
// ready: ~0.1 s of every start in dev mode, for a document few starts ever serve (ADR 0010). The
// routes are recorded as they are added; the first request for the document loads the plugin and
// replays them into a private Fastify instance that never listens, so the plugin sees the very
// route definitions it saw when it was registered at start.

type RecordedRoute = Pick<RouteOptions, 'method' | 'url' | 'schema' | 'config'>

// The private instance never answers a request: its routes need no working compilers.
const idle = compilersFactory(
  () => () => true,
  () => () => (data: unknown) => JSON.stringify(data),
)

async function generate(routes: readonly RecordedRoute[], version: string): Promise<unknown> {
  const { default: swagger } = await import('@fastify/swagger')
  const docs = Fastify({
    schemaController: { compilersFactory: idle },
  })
  try {
    await docs.register(swagger, {
      openapi: {
        info: { title: 'Strongroom API', version },
        components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
        security: [{ bearer: [] }],
      },
    })
    for (const route of routes) {
      docs.route({ ...route, exposeHeadRoute: false, handler: async () => undefined })
    }
    await docs.ready()
    return docs.swagger()
  } finally {
    await docs.close()
  }
}

/** Serves the document (no credential); registered before the routes it describes. */
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
  let document: Promise<unknown> | undefined
  app.register(async (docs) => {
    docs.get('/openapi.json', { schema: { hide: true } }, async () => {
      document ??= generate(routes, version).catch((error: unknown) => {
        document = undefined
        throw error
      })
      return document
    })
  })
}
