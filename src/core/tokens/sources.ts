// src/core/tokens/sources.ts: the values each tokenize item stands for: fields, a stored object, a ciphertext or another item's object
import type { InputObject } from '../../contract/tokens.ts'
import { findProperty, type StoredCollection } from '../collections/collection.ts'
import { propertyNotFound } from '../collections/errors.ts'
import type { RequestContext } from '../context.ts'
import { decodeBase64 } from '../crypto-api/ciphertext.ts'
import { fieldsOf } from '../crypto-api/payload.ts'
import { isVaultError } from '../errors.ts'
import type { ObjectRecord } from '../objects/store.ts'
import { readObjectBody } from '../values/body.ts'
import { checkCustomValues } from '../values/custom.ts'
import type { TokensDeps } from './deps.ts'
import { invalidItem, invalidTokenizeValue } from './errors.ts'
import { sourceKindOf } from './request.ts'

type Values = Record<string, unknown>

/** What an item tokenizes: all values available, and the owning object when there is one. */
export type Source = Readonly<{
  values: Values
  object: ObjectRecord | undefined
  /** The item's `fields` to store as a new object (`store_object`). */
  toStore: Values | undefined
  isEncrypted: boolean
  /** The earlier item whose object this one shares (`request_index`). */
  refersTo?: number
}>

/** Validates and normalizes `fields` like an object write; invalid values are 404 ERR3003. */
export function readFields(deps: TokensDeps, collection: StoredCollection, fields: Values): Values {
  try {
    const rules = { types: deps.types, isImport: false, isCreate: false }
    const input = readObjectBody(collection, fields, rules)
    for (const name of input.names)
      if (findProperty(collection, name) === undefined || name.startsWith('_'))
        throw propertyNotFound(collection.name, name)
    return { ...input.values }
  } catch (error) {
    if (isVaultError(error) && error.errorName === 'invalidPropertyValue')
      throw invalidTokenizeValue(error.context.property ?? '', 'it does not conform to its type')
    throw error
  }
}

function openCiphertexts(deps: TokensDeps, collection: string, objects: readonly InputObject[]) {
  const items = objects.flatMap((o) => (o.encrypted ? [o.encrypted] : []))
  const opened = deps.ciphertexts.openAll(
    items.map((e) => ({ bytes: decodeBase64(e.ciphertext), collection, scope: e.scope ?? '' })),
  )
  return opened.map((o) => fieldsOf(o.content))
}

/** Resolves every item's source in request order (one object read, one ciphertext batch). */
export async function resolveSources(
  deps: TokensDeps,
  ctx: RequestContext,
  collection: StoredCollection,
  objects: readonly InputObject[],
): Promise<Source[]> {
  const stored = await deps.reader.load(
    ctx,
    collection,
    objects.flatMap((o) => (o.id === undefined ? [] : [o.id])),
  )
  const decrypted = openCiphertexts(deps, collection.name, objects)
  let nextCipher = 0
  const sources: Source[] = []
  for (const [i, object] of objects.entries()) {
    const kind = sourceKindOf(object, `[${i}].object`)
    if (kind === 'id') {
      const found = stored.get((object.id as string).toLowerCase())
      sources.push({
        values: found?.values ?? {},
        object: found?.record,
        toStore: undefined,
        isEncrypted: false,
      })
    } else if (kind === 'fields') {
      const read = readFields(deps, collection, object.fields ?? {})
      const values = await checkCustomValues(ctx, deps, collection, read)
      sources.push({ values, object: undefined, toStore: object.fields, isEncrypted: false })
    } else if (kind === 'encrypted') {
      const values = readFields(deps, collection, decrypted[nextCipher++] ?? {})
      sources.push({ values, object: undefined, toStore: undefined, isEncrypted: true })
    } else sources.push(referTo(sources, object.request_index as number, i))
  }
  return sources
}

/** `request_index`: an earlier item with `fields` or `id`; it shares that item's object. */
function referTo(sources: readonly Source[], target: number, index: number): Source {
  const source = target >= 0 && target < index ? sources[target] : undefined
  if (source === undefined || source.isEncrypted)
    throw invalidItem(
      'The request_index must point to an earlier item with fields or id.',
      `[${index}].object.request_index`,
    )
  return { ...source, toStore: undefined, refersTo: source.refersTo ?? target }
}
