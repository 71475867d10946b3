// src/http/auth.ts: bearer credential → principal → RequestContext, capability gate and access reason
import type { FastifyContextConfig, FastifyRequest } from 'fastify'
import { auditRoute, type Principal, type RequestContext } from '../core/context.ts'
import { VaultError } from '../core/errors.ts'
import { DATA_OPERATIONS, OPERATIONS, type Operation } from '../core/iam/operations.ts'
import { resolveReason } from '../core/iam/reasons.ts'
import type { Services } from '../core/services.ts'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The operation name from core/iam/operations.ts: it decides capability and audit. */
    operation?: Operation
    /** Schema updates may run long (index builds) and are exempt from the call timeout. */
    isTimeoutExempt?: boolean
    /** `reason=Other` without `adhoc_reason` answers 404 ERR3009 (update/delete/rotate tokens, seed). */
    isAdhocMissingNotFound?: boolean
  }
  interface FastifyRequest {
    ctx: RequestContext
  }
}

const ANONYMOUS: Principal = { username: '', role: '', isAdmin: false, authKind: 'api_key' }

/** The credential of an `Authorization: Bearer …` header. */
export function bearer(header: string | undefined): string | undefined {
  if (header === undefined) return undefined
  const match = /^Bearer\s+(.+)$/i.exec(header.trim())
  return match?.[1]?.trim()
}

/** `X-Tenant-Id: a,b`, possibly repeated: the distinct non-empty tenant IDs. */
function tenantIds(header: string | string[] | undefined): string[] {
  const values = Array.isArray(header) ? header : header === undefined ? [] : [header]
  const ids = values.flatMap((value) => value.split(',')).map((id) => id.trim())
  return [...new Set(ids.filter((id) => id.length > 0))]
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}

type QueryValues = Record<string, unknown>

function queryString(query: QueryValues, name: string): string | undefined {
  const value = query[name]
  return typeof value === 'string' ? value : undefined
}

function remoteAddress(req: FastifyRequest, useXff: boolean): string {
  const forwarded = firstHeader(req.headers['x-forwarded-for'])
  return useXff && forwarded ? (forwarded.split(',')[0]?.trim() ?? req.ip) : req.ip
}

/** Builds the context of an operation's call with the principal it was authenticated as. */
function contextFor(
  req: FastifyRequest,
  operation: Operation,
  routeUrl: string | undefined,
  principal: Principal,
  services: Services,
  signal: AbortSignal,
  useXff: boolean,
): RequestContext {
  const query = (req.query ?? {}) as QueryValues
  return {
    requestId: req.id,
    principal,
    now: services.clock(),
    signal,
    reason: undefined,
    customAudit: queryString(query, 'custom_audit'),
    tenantIds: tenantIds(req.headers['x-tenant-id']),
    transParam: firstHeader(req.headers['x-trans-param']),
    remoteAddr: remoteAddress(req, useXff),
    audit: auditRoute(operation, req.method, routeUrl ?? req.url),
  }
}

export type AuthOptions = { readonly useXff: boolean }

/**
 * The onRequest step of every operation, in the spec's precedence: 401 (credential) → 403
 * (capability, decided by the route alone so callers cannot probe resources) → 400 (reason).
 */
export async function authenticateRequest(
  services: Services,
  req: FastifyRequest,
  route: Readonly<{ config: FastifyContextConfig; url: string | undefined }>,
  signal: AbortSignal,
  options: AuthOptions,
): Promise<void> {
  const operation = route.config.operation as Operation
  req.ctx = contextFor(req, operation, route.url, ANONYMOUS, services, signal, options.useXff)
  if (OPERATIONS[operation].kind === 'public') return
  const isData = DATA_OPERATIONS.has(operation)
  // Control operations never use the cache: they see IAM changes made on other nodes at once.
  if (!isData) await services.cache.refresh()
  const principal = await services.iam.authenticate(
    bearer(req.headers.authorization),
    firstHeader(req.headers['x-pvault-delegation'])?.trim() || undefined,
  )
  req.ctx = { ...req.ctx, principal }
  // The `user` path parameter is the subject of operations a caller may run on itself.
  services.iam.authorize(req.ctx, operation, (req.params as { user?: string } | undefined)?.user)
  if (!isData) return
  const query = (req.query ?? {}) as QueryValues
  if (
    route.config.isAdhocMissingNotFound === true &&
    queryString(query, 'reason') === 'Other' &&
    !queryString(query, 'adhoc_reason')?.trim()
  )
    throw new VaultError('tokenNotFound', {
      message: 'No token matched the request: the reason Other needs an adhoc_reason.',
    })
  const reason = resolveReason(
    { reason: queryString(query, 'reason'), adhocReason: queryString(query, 'adhoc_reason') },
    services.settings.forceAccessReason,
  )
  req.ctx = { ...req.ctx, reason }
  if (/^true$/i.test(queryString(query, 'reload_cache') ?? ''))
    await services.cache.refresh({ force: true })
  else await services.cache.ensureFresh()
}

/** Whether the request is a call of a public operation (health): no credential, no audit. */
export function isPublic(req: FastifyRequest): boolean {
  return req.ctx !== undefined && OPERATIONS[req.ctx.audit.operation as Operation].kind === 'public'
}
