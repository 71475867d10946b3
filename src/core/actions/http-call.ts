// src/core/actions/http-call.ts: the built-in http_call action (data-model §10.2)
import type { HttpCallInput, HttpCallResult } from '../../contract/actions.ts'
import {
  type Audited,
  mergeDetails,
  NO_DETAILS,
  replaceDetails,
  withFailureDetails,
  withFailureOf,
} from '../audit/details.ts'
import type { RequestContext } from '../context.ts'
import { VaultError } from '../errors.ts'
import { actionResource } from '../iam/policy.ts'
import { bothChecks } from './destinations.ts'
import {
  type GlobalIdentifier,
  parseIdentifier,
  type ResolverDeps,
  resolveIdentifier,
} from './identifiers.ts'
import {
  type DestinationCheck,
  isOutboundFailure,
  type Outbound,
  type OutboundFailure,
} from './outbound.ts'
import { withRole } from './principal.ts'
import { parseTemplate, renderTemplate, type Template, variablesOf } from './template.ts'

export type HttpCallDeps = ResolverDeps &
  Readonly<{
    outbound: Outbound
    /** SVC_SERVICE_ALLOWED_HTTP_DESTINATIONS and, for card data, SVC_SERVICE_ALLOWED_PCI_HTTP_DESTINATIONS. */
    destinations: DestinationCheck
    pciDestinations: DestinationCheck
    /** SVC_SERVICE_ACTIONS_HTTP_CALL_ROLE; empty: the caller's role. */
    role: string
    maxResponseBytes: number
  }>

type Templates = Readonly<{
  url: Template
  headers: [string, Template][]
  body: Template | undefined
}>

function parseTemplates(input: HttpCallInput): Templates {
  const { request } = input
  return {
    url: parseTemplate('request.url', request.url),
    headers: Object.entries(request.headers ?? {}).map(([name, value]) => [
      name,
      parseTemplate(`request.headers.${name.slice(0, 100)}`, value),
    ]),
    body: request.body === undefined ? undefined : parseTemplate('request.body', request.body),
  }
}

function usedVariables(templates: Templates, declared: Readonly<Record<string, string>>): string[] {
  const used = new Set([
    ...variablesOf(templates.url),
    ...templates.headers.flatMap(([, t]) => variablesOf(t)),
    ...(templates.body === undefined ? [] : variablesOf(templates.body)),
  ])
  for (const name of used) {
    if (!Object.hasOwn(declared, name)) {
      throw new VaultError('invalidRequest', {
        message: `The template uses the variable ${name}, which template_variables does not define.`,
        context: { variable: name },
      })
    }
  }
  return [...used]
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1)

function destinationError(failure: OutboundFailure): VaultError {
  switch (failure.kind) {
    case 'not_allowed':
    case 'redirect_not_allowed':
    case 'address_not_allowed':
      return new VaultError('policyDenied', {
        message: `The request is forbidden due to a policy violation: ${lowerFirst(failure.message)}`,
        context: { field: 'request.url' },
      })
    case 'invalid_request':
      return new VaultError('invalidRequest', {
        message: failure.message,
        context: { field: 'request' },
      })
    default:
      // The spec's proposal: DNS, connection, time and size failures upstream are 503 ERR1009.
      return new VaultError('timeout', {
        message: `The http_call failed upstream: ${lowerFirst(failure.message)}`,
        context: {},
      })
  }
}

function targetUrl(text: string): URL {
  if (!URL.canParse(text)) {
    throw new VaultError('invalidRequest', {
      message: 'The request.url template does not render to an absolute URL.',
      context: { field: 'request.url' },
    })
  }
  return new URL(text)
}

/** The values of the used variables, whether any is card data, and what resolving touched. */
async function resolveVariables(
  deps: HttpCallDeps,
  ctx: RequestContext,
  identifiers: readonly (readonly [string, GlobalIdentifier])[],
  used: ReadonlySet<string>,
): Promise<Audited<{ values: Record<string, unknown>; isPci: boolean }>> {
  // No prototype: a variable may be called anything the template syntax allows.
  const values: Record<string, unknown> = Object.create(null)
  let isPci = false
  let audit = NO_DETAILS
  try {
    for (const [name, identifier] of identifiers) {
      if (!used.has(name)) continue
      const resolved = await resolveIdentifier(deps, ctx, identifier)
      values[name] = resolved.value.value
      isPci ||= resolved.value.isPci
      audit = mergeDetails(audit, resolved.audit)
    }
  } catch (error) {
    // The variables resolved before the failure were touched too.
    throw replaceDetails(error, withFailureOf(audit, error))
  }
  return { value: { values, isPci }, audit }
}

/**
 * Resolves the template variables (with SVC_SERVICE_ACTIONS_HTTP_CALL_ROLE, else the caller's
 * role), renders the request, and sends it to an allowed destination: requests carrying card
 * data must be allowed by the PCI list too. The response body is returned only on request.
 */
export async function invokeHttpCall(
  deps: HttpCallDeps,
  ctx: RequestContext,
  input: HttpCallInput,
): Promise<Audited<HttpCallResult>> {
  deps.iam.checkPolicies(ctx, [{ operation: 'invoke', resources: actionResource('http_call') }])
  const declared = input.template_variables ?? {}
  const identifiers = Object.entries(declared).map(
    ([name, text]) => [name, parseIdentifier(name, text)] as const,
  )
  const templates = parseTemplates(input)
  const used = new Set(usedVariables(templates, declared))
  const resolving = deps.role === '' ? ctx : withRole(ctx, deps.role)
  const { value: resolved, audit } = await resolveVariables(deps, resolving, identifiers, used)
  const { values, isPci } = resolved
  return withFailureDetails(audit, async () => {
    const headers = Object.fromEntries(
      templates.headers.map(([name, template]) => [
        name,
        renderTemplate(`request.headers.${name}`, template, values),
      ]),
    )
    try {
      const response = await deps.outbound.send({
        url: targetUrl(renderTemplate('request.url', templates.url, values)),
        method: input.request.method ?? 'GET',
        headers,
        body: templates.body && renderTemplate('request.body', templates.body, values),
        allow: isPci ? bothChecks(deps.destinations, deps.pciDestinations) : deps.destinations,
        signal: ctx.signal,
        maxResponseBytes: deps.maxResponseBytes,
      })
      const value = {
        status_code: response.status,
        headers: response.headers,
        ...(input.include_response_body === true ? { body: response.body } : {}),
      }
      return { value, audit }
    } catch (error) {
      throw isOutboundFailure(error) ? destinationError(error) : error
    }
  })
}
