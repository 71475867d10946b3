// src/core/tokens/plan.ts: what each tokenize item will store: props, values, scope, template and owner

import type { TokenizeRequest } from '../../contract/tokens.ts'
import { findProperty, type StoredCollection } from '../collections/collection.ts'
import { propertyNotFound } from '../collections/errors.ts'
import type { DeterministicIds } from '../crypto/deterministic-id.ts'
import { ownValue } from '../own.ts'
import { invalidItem, invalidTokenizeValue } from './errors.ts'
import { cardOf, deterministicId, type IdInput } from './ids.ts'
import { PAN_TEMPLATE } from './request.ts'
import type { Source } from './sources.ts'
import type { TokenType } from './store.ts'

type Values = Record<string, unknown>

export type ItemPlan = Readonly<{
  index: number
  type: TokenType
  props: readonly string[]
  values: Values
  scope: string
  tags: readonly string[]
  uniqueTags: readonly string[]
  template: string | undefined
  fpprops: readonly string[] | undefined
  card: string | undefined
  givenId: string | undefined
  /** Derived for deterministic tokens. */
  derivedId: string | undefined
  source: Source
  /** Candidate IDs of a custom fptemplate, one per call (custom-template.ts). */
  nextId?: () => Promise<string>
}>

function defaultProps(collection: StoredCollection, source: Source): string[] {
  const names = Object.keys(source.values).filter((name) => findProperty(collection, name))
  return source.object === undefined ? names : names.filter((n) => source.values[n] !== null)
}

function pickValues(
  collection: StoredCollection,
  props: readonly string[],
  source: Source,
  index: number,
): Values {
  const values: Values = {}
  for (const prop of props) {
    if (findProperty(collection, prop) === undefined || prop.startsWith('_'))
      throw propertyNotFound(collection.name, prop)
    const value = ownValue(source.values, prop)
    if (value === undefined && source.object === undefined)
      throw invalidTokenizeValue(prop, `item ${index} has no value for it`)
    values[prop] = value ?? null
  }
  return values
}

export function planItem(
  collection: StoredCollection,
  ids: DeterministicIds,
  item: TokenizeRequest,
  source: Source,
  index: number,
): ItemPlan {
  const props = [...new Set(item.props ?? defaultProps(collection, source))]
  if (props.length === 0)
    throw invalidItem('There are no properties to tokenize.', `[${index}].props`)
  const values = pickValues(collection, props, source, index)
  const hasOwner =
    source.object !== undefined || item.store_object === true || source.refersTo !== undefined
  if (item.type === 'pointer' && !hasOwner)
    throw invalidItem(
      'A pointer token needs a stored object (id, store_object or request_index).',
      `[${index}].type`,
    )
  const template = item.fptemplate === '' ? undefined : item.fptemplate
  const fpprops = template === undefined ? undefined : (item.fpprops ?? [])
  const card =
    template === PAN_TEMPLATE
      ? cardOf(collection, fpprops ?? [], source.values, `[${index}].fpprops`)
      : undefined
  const scope = item.scope ?? ''
  const input: IdInput = { collection: collection.name, scope, values, template, card }
  const derivedId = item.type === 'deterministic' ? deterministicId(ids, input) : undefined
  if (derivedId !== undefined && item.token_id !== undefined && item.token_id !== derivedId)
    throw invalidItem(
      'The token_id of a deterministic token must equal its derived ID.',
      `[${index}].token_id`,
    )
  return {
    index,
    type: item.type,
    props,
    values,
    scope,
    tags: [...new Set(item.tags ?? [])],
    uniqueTags: item.ensure_unique_tenant_tags ?? [],
    template,
    fpprops,
    card,
    givenId: item.token_id,
    derivedId,
    source,
  }
}
