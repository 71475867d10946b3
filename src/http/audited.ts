// src/http/audited.ts: a route's answer together with the audit details of its call
import {
  type AuditDetails,
  type Audited,
  carryDetails,
  failureDetails,
  NO_DETAILS,
} from '../core/audit/details.ts'

/** What a route returns for a read that names what it touched; the handler wrapper unwraps it. */
export class AuditedReply {
  readonly payload: unknown
  readonly audit: AuditDetails

  constructor(payload: unknown, audit: AuditDetails) {
    this.payload = payload
    this.audit = audit
  }
}

/**
 * Returns a service's audited result from a route: the handler wrapper in `http/server.ts`
 * records the call with `result.audit`, then sends `result.value` (or what `map` makes of it).
 * Typed as the payload so the route keeps its response schema's type.
 */
export function audited<T>(result: Audited<T>): T
export function audited<T, U>(result: Audited<T>, map: (value: T) => U): U
export function audited<T, U>(result: Audited<T>, map?: (value: T) => U): T | U {
  try {
    const payload = map === undefined ? result.value : map(result.value)
    return new AuditedReply(payload, result.audit) as unknown as T | U
  } catch (error) {
    // A response that cannot be built fails the call, whose record names what it touched.
    throw carryDetails(error, result.audit)
  }
}

/** A handler's return value as the payload to send and the details to record. */
export function unwrapAudited(
  returned: unknown,
): Readonly<{ result: unknown; details: AuditDetails }> {
  return returned instanceof AuditedReply
    ? { result: returned.payload, details: returned.audit }
    : { result: returned, details: NO_DETAILS }
}

/** The details of a failure record: those the error carries, if the service attached any. */
export function detailsOf(error: unknown): AuditDetails {
  return failureDetails(error) ?? NO_DETAILS
}
