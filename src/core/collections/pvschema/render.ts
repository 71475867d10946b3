// src/core/collections/pvschema/render.ts: collections → PVSchema text (data-model §2 output rules)
import type { CollectionView, PropertyView } from '../collection.ts'

/** `'…'` with the quote doubled inside. */
export function quote(text: string): string {
  return `'${text.replaceAll("'", "''")}'`
}

/**
 * Attributes are printed only where they differ from the defaults (NOT NULL, NOT UNIQUE,
 * NOT INDEX, NOT SUBSTRING_INDEX, ENCRYPTED, NOT BUILTIN, NOT READONLY), in a fixed order.
 */
function attributes(p: PropertyView): string[] {
  const words: string[] = []
  if (p.isNullable) words.push('NULL')
  if (p.isUnique) words.push('UNIQUE')
  if (p.isIndex) words.push('INDEX')
  if (p.isSubstringIndex) words.push('SUBSTRING_INDEX')
  if (!p.isEncrypted) words.push('NOT ENCRYPTED')
  if (p.isBuiltin) words.push('BUILTIN')
  if (p.isReadonly) words.push('READONLY')
  if (p.description !== '') words.push(`COMMENT ${quote(p.description)}`)
  return words
}

function renderProperty(p: PropertyView): string {
  return `  ${[p.name, p.dataType, ...attributes(p)].join(' ')},`
}

/**
 * One property per line with a two-space indent, each line ending with `,`, closed by `);`.
 * @example renderCollection(c) // "customers PERSONS (\n  email EMAIL,\n);"
 */
export function renderCollection(collection: CollectionView): string {
  return [
    `${collection.name} ${collection.type} (`,
    ...collection.properties.map(renderProperty),
    ');',
  ].join('\n')
}

/** Several collections: each one's text, joined with a newline. */
export function renderCollections(collections: readonly CollectionView[]): string {
  return collections.map(renderCollection).join('\n')
}
