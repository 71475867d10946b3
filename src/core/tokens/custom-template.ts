// src/core/tokens/custom-template.ts: token IDs from a bundle's fptemplate function (tokens.md §5), with bounded retries
import { randomBytes } from 'node:crypto'
import type { StoredCollection } from '../collections/collection.ts'
import type { RequestContext } from '../context.ts'
import { VaultError } from '../errors.ts'
import type { TokensDeps } from './deps.ts'
import type { ItemPlan } from './plan.ts'
import { PAN_TEMPLATE } from './request.ts'

/** Candidates one item may try before its tokenize fails: collisions must stay rare. */
export const MAX_TEMPLATE_ATTEMPTS = 5

export const isCustomTemplate = (template: string | undefined): template is string =>
  template !== undefined && template !== PAN_TEMPLATE

const randomSeed = () => randomBytes(16).toString('hex')

function exhausted(template: string, field: string): VaultError {
  return new VaultError('alreadyExists', {
    message: `The fptemplate ${template} returned token IDs that are all taken (${MAX_TEMPLATE_ATTEMPTS} attempts); make it use its seed so IDs differ.`,
    context: { field },
  })
}

/**
 * A source of IDs for one item: the first candidate was made with the request's batch; each
 * retry after a collision asks the function again with a new seed, at most MAX_TEMPLATE_ATTEMPTS.
 */
export function templateIdSource(
  deps: Pick<TokensDeps, 'custom'>,
  ctx: RequestContext,
  call: Readonly<{ template: string; collection: StoredCollection; field: string }>,
  object: Readonly<Record<string, unknown>>,
  first: string | undefined,
): () => Promise<string> {
  let attempts = 0
  return async () => {
    attempts += 1
    if (attempts === 1 && first !== undefined) return first
    if (attempts > MAX_TEMPLATE_ATTEMPTS) throw exhausted(call.template, call.field)
    const [id] = await deps.custom.templateIds(ctx, {
      function: call.template,
      collection: call.collection,
      field: call.field,
      items: [{ object, seed: randomSeed() }],
    })
    return id as string
  }
}

/**
 * Plans with a custom template get their IDs from its function, one sandbox entry per template
 * for the whole request: deterministic tokens from a keyed seed (same values, same ID), others a
 * first random candidate and a source of more for collisions.
 */
export async function withTemplateIds(
  deps: Pick<TokensDeps, 'custom' | 'ids'>,
  ctx: RequestContext,
  collection: StoredCollection,
  plans: readonly ItemPlan[],
): Promise<ItemPlan[]> {
  const result = [...plans]
  const templates = new Set(plans.map((p) => p.template).filter(isCustomTemplate))
  for (const template of templates) {
    const at = plans.flatMap((p, i) => (p.template === template ? [i] : []))
    const seeds = at.map((i) => {
      const plan = plans[i] as ItemPlan
      if (plan.type !== 'deterministic') return randomSeed()
      const derivation = { collection: collection.name, scope: plan.scope, values: plan.values }
      return deps.ids.uuid(derivation).replace(/-/g, '')
    })
    const field = `[${at[0] ?? 0}].fptemplate`
    const ids = await deps.custom.templateIds(ctx, {
      function: template,
      collection,
      field,
      items: at.map((i, k) => ({ object: (plans[i] as ItemPlan).values, seed: seeds[k] ?? '' })),
    })
    for (const [k, i] of at.entries()) {
      const plan = plans[i] as ItemPlan
      const id = ids[k] as string
      const call = { template, collection, field: `[${i}].fptemplate` }
      result[i] =
        plan.type === 'deterministic'
          ? { ...plan, derivedId: id }
          : { ...plan, nextId: templateIdSource(deps, ctx, call, plan.values, id) }
    }
  }
  return result
}
