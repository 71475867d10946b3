// src/core/objects/render.ts: turns stored rows into the maps a read answers, opening only what is asked for

import type { StoredCollection } from '../collections/collection.ts'
import type { RequestContext } from '../context.ts'
import type { Envelope } from '../crypto/envelope.ts'
import type { ResolvedTransformer } from '../data-types/registry.ts'
import { ownValue } from '../own.ts'
import { formatNano } from '../time.ts'
import type { CustomTypeFunctions } from '../values/custom.ts'
import type { TokenLookup } from './deps.ts'
import type { ReadItem, ReadPlan } from './read.ts'
import { recordValues } from './records.ts'
import type { ObjectRecord } from './store.ts'

export type RenderDeps = Readonly<{
  envelope: Envelope
  tokens: TokenLookup
  custom: CustomTypeFunctions
}>

type Fields = Record<string, unknown>

/** Built-in values come from the row's columns; times in RFC 3339 with nanoseconds. */
function builtinValue(record: ObjectRecord, name: string): unknown {
  switch (name) {
    case 'id':
      return record.id
    case '_owner_id':
      return record.ownerId ?? null
    case '_owner_collection':
      return record.ownerCollection ?? null
    case '_tenant_id':
      return record.tenantId ?? null
    case '_creation_time':
      return formatNano(record.createdAt)
    case '_modification_time':
      return formatNano(record.modifiedAt)
    case '_expiration_time':
      return record.expiresAt === undefined ? null : formatNano(record.expiresAt)
  }
  return null
}

type Custom = Extract<ResolvedTransformer, { kind: 'custom' }>

async function transform(
  ctx: RequestContext,
  deps: RenderDeps,
  item: ReadItem,
  input: { value: unknown; record: ObjectRecord },
): Promise<unknown> {
  const transformer = item.transformer?.resolved
  if (transformer === undefined) return input.value
  if (transformer.kind === 'value')
    return transformer.apply(input.value, { now: ctx.now, param: ctx.transParam })
  const { record } = input
  return deps.tokens.pciTokenFor(ctx, record.collection, record.id, item.property.name)
}

/** The properties custom transformers read in their `object` argument. */
function dependenciesOf(
  deps: RenderDeps,
  collection: StoredCollection,
  items: readonly ReadItem[],
) {
  return new Map(
    items.flatMap((item) => {
      const resolved = item.transformer?.resolved
      if (resolved?.kind !== 'custom') return []
      return [[item.key, deps.custom.dependencies(resolved.function, collection)] as const]
    }),
  )
}

/** Opens, in one batch, the encrypted properties the items read from every row. */
function openNeeded(
  deps: RenderDeps,
  collection: StoredCollection,
  records: readonly ObjectRecord[],
  needed: readonly string[],
) {
  const encrypted = new Set(collection.properties.filter((p) => p.isEncrypted).map((p) => p.name))
  const properties = [...new Set(needed)].filter((n) => encrypted.has(n))
  return recordValues(deps.envelope, records, properties)
}

/** One custom transformer over the item's values of every row, in one sandbox entry. */
async function transformAll(
  ctx: RequestContext,
  deps: RenderDeps,
  collection: StoredCollection,
  call: Readonly<{ item: ReadItem; custom: Custom; dependencies: readonly string[] }>,
  rows: readonly Readonly<{ value: unknown; fields: Readonly<Fields> }>[],
): Promise<unknown[]> {
  const at = rows.flatMap((row, i) => (row.value === null ? [] : [i]))
  const items = at.map((i) => {
    const row = rows[i] as (typeof rows)[number]
    const object = Object.fromEntries(call.dependencies.map((n) => [n, row.fields[n] ?? null]))
    return { object, value: row.value }
  })
  const results = await deps.custom.transform(ctx, {
    function: call.custom.function,
    collection,
    property: call.item.property.name,
    items,
  })
  const out: unknown[] = rows.map(() => null)
  for (const [k, i] of at.entries()) out[i] = results[k] ?? null
  return out
}

/** The answer maps, one per row, with exactly the requested keys (absent values are null). */
export async function renderObjects(
  ctx: RequestContext,
  deps: RenderDeps,
  collection: StoredCollection,
  records: readonly ObjectRecord[],
  plan: ReadPlan,
): Promise<Fields[]> {
  const dependencies = dependenciesOf(deps, collection, plan.items)
  const needed = [...plan.items.map((i) => i.property.name), ...[...dependencies.values()].flat()]
  const values = openNeeded(deps, collection, records, needed)
  const readValue = (item: ReadItem, record: ObjectRecord, i: number) =>
    item.property.isBuiltin
      ? builtinValue(record, item.property.name)
      : (ownValue(values[i] ?? {}, item.property.name) ?? null)
  const outs: Fields[] = records.map(() => ({}))
  // Custom transformers first, all at once (one sandbox entry each); keys keep the plan's order.
  const custom = new Map(
    plan.items.flatMap((item) => {
      const resolved = item.transformer?.resolved
      if (resolved?.kind !== 'custom') return []
      const rows = records.map((record, i) => ({
        value: readValue(item, record, i),
        fields: values[i] ?? {},
      }))
      const call = { item, custom: resolved, dependencies: dependencies.get(item.key) ?? [] }
      return [[item.key, transformAll(ctx, deps, collection, call, rows)] as const]
    }),
  )
  const settled = new Map<string, unknown[]>()
  await Promise.all([...custom].map(async ([key, promise]) => settled.set(key, await promise)))
  for (const item of plan.items) {
    const results = settled.get(item.key)
    if (results !== undefined) {
      for (const [i, out] of outs.entries()) out[item.key] = results[i]
      continue
    }
    await Promise.all(
      records.map(async (record, i) => {
        const value = readValue(item, record, i)
        ;(outs[i] as Fields)[item.key] = await transform(ctx, deps, item, { value, record })
      }),
    )
  }
  return outs
}
