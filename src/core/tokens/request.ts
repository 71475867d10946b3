// src/core/tokens/request.ts: shape rules of tokenize items that need no storage (tokens.md §3, §5)
import type { InputObject, TokenizeRequest } from '../../contract/tokens.ts'
import { invalidItem } from './errors.ts'

export const TOKEN_ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/
export const PAN_TEMPLATE = 'primary_account_number'

export type SourceKind = 'id' | 'fields' | 'encrypted' | 'request_index'

/** The one member an input object uses; 400 when none or several. */
export function sourceKindOf(object: InputObject, field: string): SourceKind {
  const kinds = (['id', 'fields', 'encrypted', 'request_index'] as const).filter(
    (kind) => object[kind] !== undefined,
  )
  if (kinds.length !== 1 || kinds[0] === undefined)
    throw invalidItem(
      'The object must have exactly one of id, fields, encrypted or request_index.',
      field,
    )
  return kinds[0]
}

/** Tags: at most `maxTags` distinct, and `unique` a subset of them. */
export function checkTags(
  tags: readonly string[],
  unique: readonly string[],
  maxTags: number,
  field: string,
): string[] {
  const distinct = [...new Set(tags)]
  if (distinct.length > maxTags) throw invalidItem(`At most ${maxTags} tags are allowed.`, field)
  if (distinct.some((tag) => tag.length === 0 || tag.length > 256))
    throw invalidItem('A tag must have 1 to 256 characters.', field)
  if (unique.some((tag) => !distinct.includes(tag)))
    throw invalidItem('The ensure_unique_tenant_tags must be a subset of the tags.', field)
  return distinct
}

/** `primary_account_number`, or `"<bundle>.<function>"` (its function is looked up later). */
function checkTemplate(template: string, field: string): void {
  if (template === PAN_TEMPLATE) return
  if (/^[A-Za-z][A-Za-z0-9_]*\.[A-Za-z][A-Za-z0-9_]*$/.test(template)) return
  throw invalidItem(
    'The fptemplate must be primary_account_number or "<bundle>.<function>".',
    field,
  )
}

/** Checks one item's own members (everything that does not need the collection or storage). */
export function checkItem(item: TokenizeRequest, index: number, maxTags: number): void {
  const at = `[${index}]`
  sourceKindOf(item.object, `${at}.object`)
  const template = item.fptemplate === '' ? undefined : item.fptemplate
  if (item.token_id !== undefined) {
    if (!TOKEN_ID_PATTERN.test(item.token_id))
      throw invalidItem(
        'The token_id must have 1 to 128 characters among A-Z, a-z, 0-9, _ and -.',
        `${at}.token_id`,
      )
    if (template !== undefined || (item.fpprops?.length ?? 0) > 0)
      throw invalidItem(
        'The token_id cannot be combined with fptemplate or fpprops.',
        `${at}.token_id`,
      )
  }
  if (template !== undefined) checkTemplate(template, `${at}.fptemplate`)
  checkTags(item.tags ?? [], item.ensure_unique_tenant_tags ?? [], maxTags, `${at}.tags`)
  if (item.store_object === true && item.object.fields === undefined)
    throw invalidItem('The store_object option needs an object with fields.', `${at}.store_object`)
  if (item.props !== undefined && item.props.length === 0)
    throw invalidItem('The props must not be empty.', `${at}.props`)
  if (item.scope !== undefined && item.scope.length > 256)
    throw invalidItem('The scope must have at most 256 characters.', `${at}.scope`)
}
