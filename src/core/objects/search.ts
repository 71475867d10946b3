// src/core/objects/search.ts: a search query (match, in, like) → store conditions, and the checks a scan makes
import { findProperty, type StoredCollection } from '../collections/collection.ts'
import { propertyNotFound } from '../collections/errors.ts'
import type { RequestContext } from '../context.ts'
import type { TypeRegistry } from '../data-types/registry.ts'
import { invalidRequest } from '../errors.ts'
import { ownValue } from '../own.ts'
import { hasNul, invalidValue } from '../values/body.ts'
import { hasCustomCheck } from '../values/custom.ts'
import type { ObjectsDeps } from './deps.ts'
import { type Indexing, isIndexed, isSubstringIndexed } from './indexing.ts'
import type { BuiltinColumn, SearchCondition } from './store.ts'
import { type LikePattern, parseLike } from './substring.ts'

export type ObjectsQuery = Readonly<{
  match?: Readonly<Record<string, unknown>>
  in?: Readonly<Record<string, readonly unknown[]>>
  like?: Readonly<Record<string, string>>
}>

export type LikeCheck = Readonly<{ property: string; pattern: LikePattern }>

/**
 * Equality on an encrypted property without a blind index: checked on decrypted values while
 * the collection is scanned. `keys` are the accepted values' comparison keys (`scanKey`).
 */
export type ScanCheck = Readonly<{ property: string; isJson: boolean; keys: ReadonlySet<string> }>

export type SearchPlan = Readonly<{
  conditions: readonly SearchCondition[]
  /** Glob checks on decrypted values: n-grams only narrow the candidates. */
  likes: readonly LikeCheck[]
  /** Equality checks on decrypted values: the objects are scanned in batches (data-model §5.2). */
  scans: readonly ScanCheck[]
  /** Properties named in the query, checked for the `search` policy operation. */
  searched: readonly string[]
  /** The query selects by `id`: no paging (endpoints §3.5). */
  selectsIds: boolean
}>

export type SearchDeps = Readonly<{ types: TypeRegistry; indexing: Indexing }>

/**
 * Distinct `match` and `in` values one query may hold, all members together: each becomes a
 * statement parameter, and the engines refuse statements past their parameter limits (SQLite
 * 32,766, PostgreSQL 65,535). More is 400 ERR1012, as for other requests with too many items.
 */
export const MAX_QUERY_VALUES = 10_000

/**
 * The n-grams of one `like` pattern that narrow the candidates, spread over the pattern: each
 * is one more intersected subquery, and SQLite refuses compound statements past 500 parts. The
 * glob check on decrypted values decides, so using fewer n-grams never changes the results.
 */
export const MAX_LIKE_GRAMS = 32

const COLUMNS: Readonly<Record<string, BuiltinColumn>> = {
  _tenant_id: 'tenant_id',
  _owner_id: 'owner_id',
  _owner_collection: 'owner_collection',
}

function matchesJsonType(jsonType: string, value: unknown): boolean {
  if (jsonType === 'json') return true
  // Integers past 2^53 arrive as strings of digits (data-model §7.1).
  if (jsonType === 'integer')
    return typeof value === 'number' || (typeof value === 'string' && /^-?\d+$/.test(value))
  return typeof value === (jsonType === 'number' ? 'number' : jsonType)
}

/** A query value, validated and normalized like a written one; a wrong JSON type is 400 ERR1012. */
function normalize(
  deps: SearchDeps,
  property: { name: string; dataType: string; isEncrypted: boolean },
  value: unknown,
) {
  if (value === null) return null
  const jsonType =
    property.name === '_owner_collection' ? 'string' : deps.types.jsonType(property.dataType)
  if (!matchesJsonType(jsonType, value))
    throw invalidRequest(
      `A query value of property ${property.name} has the wrong JSON type.`,
      property.name,
    )
  const normalized =
    property.name === '_owner_collection' ? value : deps.types.validate(property, value)
  // Plain columns cannot hold NUL characters (values.ts), so no stored value has one.
  if (!property.isEncrypted && hasNul(normalized))
    throw invalidValue(property.name, 'values kept unencrypted cannot contain NUL characters')
  return normalized
}

function propertyOf(collection: StoredCollection, name: string) {
  if (name.includes('.'))
    throw invalidRequest(
      'Queries on transformation bindings are not supported.',
      name.slice(0, 100),
    )
  const property = findProperty(collection, name)
  if (property === undefined) throw propertyNotFound(collection.name, name)
  return property
}

function notSearchable(name: string, why: string) {
  return invalidRequest(`The property ${name} cannot be searched: ${why}.`, name)
}

/** A JSON value with its object keys sorted: JSON values are equal as JSON, not as text. */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted)
  if (value === null || typeof value !== 'object') return value
  const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return Object.fromEntries(entries.map(([k, v]) => [k, sorted(v)]))
}

/**
 * The comparison key of a normalized value: its JSON text, as the blind index digests it
 * (`blindDigestWith`), so a scan finds what an index would; no value is `null`.
 */
export function scanKey(value: unknown, isJson: boolean): string {
  return JSON.stringify(isJson ? sorted(value ?? null) : (value ?? null))
}

