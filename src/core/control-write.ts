// src/core/control-write.ts: a control-data write with its audit record, then every node reloads

import type { AuditService } from './audit/audit.ts'
import { NO_DETAILS } from './audit/details.ts'
import type { ControlCache } from './cache.ts'
import type { RequestContext } from './context.ts'
import type { Repos } from './store.ts'

export type ControlWriteDeps = Readonly<{ audit: AuditService; cache: ControlCache }>

/**
 * Runs a change of control data (bundles, actions) and the call's audit record in one
 * transaction (rolled back if the call times out), then bumps the generation so every node,
 * this one at once, reloads its control-data cache.
 */
export async function writeControl<T>(
  deps: ControlWriteDeps,
  ctx: RequestContext,
  work: (tx: Repos) => Promise<T>,
): Promise<T> {
  const result = await deps.audit.transaction(ctx, NO_DETAILS, work)
  await deps.cache.changed()
  return result
}
