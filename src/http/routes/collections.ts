// src/http/routes/collections.ts: HTTP binding for collections and their properties, in JSON or PVSchema
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import {
  type Collection,
  CollectionBody,
  CollectionParams,
  CollectionQuery,
  CollectionResponse,
  CollectionsResponse,
  PropertiesQuery,
  Property,
  PropertyBody,
  PropertyParams,
  type SchemaFormat,
  UpdatePropertyBody,
} from '../../contract/collections.ts'
import { CustomAuditQuery } from '../../contract/common.ts'
import {
  type Property as CoreProperty,
  propertiesOf,
  type StoredCollection,
} from '../../core/collections/collection.ts'
import {
  pvschemaToBody,
  readCollectionBody,
  readPropertyBody,
  readUpdatePropertyBody,
} from '../../core/collections/input.ts'
import { renderCollections } from '../../core/collections/pvschema/render.ts'
import { formatNano } from '../../core/time.ts'
import type { RoutesPlugin } from './types.ts'

const BASE = '/api/pvlt/1.0/ctl/collections'
const ONE = `${BASE}/:collection`
const PROPERTY = `${ONE}/properties/:property`

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
      return { format: MEDIA_TYPES[type], q: q === undefined ? 1 : Number(q.slice(2)), position }
    })
    .filter((m) => m.format !== undefined && m.q > 0)
    .sort((a, b) => b.q - a.q || a.position - b.position)
  return ranked[0]?.format ?? 'json'
}

function toWireProperty(p: CoreProperty): Property {
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

const hasBuiltins = (options?: readonly string[]) => options?.includes('show_builtins') === true

/**
 * JSON (serialized by the route's schema), or PVSchema text in the media type that was asked for
 * (`format` beats `Accept`). The text is returned, not sent, so the audit record is written first.
 */
function render(req: SchemaRequest, reply: FastifyReply, collections: readonly StoredCollection[]) {
  const format = req.query.format ?? formatFromAccept(req.headers.accept)
  const showBuiltins = hasBuiltins(req.query.options)
  if (format === 'json') return collections.map((c) => toWireCollection(c, showBuiltins))
  reply.type(`application/${format}; charset=utf-8`)
  return renderCollections(
    collections.map((c) => ({ ...c, properties: propertiesOf(c, showBuiltins) })),
  )
}

function respondOne(req: SchemaRequest, reply: FastifyReply, collection: StoredCollection) {
  const rendered = render(req, reply, [collection])
  return typeof rendered === 'string' ? rendered : (rendered[0] as Collection)
}

/** PVSchema bodies (and JSON strings) become the JSON body they stand for before validation. */
async function pvschemaBody(req: FastifyRequest): Promise<void> {
  if (typeof req.body === 'string') req.body = pvschemaToBody(req.body)
}

export const collectionsRoutes: RoutesPlugin = async (app, { services }) => {
  const { collections } = services
  const one = {
    params: CollectionParams,
    querystring: CollectionQuery,
    response: { 200: CollectionResponse },
  }

  app.get(
    BASE,
    {
      config: { operation: 'list_collections' },
      schema: { querystring: CollectionQuery, response: { 200: CollectionsResponse } },
    },
    async (req, reply) => render(req, reply, await collections.list(req.ctx)),
  )

  app.post(
    BASE,
    {
      config: { operation: 'add_collection' },
      preValidation: pvschemaBody,
      schema: {
        querystring: CollectionQuery,
        body: CollectionBody,
        response: { 200: CollectionResponse },
      },
    },
    async (req, reply) =>
      respondOne(req, reply, await collections.create(req.ctx, readCollectionBody(req.body))),
  )

  app.get(ONE, { config: { operation: 'get_collection' }, schema: one }, async (req, reply) =>
    respondOne(req, reply, await collections.getOrThrow(req.ctx, req.params.collection)),
  )

  app.patch(
    ONE,
    {
      config: { operation: 'update_collection', isTimeoutExempt: true },
      preValidation: pvschemaBody,
      schema: { ...one, body: CollectionBody },
    },
    async (req, reply) => {
      const input = readCollectionBody(req.body)
      return respondOne(req, reply, await collections.update(req.ctx, req.params.collection, input))
    },
  )

  app.delete(
    ONE,
    {
      config: { operation: 'delete_collection' },
      schema: { params: CollectionParams, querystring: CustomAuditQuery },
    },
    async (req) => {
      await collections.delete(req.ctx, req.params.collection)
    },
  )

  app.get(
    `${ONE}/properties`,
    {
      config: { operation: 'list_properties' },
      schema: {
        params: CollectionParams,
        querystring: PropertiesQuery,
        response: { 200: Type.Array(Property) },
      },
    },
    async (req) => {
      const collection = await collections.getOrThrow(req.ctx, req.params.collection)
      return propertiesOf(collection, hasBuiltins(req.query.options)).map(toWireProperty)
    },
  )

  const property = { params: PropertyParams, querystring: CustomAuditQuery }

  app.post(
    PROPERTY,
    {
      config: { operation: 'add_property' },
      schema: { ...property, body: PropertyBody, response: { 200: Property } },
    },
    async (req) => {
      const { collection, property: name } = req.params
      const input = readPropertyBody(req.body)
      return toWireProperty(await collections.addProperty(req.ctx, collection, name, input))
    },
  )

  app.get(
    PROPERTY,
    { config: { operation: 'get_property' }, schema: { ...property, response: { 200: Property } } },
    async (req) => {
      const { collection, property: name } = req.params
      return toWireProperty(await collections.getProperty(req.ctx, collection, name))
    },
  )

  app.patch(
    PROPERTY,
    {
      config: { operation: 'update_property', isTimeoutExempt: true },
      schema: { ...property, body: UpdatePropertyBody, response: { 200: Property } },
    },
    async (req) => {
      const { collection, property: name } = req.params
      const change = readUpdatePropertyBody(req.body)
      return toWireProperty(await collections.updateProperty(req.ctx, collection, name, change))
    },
  )

  app.delete(
    PROPERTY,
    { config: { operation: 'delete_property' }, schema: property },
    async (req) => {
      await collections.deleteProperty(req.ctx, req.params.collection, req.params.property)
    },
  )
}
