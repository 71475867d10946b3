// src/core/tokens/write.ts: the transaction of tokenize: claim IDs race-free, re-tokenize, insert rows

import type { Envelope } from '../crypto/envelope.ts'
import { VaultError } from '../errors.ts'
import type { Repos } from '../store.ts'
import type { Micros } from '../time.ts'
import { tokenIdUsed } from './errors.ts'
import { fingerprintOf, randomId, reuseNamespace } from './ids.ts'
import type { ItemPlan } from './plan.ts'
import type { TokenRecord } from './store.ts'

/** A planned row: everything but the token ID, which the transaction decides. */
export type Draft = Readonly<{
  plan: ItemPlan
  row: Omit<TokenRecord, 'tokenId'>
  expiryGiven: boolean
}>

const isPci = (plan: ItemPlan) => plan.type === 'pci' || plan.type === 'pci_oneway'
const sameProps = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((p) => b.includes(p))

async function claimOne(tx: Repos, draft: Draft): Promise<string> {
  const { plan, row } = draft
  for (;;) {
    const id = plan.givenId ?? (plan.nextId ? await plan.nextId() : randomId(plan))
    const taken = await tx.tokens.claimIds(row.collection, [{ tokenId: id, type: plan.type }])
    if (taken.size === 0) return id
    if (plan.givenId !== undefined) throw tokenIdUsed(id)
  }
}

/** pci: the ID holding the fingerprint, else a new claimed one; the reuse row decides races. */
async function pciId(tx: Repos, envelope: Envelope, draft: Draft): Promise<string> {
  const { plan, row } = draft
  const namespace = reuseNamespace(row.collection, plan.scope)
  const fingerprint =
    row.fingerprint ?? fingerprintOf(envelope, { ...plan, collection: row.collection })
  const existing = await tx.tokens.findReuse(namespace, fingerprint)
  if (existing !== undefined) {
    refuseOtherGivenId(draft, existing)
    await tx.tokens.claimIds(row.collection, [{ tokenId: existing, type: plan.type }])
    return existing
  }
  const candidate = await claimOne(tx, draft)
  // A concurrent call may have claimed the fingerprint first: its ID wins, and a different
  // given token_id is refused (the transaction rolls back what this call claimed).
  const winner = await tx.tokens.claimReuse(namespace, fingerprint, candidate)
  if (winner !== candidate) {
    refuseOtherGivenId(draft, winner)
    await tx.tokens.claimIds(row.collection, [{ tokenId: winner, type: plan.type }])
  }
  return winner
}

/**
 * tokens.md §2: values that already have a pci token keep its ID; a request naming another
 * `token_id` for them is refused (409 ERR9001) instead of creating a second ID for one value.
 */
function refuseOtherGivenId(draft: Draft, holder: string): void {
  const given = draft.plan.givenId
  if (given === undefined || given === holder) return
  throw new VaultError('alreadyExists', {
    message: `Equal values already have a ${draft.plan.type} token in this collection and scope under another ID; send that token's ID as token_id, or no token_id.`,
    context: { token_id: given.slice(0, 128), field: `[${draft.plan.index}].token_id` },
  })
}

async function deterministicClaim(tx: Repos, draft: Draft): Promise<string> {
  const id = draft.plan.derivedId as string
  const taken = await tx.tokens.claimIds(draft.row.collection, [
    { tokenId: id, type: 'deterministic' },
  ])
  if (taken.size > 0 && (await tx.tokens.claimedType(draft.row.collection, id)) !== 'deterministic')
    throw tokenIdUsed(id)
  return id
}

export async function idFor(tx: Repos, envelope: Envelope, draft: Draft): Promise<string> {
  if (draft.plan.type === 'deterministic') return deterministicClaim(tx, draft)
  if (isPci(draft.plan)) return pciId(tx, envelope, draft)
  return claimOne(tx, draft)
}

/** The existing token re-tokenizing object+props would create, if any (tokens.md §3). */
export function findRetokenized(
  existing: readonly TokenRecord[],
  draft: Draft,
  tokenId: string | undefined,
): TokenRecord | undefined {
  const { plan, row } = draft
  return existing.find(
    (t) =>
      t.objectId === row.objectId &&
      t.type === plan.type &&
      t.scope === plan.scope &&
      sameProps(t.props, plan.props) &&
      (tokenId === undefined || t.tokenId === tokenId),
  )
}

/** Appends tags (deduplicated, within the limit) and moves the expiry as the seed says. */
export function retokenizeChange(current: TokenRecord, draft: Draft, maxTags: number, now: Micros) {
  const tags = [...new Set([...current.tags, ...draft.plan.tags])]
  if (tags.length > maxTags)
    throw new VaultError('invalidRequest', {
      message: `At most ${maxTags} tags are allowed.`,
      context: { field: `[${draft.plan.index}].tags` },
    })
  const wanted = draft.row.expiresAt
  const later =
    current.expiresAt !== undefined && (wanted === undefined || wanted > current.expiresAt)
  const expiresAt = draft.expiryGiven || later ? wanted : current.expiresAt
  return { rowId: current.rowId, tags, expiresAt, modifiedAt: now }
}
