// src/core/access/checks.ts: the policy checks of data operations (objects, tokens) and their audit naming (iam.md §3–4)
import { touchedDetails, withObjectIds } from '../audit/details.ts'
import { findProperty, type StoredCollection } from '../collections/collection.ts'
import type { RequestContext } from '../context.ts'
import type { PolicyCheck } from '../iam/evaluate.ts'
import { propertyResources } from '../iam/policy.ts'

export type PolicyGate = {
  checkPolicies(ctx: RequestContext, checks: readonly PolicyCheck[]): void
}

/** One check per named property (built-ins included), for `operation`; `archived/` when asked. */
export function propertyChecks(
  collection: StoredCollection,
  names: Iterable<string>,
  operation: string,
  isArchived = false,
): PolicyCheck[] {
  const checks: PolicyCheck[] = []
  for (const name of new Set(names)) {
    const property = findProperty(collection, name)
    if (property === undefined) continue
    const ref = { collection: collection.name, property: name, type: property.dataType, isArchived }
    checks.push({ operation, resources: propertyResources(ref) })
  }
  return checks
}

/** Names the collection and properties in the call's audit details (names only, never values). */
export function auditTouched(
  ctx: RequestContext,
  collection: StoredCollection,
  properties: Iterable<string> = [],
): void {
  ctx.audit.details = touchedDetails(ctx.audit.details, collection, properties)
}

/** Adds object ids to the call's audit details, once each. */
export function auditObjects(ctx: RequestContext, ids: Iterable<string>): void {
  ctx.audit.details = withObjectIds(ctx.audit.details, ids)
}
