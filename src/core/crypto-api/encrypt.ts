// src/core/crypto-api/encrypt.ts: encrypt objects and update encrypted (crypto.md §1 and §3)

import type { EncryptionRequest, UpdateEncryptionRequest } from '../../contract/crypto-api.ts'
import {
  type AuditDetails,
  type Audited,
  appendObjectIds,
  withFailureDetails,
  withFailureDetailsSync,
  withProperties,
} from '../audit/details.ts'
import type { StoredCollection } from '../collections/collection.ts'
import type { RequestContext } from '../context.ts'
import { checkCustomValues } from '../values/custom.ts'
import { decodeBase64, type EncryptionType, type Opened } from './ciphertext.ts'
import { assertItemCount, type CryptoDeps, collectionFor, propertyChecks, tagsFor } from './deps.ts'
import { selectProps, type Values, validateFields } from './fields.ts'
import { assertLifecycle, expiryOf } from './lifecycle.ts'
import { fieldsOf } from './payload.ts'
import { resolveSources } from './sources.ts'

/** A ciphertext to produce: its values, type, scope and tags; the expiry is per call. */
type Planned = Readonly<{ values: Values; type: EncryptionType; scope: string; tags: string[] }>

type Sealing = Readonly<{
  collection: StoredCollection
  expiresAt: number | undefined
  /** What the call touched so far; the sealed properties are added. */
  audit: AuditDetails
}>

/** Seals the planned ciphertexts in one batch after the `encrypt` policy check on every property. */
function sealPlanned(
  deps: CryptoDeps,
  ctx: RequestContext,
  { collection, expiresAt, audit: before }: Sealing,
  planned: readonly Planned[],
): Audited<{ ciphertext: string }[]> {
  const names = planned.flatMap((item) => Object.keys(item.values))
  withFailureDetailsSync(before, () =>
    deps.iam.checkPolicies(ctx, propertyChecks('encrypt', collection, names)),
  )
  const audit = withProperties(before, names)
  const sealed = withFailureDetailsSync(audit, () =>
    deps.ciphertexts.sealAll(
      planned.map((item) => ({
        collection: collection.name,
        scope: item.scope,
        type: item.type,
        payload: {
          metadata: {
            expiresAt,
            tags: item.tags,
            createdAt: item.type === 'randomized' ? ctx.now : undefined,
          },
          content: { kind: 'fields', fields: item.values },
        },
      })),
    ),
  )
  return { value: sealed.map((bytes) => ({ ciphertext: bytes.toString('base64') })), audit }
}

/**
 * Encrypt objects: every item's object (stored, fields, ciphertext or an earlier item), reduced
 * to `props`, sealed with its type and scope. Atomic: any failing item fails the call.
 */
export async function encrypt(
  deps: CryptoDeps,
  ctx: RequestContext,
  name: string,
  items: readonly EncryptionRequest[],
  expiration: string | undefined,
): Promise<Audited<{ ciphertext: string }[]>> {
  const { collection, audit: named } = collectionFor(deps, name)
  return withFailureDetails(named, async () => {
    assertItemCount(deps, items.length)
    const expiresAt = expiryOf(expiration, deps.limits.tokenExpirationSecs, ctx.now)
    const types = items.map((item) => item.type ?? 'randomized')
    const tags = items.map((item, i) =>
      tagsFor(deps, types[i] ?? 'randomized', item.tags, `${i}.tags`),
    )
    const sources = await resolveSources(
      deps,
      ctx,
      collection,
      items.map((item) => item.object),
    )
    const planned = items.map((item, i) => {
      const source = sources[i]?.values ?? {}
      const values = item.props ? selectProps(collection, source, item.props) : { ...source }
      return {
        values,
        type: types[i] ?? 'randomized',
        scope: item.scope ?? '',
        tags: tags[i] ?? [],
      }
    })
    const audit = appendObjectIds(
      named,
      sources.flatMap((source) => (source.objectId ? [source.objectId] : [])),
    )
    return sealPlanned(deps, ctx, { collection, expiresAt, audit }, planned)
  })
}

/** The source's fields with `fields` laid over them (validated; `null` removes a property). */
async function overlay(
  deps: CryptoDeps,
  ctx: RequestContext,
  collection: StoredCollection,
  source: Opened,
  fields: Readonly<Values>,
): Promise<Values> {
  const given = validateFields(deps.types, collection, fields)
  const merged = {
    ...fieldsOf(source.content),
    ...(await checkCustomValues(ctx, deps, collection, given)),
  }
  for (const [name, value] of Object.entries(fields)) if (value === null) delete merged[name]
  return merged
}

export type UpdateOptions = Readonly<{ archived: boolean; expiration: string | undefined }>

/**
 * Update encrypted: opens each source (with `encrypted_object.scope`, default ""), overlays
 * `fields`, keeps `props`, and re-encrypts with `type`/`scope` defaulting to the source's. Tags
 * are kept, except on a deterministic result, which cannot carry any.
 */
export async function updateEncrypted(
  deps: CryptoDeps,
  ctx: RequestContext,
  name: string,
  items: readonly UpdateEncryptionRequest[],
  options: UpdateOptions,
): Promise<Audited<{ ciphertext: string }[]>> {
  const { collection, audit } = collectionFor(deps, name)
  return withFailureDetails(audit, async () => {
    assertItemCount(deps, items.length)
    const expiresAt = expiryOf(options.expiration, deps.limits.tokenExpirationSecs, ctx.now)
    const sources = deps.ciphertexts.openAll(
      items.map((item) => ({
        bytes: decodeBase64(item.encrypted_object.ciphertext),
        collection: collection.name,
        scope: item.encrypted_object.scope ?? '',
      })),
    )
    const planned = []
    for (const [i, item] of items.entries()) {
      const source = sources[i] as Opened
      const merged = await overlay(deps, ctx, collection, source, item.fields)
      const values = item.props ? selectProps(collection, merged, item.props) : merged
      const type = item.type ?? source.type
      const tags = type === 'deterministic' ? [] : [...source.metadata.tags]
      planned.push({ values, type, scope: item.scope ?? item.encrypted_object.scope ?? '', tags })
    }
    const names = planned.flatMap((item) => Object.keys(item.values))
    deps.iam.checkPolicies(ctx, propertyChecks('decrypt', collection, names, options.archived))
    for (const source of sources) assertLifecycle(source.metadata, options.archived, ctx.now)
    return sealPlanned(deps, ctx, { collection, expiresAt, audit }, planned)
  })
}
