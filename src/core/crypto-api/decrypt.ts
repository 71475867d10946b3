// src/core/crypto-api/decrypt.ts: decrypt objects (crypto.md §2): fields, transformations, metadata
import type { DecryptedObject, DecryptionRequest } from '../../contract/crypto-api.ts'
import { type Audited, withFailureDetails, withProperties } from '../audit/details.ts'
import type { StoredCollection } from '../collections/collection.ts'
import type { RequestContext } from '../context.ts'
import { formatSeconds, MICROS_PER_SECOND } from '../time.ts'
import { decodeBase64, type Opened } from './ciphertext.ts'
import { assertItemCount, type CryptoDeps, collectionFor, uniqueChecks } from './deps.ts'
import type { Values } from './fields.ts'
import { assertLifecycle } from './lifecycle.ts'
import { fieldsOf } from './payload.ts'
import {
  allFields,
  applyProps,
  assertInFields,
  type PropRequest,
  parseProps,
  propChecks,
} from './transform.ts'

export type DecryptOptions = Readonly<{ archived: boolean; includeMetadata: boolean }>

function metadataOf(opened: Opened, scope: string): DecryptedObject['metadata'] {
  const { expiresAt, tags } = opened.metadata
  return {
    type: opened.type,
    scope,
    expiration: expiresAt === undefined ? null : formatSeconds(expiresAt * MICROS_PER_SECOND),
    tags: [...tags],
  }
}

/** What each item returns: its `props`, or every field of its ciphertext (404 ERR3004 if absent). */
function requestsOf(
  deps: CryptoDeps,
  collection: StoredCollection,
  items: readonly DecryptionRequest[],
  fields: readonly Values[],
): PropRequest[][] {
  return items.map((item, i) => {
    const own = fields[i] ?? {}
    const wanted = item.props
      ? parseProps(deps.types, collection, item.props)
      : allFields(collection, own)
    assertInFields(collection.name, wanted, own)
    return wanted
  })
}

/**
 * Opens every ciphertext (one batch), resolves `props`, checks `decrypt` on each returned
 * property or transformation, then applies the active/archived rule and the transformers.
 * Precedence: 404 collection → 400 ciphertext → 404 props → 403 policy → 400 ERR3233.
 */
export async function decrypt(
  deps: CryptoDeps,
  ctx: RequestContext,
  name: string,
  items: readonly DecryptionRequest[],
  options: DecryptOptions,
): Promise<Audited<DecryptedObject[]>> {
  const { collection, audit: named } = collectionFor(deps, name)
  return withFailureDetails(named, async () => {
    assertItemCount(deps, items.length)
    const scopes = items.map((item) => item.encrypted_object.scope ?? '')
    const opened = deps.ciphertexts.openAll(
      items.map((item, i) => ({
        bytes: decodeBase64(item.encrypted_object.ciphertext),
        collection: collection.name,
        scope: scopes[i] ?? '',
      })),
    )
    const fields = opened.map((item) => fieldsOf(item.content))
    const requests = requestsOf(deps, collection, items, fields)
    const checks = requests.flatMap((wanted) =>
      propChecks('decrypt', collection.name, wanted, options.archived),
    )
    deps.iam.checkPolicies(ctx, uniqueChecks(checks))
    const audit = withProperties(
      named,
      requests.flat().map((request) => request.property),
    )
    return withFailureDetails(audit, async () => {
      for (const item of opened) assertLifecycle(item.metadata, options.archived, ctx.now)
      const transformDeps = { collection, runCustom: deps.runCustomTransformer }
      const value = await Promise.all(
        opened.map(async (item, i) => {
          const output = await applyProps(ctx, transformDeps, requests[i] ?? [], fields[i] ?? {})
          if (!options.includeMetadata) return { fields: output }
          return { fields: output, metadata: metadataOf(item, scopes[i] ?? '') }
        }),
      )
      return { value, audit }
    })
  })
}
