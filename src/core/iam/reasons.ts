// src/core/iam/reasons.ts: access reasons (spec iam.md §5) and their validation
import type { AccessReason } from '../context.ts'
import { VaultError } from '../errors.ts'

export const REASONS = [
  'AppFunctionality',
  'Analytics',
  'Notifications',
  'Marketing',
  'ThirdPartyMarketing',
  'FraudPreventionSecurityAndCompliance',
  'AccountManagement',
  'Maintenance',
  'DataSubjectRequest',
  'Other',
] as const

export type Reason = (typeof REASONS)[number]

export const DEFAULT_REASON: Reason = 'AppFunctionality'

export function isReason(value: string): value is Reason {
  return (REASONS as readonly string[]).includes(value)
}

export type ReasonInput = {
  readonly reason: string | undefined
  readonly adhocReason: string | undefined
}

/**
 * Validates the access reason of a data call. Matching is case-sensitive; `Other` needs a
 * non-empty ad hoc reason. Without a reason, the default applies only when reasons are not forced.
 */
export function resolveReason(input: ReasonInput, isForced: boolean): AccessReason {
  const adhocReason = input.adhocReason?.trim() ? input.adhocReason : undefined
  if (input.reason === undefined || input.reason === '') {
    if (isForced) {
      throw new VaultError('reasonMissing', {
        message: 'The access reason is missing: send the reason query parameter.',
        context: { reason: '' },
      })
    }
    return { reason: DEFAULT_REASON, adhocReason, isDefaulted: true }
  }
  if (!isReason(input.reason)) {
    throw new VaultError('reasonInvalid', {
      message: `The access reason is invalid: it must be one of ${REASONS.join(', ')}.`,
      context: { reason: input.reason },
    })
  }
  if (input.reason === 'Other' && adhocReason === undefined) {
    throw new VaultError('reasonInvalid', {
      message: 'The access reason Other needs a non-empty adhoc_reason.',
      context: { reason: 'Other' },
    })
  }
  return { reason: input.reason, adhocReason, isDefaulted: false }
}
