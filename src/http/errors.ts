// src/http/errors.ts: the only place errors become HTTP responses
import type { FastifyBaseLogger, FastifyError } from 'fastify'
import { ERRORS, type ErrorBody, type ErrorName } from '../contract/errors.ts'
import { isVaultError } from '../core/errors.ts'

export type ErrorResponse = { readonly status: number; readonly body: ErrorBody }

type ValidationIssue = { instancePath?: string; message?: string; params?: Record<string, unknown> }

const LOCATIONS: Record<string, string> = {
  body: 'body',
  querystring: 'query parameter',
  params: 'path parameter',
  headers: 'header',
}

function withFullStop(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`
}

/** Names the failing field without echoing the value that was sent. */
function describeValidation(error: FastifyError): { message: string; field: string } {
  const issue = (error.validation?.[0] ?? {}) as ValidationIssue
  const part = error.validationContext ?? 'body'
  const missing = issue.params?.requiredProperties ?? issue.params?.missingProperty
  const extra = Array.isArray(missing)
    ? missing.join(',')
    : typeof missing === 'string'
      ? missing
      : ''
  const path = [issue.instancePath?.replace(/^\//, '').replaceAll('/', '.'), extra]
    .filter(Boolean)
    .join('.')
  const location = LOCATIONS[part] ?? part
  const what = issue.message ?? 'is invalid'
  const message = path
    ? `The request is invalid: ${location} '${path}' ${what}`
    : `The request is invalid: the ${location} ${what}`
  return { message: withFullStop(message), field: path || part }
}

function fromName(
  name: ErrorName,
  message?: string,
  context: Record<string, string> = {},
): ErrorResponse {
  const entry = ERRORS[name]
  return {
    status: entry.status,
    body: { error_code: entry.code, message: message ?? entry.title, context },
  }
}

/** Fastify's own failures before our handlers (body parsing, size) in the spec's error body. */
function fromFastify(error: FastifyError): ErrorResponse | undefined {
  if (error.validation) {
    const { message, field } = describeValidation(error)
    return fromName('invalidRequest', message, { field })
  }
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return fromName('payloadTooLarge', 'The request body is larger than the configured limit.')
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return fromName('invalidRequest', 'The request body is not valid JSON.', { field: 'body' })
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return fromName(
        'invalidRequest',
        'The request content type is not supported by this operation.',
        {
          field: 'content-type',
        },
      )
  }
  if (error instanceof SyntaxError && error.statusCode === 400) {
    return fromName('invalidRequest', 'The request body is not valid JSON.', { field: 'body' })
  }
  return undefined
}

/**
 * Maps anything thrown during a request to status and body. VaultErrors keep their catalogue
 * code; schema failures are 400 ERR1012; everything else is a generic 500 whose details are
 * only logged (with the request id), never sent.
 */
export function toErrorResponse(error: unknown, log: FastifyBaseLogger): ErrorResponse {
  let response: ErrorResponse | undefined
  if (isVaultError(error)) {
    response = {
      status: error.status,
      body: {
        error_code: error.code,
        message: withFullStop(error.message),
        context: { ...error.context },
      },
    }
    if (error.cause !== undefined)
      log.warn({ err: error.cause, code: error.code }, 'request failed')
  } else {
    response = fromFastify(error as FastifyError)
  }
  if (response === undefined) {
    log.error({ err: error }, 'unexpected error')
    response = fromName(
      'internal',
      'An unexpected error occurred. The request ID identifies it in the service log.',
    )
  }
  return response
}

/**
 * How clients see error codes: `codePrefix` replaces `ERR` (SVC_SERVICE_ERROR_CODE_PREFIX, e.g.
 * `PV3005` for applications written against the reference product), and `error_url` links the
 * code under `urlBase` (SVC_SERVICE_ERROR_URL_BASE; errors.md §1: omitted when that is empty).
 */
export type ErrorStyle = Readonly<{ codePrefix: string; urlBase: string }>

export const SPEC_ERROR_STYLE: ErrorStyle = { codePrefix: 'ERR', urlBase: '' }

export function styleErrorBody(body: ErrorBody, style: ErrorStyle): ErrorBody {
  if (style.codePrefix === 'ERR' && style.urlBase === '') return body
  const code = body.error_code.replace(/^ERR/, style.codePrefix)
  const styled: ErrorBody = { ...body, error_code: code }
  if (style.urlBase) styled.error_url = `${style.urlBase}#${code}`
  return styled
}
