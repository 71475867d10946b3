// src/core/actions/outbound.ts: the Outbound port: HTTP requests to allow-listed destinations (implemented in src/sandbox)

/**
 * How a destination may be reached: `any-address` when an allow-list entry names it, so the
 * operator chose it (a host on the internal network included); `public-address` when only the
 * `*` entry matches, so its name must not resolve to a loopback, private or link-local address.
 */
export type DestinationRule = 'any-address' | 'public-address'

/** Decides for every hop (the first URL and every redirect) whether it may be reached. */
export type DestinationCheck = (url: URL) => DestinationRule | undefined

export type OutboundRequest = Readonly<{
  url: URL
  method: string
  headers: Readonly<Record<string, string>>
  body?: string
  allow: DestinationCheck
  /** The call's time: an aborted request fails with `timeout`. */
  signal: AbortSignal
  maxResponseBytes: number
}>

export type OutboundResponse = Readonly<{
  status: number
  /** First value per header name, names in lower case. */
  headers: Readonly<Record<string, string>>
  body: string
}>

/**
 * `not_allowed`: the URL (or, `redirect_not_allowed`, a redirect's target) is not on the list;
 * `address_not_allowed`: its name resolves only to addresses the rule forbids; `invalid_request`:
 * the method, a header or the URL cannot be sent; `unreachable`: DNS, connection or protocol
 * failure, or too many redirects; `timeout`; `too_large`: the response body exceeds the cap.
 */
export type OutboundFailureKind =
  | 'not_allowed'
  | 'redirect_not_allowed'
  | 'address_not_allowed'
  | 'invalid_request'
  | 'unreachable'
  | 'timeout'
  | 'too_large'

export class OutboundFailure extends Error {
  override readonly name = 'OutboundFailure'
  readonly kind: OutboundFailureKind

  constructor(kind: OutboundFailureKind, message: string) {
    super(message)
    this.kind = kind
  }
}

export function isOutboundFailure(error: unknown): error is OutboundFailure {
  return error instanceof OutboundFailure
}

export type Outbound = Readonly<{ send(request: OutboundRequest): Promise<OutboundResponse> }>
