// src/core/tokens/tokenize.ts: tokenize (endpoints §4.1): validate all items, store objects, then one transaction
import { randomUUID } from 'node:crypto'
import type { TokenizeRequest } from '../../contract/tokens.ts'
import type { StoredCollection } from '../collections/collection.ts'
import type { RequestContext } from '../context.ts'
import { VaultError } from '../errors.ts'
import type { PolicyCheck } from '../iam/evaluate.ts'
import { effectiveTenants } from '../iam/tenants.ts'
import { auditObjects, auditTouched, propertyChecks } from '../objects/access.ts'
import { throwFirstError } from '../objects/bulk.ts'
import { parseExpiration } from '../objects/expiration.ts'
import type { Repos } from '../store.ts'
import type { TokensDeps } from './deps.ts'
import { invalidItem } from './errors.ts'
import { fingerprintOf } from './ids.ts'
import { type ItemPlan, planItem } from './plan.ts'
import { sealTokens } from './records.ts'
import { checkItem } from './request.ts'
import { resolveSources, type Source } from './sources.ts'
import { checkUniqueTags } from './unique-tags.ts'
import { type Draft, findRetokenized, idFor, retokenizeChange } from './write.ts'

export type TokenizeOptions = Readonly<{ expirationSecs?: string; transactionId?: string }>
export type TokenValue = { token_id: string; object_id?: string }

function checksOf(
  collection: StoredCollection,
  items: readonly TokenizeRequest[],
  plans: readonly ItemPlan[],
) {
  const checks: PolicyCheck[] = propertyChecks(
    collection,
    plans.flatMap((p) => p.props),
    'tokenize',
  )
  const stored = plans.filter((_p, i) => items[i]?.store_object === true)
  checks.push(
    ...propertyChecks(
      collection,
      stored.flatMap((p) => Object.keys(p.source.toStore ?? {})),
      'write',
    ),
  )
  const encrypted = plans.filter((p) => p.source.isEncrypted)
  checks.push(
    ...propertyChecks(
      collection,
      encrypted.flatMap((p) => p.props),
      'decrypt',
    ),
  )
  return checks
}

/** Stores the `store_object` items' fields as new objects; returns item index → object id. */
async function storeObjects(
  deps: TokensDeps,
  ctx: RequestContext,
  name: string,
  items: readonly TokenizeRequest[],
) {
  const indexes = items.flatMap((item, i) => (item.store_object === true ? [i] : []))
  if (indexes.length === 0) return new Map<number, string>()
  const bodies = indexes.map((i) => items[i]?.object.fields ?? {})
  const result = await deps.objects.addMany(ctx, name, bodies, {
    expirationSecs: undefined,
    isImport: false,
    exportKey: undefined,
  })
  throwFirstError(result)
  return new Map(indexes.map((index, j) => [index, result.results[j]?.id ?? '']))
}

function ownerOf(plan: ItemPlan, created: ReadonlyMap<number, string>): string | undefined {
  return (
    plan.source.object?.id ??
    created.get(plan.index) ??
    (plan.source.refersTo === undefined ? undefined : created.get(plan.source.refersTo))
  )
}