function equality(
  deps: SearchDeps,
  collection: StoredCollection,
  name: string,
  given: readonly unknown[],
): SearchCondition | ScanCheck {
  const property = propertyOf(collection, name)
  const normalized = given.map((value) => normalize(deps, property, value))
  // Repeated values select nothing more; dropping them keeps statements small.
  const values = [...new Map(normalized.map((v) => [JSON.stringify(v), v])).values()]
  if (name === 'id') return { kind: 'ids', ids: values.filter((v): v is string => v !== null) }
  const column = ownValue(COLUMNS, name)
  if (column !== undefined) return { kind: 'column', column, values: values as (string | null)[] }
  if (property.isBuiltin) throw notSearchable(name, 'built-in times are not searchable')
  const stored = collection.properties.find((p) => p.name === name)
  if (stored !== undefined && isIndexed(stored)) {
    const digests = values.map((v) => deps.indexing.blindDigest(collection.name, name, v))
    return { kind: 'digests', property: name, digests }
  }
  if (!property.isEncrypted)
    return { kind: 'plain', property: name, values: values.map((v) => JSON.stringify(v)) }
  const isJson = deps.types.jsonType(property.dataType) === 'json'
  return { property: name, isJson, keys: new Set(values.map((v) => scanKey(v, isJson))) }
}

/** At most `count` items, evenly spaced from first to last. */
function spread<T>(items: readonly T[], count: number): T[] {
  if (items.length <= count) return [...items]
  const step = (items.length - 1) / (count - 1)
  return Array.from({ length: count }, (_, i) => items[Math.round(i * step)] as T)
}

function valueCount(condition: SearchCondition | ScanCheck): number {
  if (!('kind' in condition)) return condition.keys.size
  if (condition.kind === 'ids') return condition.ids.length
  if (condition.kind === 'grams') return 0
  return condition.kind === 'digests' ? condition.digests.length : condition.values.length
}

function like(deps: SearchDeps, collection: StoredCollection, name: string, pattern: string) {
  propertyOf(collection, name)
  const stored = collection.properties.find((p) => p.name === name)
  if (stored === undefined || !isSubstringIndexed(stored))
    throw notSearchable(name, 'like needs an encrypted property with is_substring_index')
  const parsed = parseLike(pattern)
  if (!parsed.ok)
    throw invalidRequest(`The like pattern of ${name} is invalid: ${parsed.reason}.`, name)
  const grams = spread(parsed.pattern.grams, MAX_LIKE_GRAMS).map((g) =>
    deps.indexing.gramDigest(collection.name, name, g),
  )
  const condition: SearchCondition = { kind: 'grams', property: name, grams }
  return { condition, check: { property: name, pattern: parsed.pattern } }
}

/** All members are ANDed; an empty query matches every object of the selected state. */
export function planSearch(
  collection: StoredCollection,
  query: ObjectsQuery,
  deps: SearchDeps,
): SearchPlan {
  const conditions: SearchCondition[] = []
  const likes: LikeCheck[] = []
  const scans: ScanCheck[] = []
  const equalities = [
    ...Object.entries(query.match ?? {}).map(([name, value]) => [name, [value]] as const),
    ...Object.entries(query.in ?? {}),
  ]
  for (const [name, values] of equalities) {
    const planned = equality(deps, collection, name, values)
    if ('kind' in planned) conditions.push(planned)
    else scans.push(planned)
  }
  for (const [name, pattern] of Object.entries(query.like ?? {})) {
    const planned = like(deps, collection, name, pattern)
    conditions.push(planned.condition)
    likes.push(planned.check)
  }
  if ([...conditions, ...scans].reduce((sum, c) => sum + valueCount(c), 0) > MAX_QUERY_VALUES)
    throw invalidRequest(`A query may hold at most ${MAX_QUERY_VALUES} values.`, 'body')
  const searched = [
    ...new Set([query.match, query.in, query.like].flatMap((m) => Object.keys(m ?? {}))),
  ]
  const selectsIds = conditions.some((c) => c.kind === 'ids')
  return { conditions, likes, scans, searched, selectsIds }
}

/**
 * `match` and `in` values of custom-typed properties through the type's validator and normalizer
 * first (the base type runs again in planSearch), so a query finds the stored normalized value.
 */
export async function withCustomQueryValues(
  ctx: RequestContext,
  deps: Pick<ObjectsDeps, 'types' | 'custom'>,
  collection: StoredCollection,
  query: ObjectsQuery,
): Promise<ObjectsQuery> {
  const lists: Record<string, readonly unknown[]> = {}
  for (const [name, value] of Object.entries(query.match ?? {})) lists[`m:${name}`] = [value]
  for (const [name, values] of Object.entries(query.in ?? {}))
    if (Array.isArray(values)) lists[`i:${name}`] = values
  const result = { match: { ...query.match }, in: { ...query.in } }
  for (const [key, values] of Object.entries(lists)) {
    const name = key.slice(2)
    const property = collection.properties.find((p) => p.name === name)
    if (property === undefined || !hasCustomCheck(deps.types, property.dataType)) continue
    const given = values.filter((v) => v !== null).map((v) => deps.types.validate(property, v))
    const checked = await deps.custom.check(ctx, property, given)
    const normalized = checked.map((c) => {
      if (!c.ok) throw c.error
      return c.value
    })
    if (key.startsWith('m:')) result.match[name] = values[0] === null ? null : normalized[0]
    else result.in[name] = [...normalized, ...values.filter((v) => v === null)]
  }
  return {
    ...query,
    ...(query.match ? { match: result.match } : {}),
    ...(query.in ? { in: result.in } : {}),
  }
}
