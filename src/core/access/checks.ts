// src/core/access/checks.ts: the policy checks of data operations (objects, tokens) (iam.md §3–4)
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
