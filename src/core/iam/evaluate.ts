// src/core/iam/evaluate.ts: the pure policy decision: ≥ 1 allowing and no denying policy per check
import { matchesAny, type Policy } from './policy.ts'

/** One data-policy question: may the caller do `operation` on any of these resource strings? */
export type PolicyCheck = Readonly<{ operation: string; resources: readonly string[] }>

export type Vote = 'allow' | 'deny' | 'abstain'

export type Decision =
  | Readonly<{ isAllowed: true }>
  | Readonly<{ isAllowed: false; check: PolicyCheck; deniedBy: string | undefined }>

/**
 * How one policy votes on a check: it applies when its operations hold the operation (or `*`),
 * its reasons hold the reason (or `*`), and one of its patterns matches one of the resources.
 */
export function vote(policy: Policy, check: PolicyCheck, reason: string): Vote {
  const hasOperation = policy.operations.has('*') || policy.operations.has(check.operation)
  const hasReason = policy.reasons.has('*') || policy.reasons.has(reason)
  if (!hasOperation || !hasReason) return 'abstain'
  if (!policy.resources.some((pattern) => matchesAny(pattern, check.resources))) return 'abstain'
  return policy.isAllow ? 'allow' : 'deny'
}

/** The verdict on one check: allowed iff some policy allows and none denies (deny by default). */
function decideCheck(
  policies: readonly Policy[],
  check: PolicyCheck,
  reason: string,
): { isAllowed: boolean; deniedBy: string | undefined } {
  let isAllowed = false
  for (const policy of policies) {
    const verdict = vote(policy, check, reason)
    if (verdict === 'deny') return { isAllowed: false, deniedBy: policy.name }
    if (verdict === 'allow') isAllowed = true
  }
  return { isAllowed, deniedBy: undefined }
}

/**
 * Decides a whole request: every check must pass. There is no partial success, so the first
 * failing check decides the answer.
 */
export function evaluate(
  policies: readonly Policy[],
  checks: readonly PolicyCheck[],
  reason: string,
): Decision {
  for (const check of checks) {
    const { isAllowed, deniedBy } = decideCheck(policies, check, reason)
    if (!isAllowed) return { isAllowed: false, check, deniedBy }
  }
  return { isAllowed: true }
}
