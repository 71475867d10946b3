// src/core/actions/identifiers.ts: global identifiers `pvlt:<operation>:<collection>:<property>:<id>:` (data-model §10.3)

import {
  type AuditDetails,
  type Audited,
  carryDetails,
  withFailureDetailsSync,
} from '../audit/details.ts'
import type { StoredCollection } from '../collections/collection.ts'
import { findProperty } from '../collections/collection.ts'
import type { CollectionsService } from '../collections/collections.ts'
import type { RequestContext } from '../context.ts'
import type { CryptoService } from '../crypto-api/crypto-api.ts'
import type { TypeRegistry } from '../data-types/registry.ts'
import { VaultError } from '../errors.ts'
import type { IamService } from '../iam/iam.ts'
import { propertyResources } from '../iam/policy.ts'
import type { ObjectsService } from '../objects/objects.ts'
import { ownValue } from '../own.ts'
import type { TokensService } from '../tokens/tokens.ts'

export const IDENTIFIER_OPERATIONS = ['read_object', 'detokenize', 'decrypt_object'] as const

export type GlobalIdentifier = Readonly<{
  operation: (typeof IDENTIFIER_OPERATIONS)[number]
  collection: string
  /** `''` for the whole object / all fields; may be `<prop>.<transformer>`. */
  property: string
  id: string
  /** The trailing segment: the scope of `decrypt_object`, else empty. */
  scope: string
}>

/** A resolved value, and whether it carries payment card data (CC_NUMBER, CC_CVV) raw. */
export type Resolved = Readonly<{ value: unknown; isPci: boolean }>

export function invalidIdentifier(key: string, why: string): VaultError {
  return new VaultError('invalidRequest', {
    message: `The global identifier of ${key} is invalid: ${why}.`,
    context: { variable: key.slice(0, 100) },
  })
}

/** Parses `pvlt:<operation>:<collection>:<property>:<id>:<scope>`; 400 ERR1012 naming the key. */
export function parseIdentifier(key: string, text: string): GlobalIdentifier {
  const parts = text.split(':')
  if (parts.length < 6 || parts[0] !== 'pvlt')
    throw invalidIdentifier(key, 'expected pvlt:<operation>:<collection>:<property>:<id>:')
  const [, operation = '', collection = '', property = ''] = parts
  if (!(IDENTIFIER_OPERATIONS as readonly string[]).includes(operation))
    throw invalidIdentifier(key, `the operation must be one of ${IDENTIFIER_OPERATIONS.join(', ')}`)
  const id = parts.slice(4, -1).join(':')
  if (collection === '' || id === '')
    throw invalidIdentifier(key, 'the collection and the id are required')
  return {
    operation: operation as GlobalIdentifier['operation'],
    collection,
    property,
    id,
    scope: parts.at(-1) ?? '',
  }
}

const PCI_TYPES = new Set(['CC_NUMBER', 'CC_CVV'])

export type ResolverDeps = Readonly<{
  collections: CollectionsService
  types: TypeRegistry
  iam: IamService
  objects: ObjectsService
  tokens: TokensService
  crypto: CryptoService
}>

/** Whether the untransformed value of `key` (a property, or `prop.transformer`) is card data. */
function isPciKey(deps: ResolverDeps, collection: StoredCollection, key: string): boolean {
  if (key.includes('.')) return false
  const property = findProperty(collection, key)
  return property !== undefined && PCI_TYPES.has(deps.types.getOrThrow(property.dataType).base.name)
}

function isPciFields(deps: ResolverDeps, collection: StoredCollection, fields: unknown): boolean {
  if (fields === null || typeof fields !== 'object') return false
  return Object.keys(fields).some((key) => isPciKey(deps, collection, key))
}

function readCheck(collection: StoredCollection, name: string) {
  const type = findProperty(collection, name)?.dataType ?? ''
  const resources = propertyResources({ collection: collection.name, property: name, type })
  return { operation: 'read', resources }
}

/** The properties of the collection this context may read (a whole-object `read_object`). */
function readableProps(deps: ResolverDeps, ctx: RequestContext, collection: StoredCollection) {
  const names = ['id', ...collection.properties.map((p) => p.name)]
  return names.filter((name) => {
    try {
      deps.iam.checkPolicies(ctx, [readCheck(collection, name)])
      return true
    } catch {
      return false
    }
  })
}

/** What one identifier's operation found, and the details of the service call that found it. */
type Found = Readonly<{ collection: StoredCollection; fields: unknown; audit: AuditDetails }>

async function readObject(
  deps: ResolverDeps,
  ctx: RequestContext,
  id: GlobalIdentifier,
): Promise<Found> {
  deps.iam.authorize(ctx, 'get_object')
  const collection = deps.collections.getCachedOrThrow(id.collection)
  const props = id.property === '' ? readableProps(deps, ctx, collection) : [id.property]
  // Nothing readable: the denial of `id` is the answer (403 ERR1006 naming it).
  if (props.length === 0) deps.iam.checkPolicies(ctx, [readCheck(collection, 'id')])
  const found = await deps.objects.get(ctx, id.collection, id.id, { props, options: [] })
  return { collection, fields: found.value, audit: found.audit }
}

async function detokenize(
  deps: ResolverDeps,
  ctx: RequestContext,
  id: GlobalIdentifier,
): Promise<Found> {
  deps.iam.authorize(ctx, 'detokenize')
  const collection = deps.collections.getCachedOrThrow(id.collection)
  const props = id.property === '' ? undefined : [id.property]
  const options = { props, includeMetadata: false, includeAggregate: false }
  const found = await deps.tokens.detokenize(ctx, id.collection, { tokenIds: [id.id] }, options)
  const [token] = found.value
  if (token === undefined) {
    // Touched all the same: the record of the failure names what the detokenize did.
    const error = new VaultError('tokenNotFound', {
      message: 'No token matched the global identifier.',
      context: { collection: id.collection },
    })
    throw carryDetails(error, found.audit)
  }
  return { collection, fields: token.fields, audit: found.audit }
}

async function decryptObject(
  deps: ResolverDeps,
  ctx: RequestContext,
  id: GlobalIdentifier,
): Promise<Found> {
  deps.iam.authorize(ctx, 'decrypt')
  const collection = deps.collections.getCachedOrThrow(id.collection)
  const item = {
    encrypted_object: { ciphertext: id.id, ...(id.scope === '' ? {} : { scope: id.scope }) },
    ...(id.property === '' ? {} : { props: [id.property] }),
  }
  const found = await deps.crypto.decrypt(ctx, id.collection, [item], {
    archived: false,
    includeMetadata: false,
  })
  return { collection, fields: found.value[0]?.fields ?? {}, audit: found.audit }
}

const OPERATIONS = { read_object: readObject, detokenize, decrypt_object: decryptObject }

/**
 * Resolves one identifier with the context's role, through the same service call (and so the
 * same capability, policy, tenant and audit rules) as the matching REST operation; the details
 * are what that call touched (a failure carries them).
 */
export async function resolveIdentifier(
  deps: ResolverDeps,
  ctx: RequestContext,
  id: GlobalIdentifier,
): Promise<Audited<Resolved>> {
  const { collection, fields, audit } = await OPERATIONS[id.operation](deps, ctx, id)
  return withFailureDetailsSync(audit, () => {
    if (id.property === '')
      return { value: { value: fields, isPci: isPciFields(deps, collection, fields) }, audit }
    const value = ownValue(fields as Record<string, unknown>, id.property) ?? null
    return { value: { value, isPci: isPciKey(deps, collection, id.property) }, audit }
  })
}
