// src/core/crypto-api/sources.ts: the objects of encrypt and hash items: stored id, fields, another ciphertext or an earlier item
import type { InputObject } from '../../contract/crypto-api.ts'
import type { StoredCollection } from '../collections/collection.ts'
import type { RequestContext } from '../context.ts'
import type { TypeRegistry } from '../data-types/registry.ts'
import { VaultError } from '../errors.ts'
import type { StoredObjectReader } from '../objects/reader.ts'
import { type CustomTypeFunctions, checkCustomValues } from '../values/custom.ts'
import { type Ciphertexts, decodeBase64 } from './ciphertext.ts'
import { type Values, validateFields } from './fields.ts'
import { assertLifecycle } from './lifecycle.ts'
import { fieldsOf } from './payload.ts'

/** `stored`: read from an object (defaults differ: built-ins, non-null user properties). */
export type ResolvedSource = Readonly<{
  kind: 'stored' | 'given'
  values: Values
  objectId?: string
}>

export type SourceDeps = Readonly<{
  types: TypeRegistry
  /** Custom data types' validators and normalizers, run on `fields`. */
  custom: CustomTypeFunctions
  reader: StoredObjectReader
  ciphertexts: Ciphertexts
}>

type SourceKey = keyof InputObject
const KEYS: readonly SourceKey[] = ['id', 'fields', 'encrypted', 'request_index']

function keyOf(object: InputObject, index: number): SourceKey {
  const present = KEYS.filter((key) => object[key] !== undefined)
  if (present.length === 1) return present[0] as SourceKey
  throw new VaultError('invalidRequest', {
    message: `The object of item ${index} must have exactly one of id, fields, encrypted or request_index.`,
    context: { field: `${index}.object` },
  })
}

function indexesOf(keys: readonly SourceKey[], key: SourceKey): number[] {
  return keys.flatMap((k, index) => (k === key ? [index] : []))
}

/** Opens the `encrypted` sources in one batch; they must belong to this collection and be active. */
function openEncrypted(
  deps: SourceDeps,
  ctx: RequestContext,
  collection: StoredCollection,
  objects: readonly InputObject[],
): Values[] {
  const opened = deps.ciphertexts.openAll(
    objects.map((object) => ({
      bytes: decodeBase64(object.encrypted?.ciphertext ?? ''),
      collection: collection.name,
      scope: object.encrypted?.scope ?? '',
    })),
  )
  return opened.map((item) => {
    assertLifecycle(item.metadata, false, ctx.now)
    return fieldsOf(item.content)
  })
}

function earlier(results: readonly (ResolvedSource | undefined)[], at: number, index: number) {
  const source = index < at ? results[index] : undefined
  if (source !== undefined) return source
  throw new VaultError('invalidRequest', {
    message: `The request_index of item ${at} must name an earlier item of the request.`,
    context: { field: `${at}.object.request_index` },
  })
}

/** Resolves every item's object: stored objects in one read, ciphertexts in one batch. */
export async function resolveSources(
  deps: SourceDeps,
  ctx: RequestContext,
  collection: StoredCollection,
  objects: readonly InputObject[],
): Promise<ResolvedSource[]> {
  const keys = objects.map(keyOf)
  const stored = indexesOf(keys, 'id')
  const read = await deps.reader.read(
    ctx,
    collection,
    stored.map((i) => objects[i]?.id as string),
  )
  const encrypted = indexesOf(keys, 'encrypted')
  const opened = openEncrypted(
    deps,
    ctx,
    collection,
    encrypted.map((i) => objects[i] as InputObject),
  )
  const readAt = new Map(stored.map((i, k) => [i, read[k] as Values]))
  const openedAt = new Map(encrypted.map((i, k) => [i, opened[k] as Values]))
  const results: (ResolvedSource | undefined)[] = []
  for (const [i, key] of keys.entries()) {
    const object = objects[i] as InputObject
    if (key === 'id') {
      const objectId = (object.id as string).toLowerCase()
      results.push({ kind: 'stored', values: readAt.get(i) as Values, objectId })
    } else if (key === 'encrypted')
      results.push({ kind: 'given', values: openedAt.get(i) as Values })
    else if (key === 'fields') {
      const values = validateFields(deps.types, collection, object.fields ?? {})
      results.push({
        kind: 'given',
        values: await checkCustomValues(ctx, deps, collection, values),
      })
    } else results.push(earlier(results, i, object.request_index as number))
  }
  return results as ResolvedSource[]
}