export async function tokenize(
  deps: TokensDeps,
  ctx: RequestContext,
  name: string,
  items: readonly TokenizeRequest[],
  options: TokenizeOptions,
): Promise<TokenValue[]> {
  const collection = deps.collections.getCachedOrThrow(name)
  if (items.length === 0) throw invalidItem('The request must have at least one item.', 'body')
  for (const [i, item] of items.entries()) checkItem(item, i, deps.settings.maxTags)
  const txId = options.transactionId
  if (txId !== undefined && (txId.length === 0 || txId.length > 128))
    throw invalidItem('The transaction_id must have 1 to 128 characters.', 'transaction_id')
  const expiry = parseExpiration(
    options.expirationSecs,
    { defaultSecs: deps.settings.defaultExpirySecs, isUpdate: false },
    ctx.now,
  )
  const sources = await resolveSources(
    deps,
    ctx,
    collection,
    items.map((i) => i.object),
  )
  const plans = items.map((item, i) =>
    planItem(collection, deps.ids, item, sources[i] as Source, i),
  )
  deps.iam.checkPolicies(ctx, checksOf(collection, items, plans))
  auditTouched(
    ctx,
    collection,
    plans.flatMap((p) => p.props),
  )
  const singleTenant = effectiveTenants(ctx)?.length === 1 ? effectiveTenants(ctx)?.[0] : undefined
  await checkUniqueTags(
    deps,
    ctx,
    collection.name,
    plans.map((p) => ({
      tags: p.uniqueTags,
      tenantId: p.source.object?.tenantId ?? singleTenant,
      exceptTokenId: undefined,
    })),
  )
  const created = await storeObjects(deps, ctx, name, items)
  const expiresAt = expiry.kind === 'at' ? expiry.at : undefined
  const drafts = plans.map((plan): Draft => {
    const objectId = ownerOf(plan, created)
    const hasData = plan.type !== 'pointer'
    return {
      plan,
      expiryGiven: options.expirationSecs !== undefined,
      row: {
        rowId: randomUUID(),
        collection: collection.name,
        type: plan.type,
        scope: plan.scope,
        props: plan.props,
        objectId,
        tenantId: plan.source.object?.tenantId ?? singleTenant,
        sealed: hasData ? Buffer.alloc(0) : undefined,
        fingerprint:
          plan.type === 'pci' || plan.type === 'pci_oneway' || plan.type === 'deterministic'
            ? fingerprintOf(deps.envelope, { ...plan, collection: collection.name })
            : undefined,
        tags: plan.tags,
        createdAt: ctx.now,
        modifiedAt: ctx.now,
        expiresAt,
        fptemplate: plan.template,
        fpprops: plan.fpprops,
        transactionId: txId,
      },
    }
  })
  const sealed = sealTokens(
    deps.envelope,
    drafts
      .filter((d) => d.row.sealed !== undefined)
      .map((d) => ({ collection: collection.name, rowId: d.row.rowId, values: d.plan.values })),
  )
  let next = 0
  const ready = drafts.map((d) =>
    d.row.sealed === undefined ? d : { ...d, row: { ...d.row, sealed: sealed[next++] } },
  )
  auditObjects(
    ctx,
    ready.flatMap((d) => (d.row.objectId ? [d.row.objectId] : [])),
  )
  const ids = await deps.store.transaction((tx) => writeAll(deps, tx, ready, ctx.now))
  return ids.map((tokenId, i) => {
    const objectId = created.get(i)
    return objectId === undefined
      ? { token_id: tokenId }
      : { token_id: tokenId, object_id: objectId }
  })
}

async function writeAll(
  deps: TokensDeps,
  tx: Repos,
  drafts: readonly Draft[],
  now: number,
): Promise<string[]> {
  const first = drafts[0]
  if (first === undefined) return []
  const { collection, transactionId } = first.row
  if (
    transactionId !== undefined &&
    !(await tx.tokens.insertTransaction(collection, transactionId, now))
  )
    throw new VaultError('transactionIdUsed', {
      context: { transaction_id: transactionId.slice(0, 128) },
    })
  const owners = [...new Set(drafts.flatMap((d) => (d.row.objectId ? [d.row.objectId] : [])))]
  const existing =
    owners.length === 0
      ? []
      : (await tx.tokens.select({ collection, objectIds: owners })).filter(
          (t) => t.expiresAt === undefined || t.expiresAt > now,
        )
  const rows = []
  const ids: string[] = []
  for (const draft of drafts) {
    const isRandom = draft.plan.type === 'randomized' || draft.plan.type === 'pointer'
    const owned = draft.row.objectId !== undefined
    const tokenId =
      owned && isRandom ? findRetokenized(existing, draft, undefined)?.tokenId : undefined
    const id = tokenId ?? (await idFor(tx, deps.envelope, draft))
    const same = owned ? findRetokenized(existing, draft, id) : undefined
    if (same !== undefined) {
      await tx.tokens.updateMeta([retokenizeChange(same, draft, deps.settings.maxTags, now)])
      ids.push(same.tokenId)
      continue
    }
    rows.push({ ...draft.row, tokenId: id })
    ids.push(id)
  }
  await tx.tokens.insert(rows)
  return ids
}
