// src/http/collections-format.ts: collections on the wire: JSON shapes, or PVSchema text chosen by `format` or `Accept`
import type { FastifyReply, FastifyRequest } from 'fastify'
import type {
  Collection,
  CollectionQuery,
  Property,
  SchemaFormat,
} from '../contract/collections.ts'
import {
  type Property as CoreProperty,
  propertiesOf,
  type StoredCollection,
} from '../core/collections/collection.ts'
import { renderCollections } from '../core/collections/pvschema/render.ts'
import { formatNano } from '../core/time.ts'

const MEDIA_TYPES: Readonly<Record<string, SchemaFormat>> = {
  'application/json': 'json',
  'application/pvschema': 'pvschema',
  'application/xschema': 'xschema',
}

/** The first of our media types in the client's preference order (q-values, then position). */
export function formatFromAccept(accept: string | undefined): SchemaFormat {
  const ranked = (accept ?? '')
    .split(',')
    .map((part, position) => {
      const [type = '', ...parameters] = part.split(';').map((s) => s.trim().toLowerCase())
      const q = parameters.find((p) => p.startsWith('q='))
      return {
        format: Object.hasOwn(MEDIA_TYPES, type) ? MEDIA_TYPES[type] : undefined,
        q: q === undefined ? 1 : Number(q.slice(2)),
        position,
      }
    })
    .filter((m) => m.format !== undefined && m.q > 0)
    .sort((a, b) => b.q - a.q || a.position - b.position)
  return ranked[0]?.format ?? 'json'
}

export function toWireProperty(p: CoreProperty): Property {
  return {
    name: p.name,
    data_type_name: p.dataType,
    description: p.description,
    is_encrypted: p.isEncrypted,
    is_index: p.isIndex,
    is_substring_index: p.isSubstringIndex,
    is_nullable: p.isNullable,
    is_unique: p.isUnique,
    is_builtin: p.isBuiltin,
    is_readonly: p.isReadonly,
    creation_time: formatNano(p.createdAt),
    modification_time: formatNano(p.modifiedAt),
  }
}

function toWireCollection(c: StoredCollection, showBuiltins: boolean): Collection {
  return {
    name: c.name,
    type: c.type,
    properties: propertiesOf(c, showBuiltins).map(toWireProperty),
    creation_time: formatNano(c.createdAt),
    modification_time: formatNano(c.modifiedAt),
  }
}

type SchemaRequest = FastifyRequest<{ Querystring: CollectionQuery }>

export const hasBuiltins = (options?: readonly string[]) =>
  options?.includes('show_builtins') === true

/**
 * JSON (serialized by the route's schema), or PVSchema text in the media type that was asked for
 * (`format` beats `Accept`). The text is returned, not sent, so the audit record is written first.
 */
export function render(
  req: SchemaRequest,
  reply: FastifyReply,
  collections: readonly StoredCollection[],
) {
  const format = req.query.format ?? formatFromAccept(req.headers.accept)
  const showBuiltins = hasBuiltins(req.query.options)
  if (format === 'json') return collections.map((c) => toWireCollection(c, showBuiltins))
  reply.type(`application/${format}; charset=utf-8`)
  return renderCollections(
    collections.map((c) => ({ ...c, properties: propertiesOf(c, showBuiltins) })),
  )
}

export function respondOne(req: SchemaRequest, reply: FastifyReply, collection: StoredCollection) {
  const rendered = render(req, reply, [collection])
  return typeof rendered === 'string' ? rendered : (rendered[0] as Collection)
}
