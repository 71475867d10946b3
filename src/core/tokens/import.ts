// src/core/tokens/import.ts: exported token data loaded into a collection (endpoints §4.10, tokens.md §14), atomically
import { randomUUID } from 'node:crypto'
import type { TokenData } from '../../contract/tokens.ts'
import { NO_DETAILS, touchedDetails, withFailureDetails } from '../audit/details.ts'
import type { StoredCollection } from '../collections/collection.ts'
import type { RequestContext } from '../context.ts'
import { notInMemoryMode, VaultError } from '../errors.ts'
import { tokensResource } from '../iam/policy.ts'
import { tenantForCreate } from '../iam/tenants.ts'
import type { Repos } from '../store.ts'
import type { Micros } from '../time.ts'
import { importValues } from '../values/export.ts'
import { attempt, BatchRejected, type ItemErrors } from '../writes/bulk.ts'
import type { TokensDeps } from './deps.ts'
import { invalidItem, tokenIdUsed } from './errors.ts'
import { fingerprintOf, reuseNamespace } from './ids.ts'
import { sealTokens } from './records.ts'
import type { TokenRecord } from './store.ts'

type Values = Record<string, unknown>

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export type ImportResult = Readonly<{
  ok: boolean
  results: readonly Readonly<{ token_id: string; ok: boolean; error?: VaultError }>[]
}>

function timeOf(raw: string | undefined, field: string): Micros | undefined {
  if (raw === undefined) return undefined
  const millis = Date.parse(raw)
  if (Number.isNaN(millis)) throw invalidItem('The time is not in RFC 3339 format.', field)
  return millis * 1000
}

/** The item's shape rules; throws a per-item 400 for what import does not support. */
function checkItem(collection: StoredCollection, item: TokenData, index: number, maxTags: number) {
  const field = `[${index}]`
  if (item.object_id !== undefined && !UUID.test(item.object_id))
    throw invalidItem('The object_id must be a UUID.', `${field}.object_id`)
  if ((item.tags?.length ?? 0) > maxTags)
    throw invalidItem(`At most ${maxTags} tags are allowed.`, `${field}.tags`)
  if (item.token_type === 'pci_oneway' || item.token_type === 'deterministic')
    throw invalidItem(
      `Tokens of type ${item.token_type} cannot be imported.`,
      `${field}.token_type`,
    )
  if (item.token_id.length === 0 || item.token_id.length > 128)
    throw invalidItem('The token_id must have 1 to 128 characters.', `${field}.token_id`)
  const known = new Set(collection.properties.map((p) => p.name))
  if (item.props.length === 0 || item.props.some((p) => !known.has(p)))
    throw invalidItem('The props must be properties of the collection.', `${field}.props`)
  if (item.token_type === 'pointer') {
    if (item.object_id === undefined || item.fields !== undefined)
      throw invalidItem('A pointer token needs object_id and no fields.', field)
    return
  }
  const keys = Object.keys(item.fields ?? {})
  if (item.fields === undefined || keys.some((k) => !item.props.includes(k)))
    throw invalidItem('The fields must be among the props of the token.', `${field}.fields`)
}

/**
 * A token's effective tenant is its owner's; a token without an owner keeps the single tenant of
 * the import call's X-Tenant-Id, as tokenize gives it (tokens.md §1).
 */
function rowOf(
  collection: string,
  item: TokenData,
  now: Micros,
  index: number,
  tenantId: string | undefined,
): TokenRecord {
  const expiresAt = timeOf(item.expiration?.expiration_time ?? undefined, `[${index}].expiration`)
  return {
    rowId: randomUUID(),
    collection,
    tokenId: item.token_id,
    type: item.token_type,
    scope: item.scope,
    props: [...new Set(item.props)],
    objectId: item.object_id,
    tenantId,
    sealed: undefined,
    fingerprint: undefined,
    tags: [...new Set(item.tags ?? [])],
    createdAt: timeOf(item.created_at, `[${index}].created_at`) ?? now,
    modifiedAt: timeOf(item.modified_at, `[${index}].modified_at`) ?? now,
    expiresAt,
    fptemplate: item.fptemplate,
    fpprops: undefined,
    transactionId: undefined,
  }
}

