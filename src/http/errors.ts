// src/http/errors.ts: the only place errors become HTTP responses
import type { FastifyBaseLogger, FastifyError } from 'fastify'
import { ERRORS, type ErrorBody, type ErrorName } from '../contract/errors.ts'
import { isVaultError } from '../core/errors.ts'

export type ErrorResponse = { readonly status: number; readonly body: ErrorBody }

type ValidationIssue = { instancePath?: string; message?: string; params?: Record<string, unknown> }

const LOCATIONS: ReadonlyMap<string, string> = new Map([
  ['body', 'body'],
  ['querystring', 'query parameter'],
  ['params', 'path parameter'],
  ['headers', 'header'],
])

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
  const location = LOCATIONS.get(part) ?? part
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

/** Fastify's own failures by code, with a message that says what to change. */
const FASTIFY_ERRORS: ReadonlyMap<string, () => ErrorResponse> = new Map([
  [
    'FST_ERR_CTP_BODY_TOO_LARGE',
    () => fromName('payloadTooLarge', 'The request body is larger than the configured limit.'),
  ],
  [
    'FST_ERR_CTP_INVALID_JSON_BODY',
    () => fromName('invalidRequest', 'The request body is not valid JSON.', { field: 'body' }),
  ],
  [
    'FST_ERR_CTP_EMPTY_JSON_BODY',
    () => fromName('invalidRequest', 'The request body is not valid JSON.', { field: 'body' }),
  ],
  [
    'FST_ERR_CTP_INVALID_MEDIA_TYPE',
    () =>
      fromName('invalidRequest', 'The request content type is not supported by this operation.', {
        field: 'content-type',
      }),
  ],
  [
    'FST_ERR_CTP_INVALID_CONTENT_LENGTH',
    () =>
      fromName('invalidRequest', 'The request body size does not match its Content-Length.', {
        field: 'content-length',
      }),
  ],
  [
    'FST_ERR_BAD_URL',
    () =>
      fromName(
        'invalidRequest',
        'The request path is not valid: percent-encode it as UTF-8 (%XX with two hex digits).',
        { field: 'path' },
      ),
  ],
  [
    'FST_ERR_MAX_PARAM_LENGTH',
    () => fromName('urlTooLong', 'A path parameter of the request is too long.', { field: 'path' }),
  ],
  ['FST_ERR_HANDLER_TIMEOUT', () => fromName('timeout')],
])

/** Client errors (4xx) by status, for framework errors without an entry above. */
const BY_STATUS: ReadonlyMap<number, ErrorName> = new Map([
  [404, 'routeNotFound'],
  [405, 'methodNotAllowed'],
  [413, 'payloadTooLarge'],
  [414, 'urlTooLong'],
])

/**
 * Fastify's own failures before our handlers (routing, body parsing, size) in the spec's error
 * body: known codes by name, any other framework error that carries a 4xx status as ERR1012 with
 * that status, so no framework body ever reaches a client.
 */
function fromFastify(error: FastifyError): ErrorResponse | undefined {
  if (error.validation) {
    const { message, field } = describeValidation(error)
    return fromName('invalidRequest', message, { field })
  }
  const known = typeof error.code === 'string' ? FASTIFY_ERRORS.get(error.code) : undefined
  if (known !== undefined) return known()
  if (error instanceof SyntaxError && error.statusCode === 400) {
    return fromName('invalidRequest', 'The request body is not valid JSON.', { field: 'body' })
  }
  const status = error.statusCode
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const response = fromName(BY_STATUS.get(status) ?? 'invalidRequest')
    return { ...response, status }
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
