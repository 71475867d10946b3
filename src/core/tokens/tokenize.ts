// src/core/tokens/tokenize.ts: tokenize (endpoints §4.1): validate all items, store objects, then one transaction
import { randomUUID } from 'node:crypto'
import type { TokenizeRequest } from '../../contract/tokens.ts'
import { propertyChecks } from '../access/checks.ts'
import {
  type AuditDetails,
  NO_DETAILS,
  touchedDetails,
  withFailureDetails,
  withFailureDetailsSync,
  withObjectIds,
} from '../audit/details.ts'
import type { StoredCollection } from '../collections/collection.ts'
import type { RequestContext } from '../context.ts'
import { VaultError } from '../errors.ts'
import type { PolicyCheck } from '../iam/evaluate.ts'
import { tenantForCreate } from '../iam/tenants.ts'
import type { Repos } from '../store.ts'
import { throwFirstError } from '../writes/bulk.ts'
import { parseExpiration } from '../writes/expiration.ts'
import { withTemplateIds } from './custom-template.ts'
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

/** Writes the tokens in `tx`; returns their IDs and the call's details with the objects named. */
type TokenWrite = (
  tx: Repos,
  created: ReadonlyMap<number, string>,
  audit: AuditDetails,
) => Promise<Readonly<{ ids: string[]; audit: AuditDetails }>>

/**
 * Writes the tokens; with `store_object` items, in the same transaction as their new objects,
 * so a token conflict leaves no object behind. Returns the tokens' IDs and item → object id.
 * `audit` is what the call touched so far; the one record also names what the objects did.
 */
async function storeAll(
  deps: TokensDeps,
  ctx: RequestContext,
  call: Readonly<{ name: string; items: readonly TokenizeRequest[]; audit: AuditDetails }>,
  write: TokenWrite,
): Promise<{ ids: string[]; created: ReadonlyMap<number, string> }> {
  const { name, items, audit } = call
  const indexes = items.flatMap((item, i) => (item.store_object === true ? [i] : []))
  if (indexes.length === 0) {
    const written = await deps.audit.transaction(
      ctx,
      (result: Awaited<ReturnType<TokenWrite>>) => result.audit,
      (tx) => write(tx, new Map(), audit),
    )
    return { ids: written.ids, created: new Map() }
  }
  const bodies = indexes.map((i) => items[i]?.object.fields ?? {})
  let ids: string[] = []
  let created = new Map<number, string>()
  const options = { expirationSecs: undefined, isImport: false, exportKey: undefined }
  const result = await deps.objects.addMany(ctx, name, bodies, options, {
    audit,
    run: async (tx, objectIds, sofar) => {
      created = new Map(indexes.map((index, j) => [index, objectIds[j] ?? '']))
      const written = await write(tx, created, sofar)
      ids = written.ids
      return written.audit
    },
  })
  withFailureDetailsSync(result.audit, () => throwFirstError(result.value))
  return { ids, created }
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
  const planned = items.map((item, i) =>
    planItem(collection, deps.ids, item, sources[i] as Source, i),
  )
  deps.iam.checkPolicies(ctx, checksOf(collection, items, planned))
  const audit = touchedDetails(
    NO_DETAILS,
    collection,
    planned.flatMap((p) => p.props),
  )
  return withFailureDetails(audit, () =>
    writePlanned(deps, ctx, { name, collection, items, options, expiry, audit }, planned),
  )
}

/** Checks unique tags, makes custom template IDs, then stores the tokens (and objects). */
async function writePlanned(
  deps: TokensDeps,
  ctx: RequestContext,
  call: Readonly<{
    name: string
    collection: StoredCollection
    items: readonly TokenizeRequest[]
    options: TokenizeOptions
    expiry: ReturnType<typeof parseExpiration>
    audit: AuditDetails
  }>,
  planned: readonly ItemPlan[],
): Promise<TokenValue[]> {
  const { collection, options, expiry } = call
  const txId = options.transactionId
  const singleTenant = tenantForCreate(ctx, undefined)
  await checkUniqueTags(
    deps,
    ctx,
    collection.name,
    planned.map((p) => ({
      tags: p.uniqueTags,
      tenantId: p.source.object?.tenantId ?? singleTenant,
      exceptTokenId: undefined,
    })),
  )
  const plans = await withTemplateIds(deps, ctx, collection, planned)
  const expiresAt = expiry.kind === 'at' ? expiry.at : undefined
  const draftsOf = (created: ReadonlyMap<number, string>) =>
    plans.map(
      (plan): Draft => ({
        plan,
        expiryGiven: options.expirationSecs !== undefined,
        row: rowOf(collection.name, plan, {
          objectId: ownerOf(plan, created),
          tenantId: plan.source.object?.tenantId ?? singleTenant,
          fingerprint:
            plan.type === 'pci' || plan.type === 'pci_oneway' || plan.type === 'deterministic'
              ? fingerprintOf(deps.envelope, { ...plan, collection: collection.name })
              : undefined,
          now: ctx.now,
          expiresAt,
          transactionId: txId,
        }),
      }),
    )
  const { ids, created } = await storeAll(deps, ctx, call, async (tx, created, sofar) => {
    const ready = sealDrafts(deps, collection.name, draftsOf(created))
    const audit = withObjectIds(
      sofar,
      ready.flatMap((d) => (d.row.objectId ? [d.row.objectId] : [])),
    )
    const written = await withFailureDetails(audit, () => writeAll(deps, tx, ready, ctx.now))
    return { ids: written, audit }
  })
  return ids.map((tokenId, i) => {
    const objectId = created.get(i)
    return objectId === undefined
      ? { token_id: tokenId }
      : { token_id: tokenId, object_id: objectId }
  })
}

function rowOf(
  collection: string,
  plan: ItemPlan,
  at: Readonly<{
    objectId: string | undefined
    tenantId: string | undefined
    fingerprint: Uint8Array | undefined
    now: number
    expiresAt: number | undefined
    transactionId: string | undefined
  }>,
): Draft['row'] {
  return {
    rowId: randomUUID(),
    collection,
    type: plan.type,
    scope: plan.scope,
    props: plan.props,
    objectId: at.objectId,
    tenantId: at.tenantId,
    sealed: plan.type !== 'pointer' ? Buffer.alloc(0) : undefined,
    fingerprint: at.fingerprint,
    tags: plan.tags,
    createdAt: at.now,
    modifiedAt: at.now,
    expiresAt: at.expiresAt,
    fptemplate: plan.template,
    fpprops: plan.fpprops,
    transactionId: at.transactionId,
  }
}

/** Seals the data of the drafts that carry some (all but pointer), in one batch. */
function sealDrafts(deps: TokensDeps, collection: string, drafts: readonly Draft[]): Draft[] {
  const sealed = sealTokens(
    deps.envelope,
    drafts
      .filter((d) => d.row.sealed !== undefined)
      .map((d) => ({ collection, rowId: d.row.rowId, values: d.plan.values })),
  )
  let next = 0
  return drafts.map((d) =>
    d.row.sealed === undefined ? d : { ...d, row: { ...d.row, sealed: sealed[next++] } },
  )
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