function pciTaken(tokenId: string): VaultError {
  return new VaultError('alreadyExists', {
    message: 'A pci token for the same data already exists.',
    context: { token_id: tokenId.slice(0, 128) },
  })
}

/** Claims each row's ID (and pci fingerprint); conflicts become item errors and roll back all. */
async function writeRows(tx: Repos, rows: ReadonlyMap<number, TokenRecord>, errors: ItemErrors) {
  for (const [index, row] of rows) {
    const taken = await tx.tokens.claimIds(row.collection, [
      { tokenId: row.tokenId, type: row.type },
    ])
    if (taken.size > 0) {
      errors.set(index, tokenIdUsed(row.tokenId))
      continue
    }
    if (row.type !== 'pci' || row.fingerprint === undefined) continue
    const namespace = reuseNamespace(row.collection, row.scope)
    if ((await tx.tokens.claimReuse(namespace, row.fingerprint, row.tokenId)) !== row.tokenId)
      errors.set(index, pciTaken(row.tokenId))
  }
  if (errors.size > 0) throw new BatchRejected(errors)
  await tx.tokens.insert([...rows.values()])
}

async function openFields(
  deps: TokensDeps,
  exportKey: string | undefined,
  rows: ReadonlyMap<number, TokenRecord>,
  items: readonly TokenData[],
): Promise<Map<number, Values>> {
  const indexes = [...rows.keys()].filter((i) => items[i]?.token_type !== 'pointer')
  if (indexes.length === 0) return new Map()
  if (exportKey === undefined) throw invalidItem('The export_key is required.', 'export_key')
  const opened = await importValues(
    deps.exportKeys,
    exportKey,
    indexes.map((i) => items[i]?.fields ?? {}),
  )
  return new Map(indexes.map((index, j) => [index, opened[j] ?? {}]))
}

/** Imports exported tokens under their IDs; any failed item fails the whole import. */
export async function importTokens(
  deps: TokensDeps,
  ctx: RequestContext,
  name: string,
  items: readonly TokenData[],
  exportKey: string | undefined,
): Promise<ImportResult> {
  if (deps.store.isMemory) throw notInMemoryMode('Importing tokens')
  const collection = deps.collections.getCachedOrThrow(name)
  deps.iam.checkPolicies(ctx, [{ operation: 'write', resources: tokensResource(collection.name) }])
  const details = touchedDetails(NO_DETAILS, collection)
  return withFailureDetails(details, async () => {
    const singleTenant = tenantForCreate(ctx, undefined)
    const errors: ItemErrors = new Map()
    const seen = new Set<string>()
    const rows = new Map<number, TokenRecord>()
    for (const [index, item] of items.entries()) {
      const row = attempt(errors, index, () => {
        checkItem(collection, item, index, deps.settings.maxTags)
        if (seen.has(item.token_id)) throw tokenIdUsed(item.token_id)
        return rowOf(collection.name, item, ctx.now, index, singleTenant)
      })
      seen.add(item.token_id)
      if (row !== undefined) rows.set(index, row)
    }
    const values = await openFields(deps, exportKey, rows, items)
    const sealed = sealTokens(
      deps.envelope,
      [...values].map(([index, v]) => ({
        collection: collection.name,
        rowId: (rows.get(index) as TokenRecord).rowId,
        values: v,
      })),
    )
    for (const [j, [index, v]] of [...values].entries()) {
      const row = rows.get(index) as TokenRecord
      const fingerprint =
        row.type === 'pci'
          ? fingerprintOf(deps.envelope, {
              collection: collection.name,
              scope: row.scope,
              values: v,
              template: row.fptemplate,
              card: undefined,
            })
          : undefined
      rows.set(index, { ...row, sealed: sealed[j], fingerprint })
    }
    try {
      // Conflicts are looked for even when some items already failed, so all are reported.
      await deps.audit.transaction(ctx, details, (tx) => writeRows(tx, rows, errors))
    } catch (error) {
      if (!(error instanceof BatchRejected)) throw error
      // Nothing was written: the call, which answers each item's error, is recorded on its own.
      await deps.audit.record(ctx, details, { status: 200 })
    }
    const results = items.map((item, index) => {
      const error = errors.get(index)
      return error === undefined
        ? { token_id: item.token_id, ok: true }
        : { token_id: item.token_id, ok: false, error }
    })
    return { ok: errors.size === 0, results }
  })
}
