// src/http/routes/collections.ts: HTTP binding for collections and their properties, in JSON or PVSchema
import type { FastifyRequest } from 'fastify'
import {
  CollectionBody,
  CollectionParams,
  CollectionQuery,
  CollectionResponse,
  CollectionsResponse,
  PropertiesQuery,
  Property,
  PropertyBody,
  PropertyParams,
  UpdatePropertyBody,
} from '../../contract/collections.ts'
import { CustomAuditQuery } from '../../contract/common.ts'
import { Type } from '../../contract/schema.ts'
import { propertiesOf } from '../../core/collections/collection.ts'
import {
  pvschemaToBody,
  readCollectionBody,
  readPropertyBody,
  readUpdatePropertyBody,
} from '../../core/collections/input.ts'
import { audited } from '../audited.ts'
import { hasBuiltins, render, respondOne, toWireProperty } from '../collections-format.ts'
import type { RoutesPlugin } from './types.ts'

const BASE = '/api/pvlt/1.0/ctl/collections'
const ONE = `${BASE}/:collection`
const PROPERTY = `${ONE}/properties/:property`

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
      schema: {
        operationId: 'collections.listCollections',
        summary: 'List collections',
        description:
          'Lists every collection, ordered by name, as JSON or as PVSchema text (`format` beats `Accept`). Built-in properties appear only with `options=show_builtins`.',
        tags: ['Collections'],
        querystring: CollectionQuery,
        response: { 200: CollectionsResponse },
      },
    },
    async (req, reply) => render(req, reply, await collections.list(req.ctx)),
  )

  app.post(
    BASE,
    {
      config: {
        operation: 'add_collection',
        errors: ['collectionNameInvalid', 'dataTypeNotFound', 'alreadyExists'],
      },
      preValidation: pvschemaBody,
      schema: {
        operationId: 'collections.addCollection',
        summary: 'Add a collection',
        description:
          'Creates a collection from JSON or PVSchema text and answers it with every attribute filled in.',
        tags: ['Collections'],
        querystring: CollectionQuery,
        body: CollectionBody,
        response: { 200: CollectionResponse },
      },
    },
    async (req, reply) =>
      respondOne(req, reply, await collections.create(req.ctx, readCollectionBody(req.body))),
  )

  app.get(
    ONE,
    {
      config: { operation: 'get_collection', errors: ['collectionNotFound'] },
      schema: {
        ...one,
        operationId: 'collections.getCollection',
        summary: 'Get a collection',
        description: 'Answers one collection as JSON or PVSchema text.',
        tags: ['Collections'],
      },
    },
    async (req, reply) =>
      audited(await collections.getOrThrow(req.ctx, req.params.collection), (collection) =>
        respondOne(req, reply, collection),
      ),
  )

  app.patch(
    ONE,
    {
      config: {
        operation: 'update_collection',
        errors: ['collectionNotFound', 'dataTypeNotFound'],
        isTimeoutExempt: true,
      },
      preValidation: pvschemaBody,
      schema: {
        operationId: 'collections.updateCollection',
        summary: 'Update a collection',
        description:
          'Adds the properties not yet in the collection and applies the allowed attribute changes of existing ones. Index changes run online, so the call is exempt from the call timeout.',
        tags: ['Collections'],
        ...one,
        body: CollectionBody,
      },
    },
    async (req, reply) => {
      const input = readCollectionBody(req.body)
      return respondOne(req, reply, await collections.update(req.ctx, req.params.collection, input))
    },
  )

  app.delete(
    ONE,
    {
      config: { operation: 'delete_collection', errors: ['collectionNotFound'] },
      schema: {
        operationId: 'collections.deleteCollection',
        summary: 'Delete a collection',
        description:
          'Deletes the collection with its objects, tokens and transaction IDs. Irreversible.',
        tags: ['Collections'],
        params: CollectionParams,
        querystring: CustomAuditQuery,
      },
    },
    async (req) => {
      await collections.delete(req.ctx, req.params.collection)
    },
  )

  app.get(
    `${ONE}/properties`,
    {
      config: { operation: 'list_properties', errors: ['collectionNotFound'] },
      schema: {
        operationId: 'collectionProperties.listCollectionProperties',
        summary: 'List the properties of a collection',
        description:
          'Lists the properties of a collection; built-in ones only with `options=show_builtins`.',
        tags: ['Collection properties'],
        params: CollectionParams,
        querystring: PropertiesQuery,
        response: { 200: Type.Array(Property) },
      },
    },
    async (req) =>
      audited(await collections.getOrThrow(req.ctx, req.params.collection), (collection) =>
        propertiesOf(collection, hasBuiltins(req.query.options)).map(toWireProperty),
      ),
  )

  const property = { params: PropertyParams, querystring: CustomAuditQuery }

  app.post(
    PROPERTY,
    {
      config: {
        operation: 'add_property',
        errors: ['collectionNotFound', 'dataTypeNotFound', 'alreadyExists'],
      },
      schema: {
        operationId: 'collectionProperties.addCollectionProperty',
        summary: 'Add a property',
        description:
          'Adds a property to a collection. A collection that holds objects accepts only nullable new properties.',
        tags: ['Collection properties'],
        ...property,
        body: PropertyBody,
        response: { 200: Property },
      },
    },
    async (req) => {
      const { collection, property: name } = req.params
      const input = readPropertyBody(req.body)
      return toWireProperty(await collections.addProperty(req.ctx, collection, name, input))
    },
  )

  app.get(
    PROPERTY,
    {
      config: { operation: 'get_property', errors: ['collectionNotFound', 'propertyNotFound'] },
      schema: {
        operationId: 'collectionProperties.getCollectionProperty',
        summary: 'Get a property',
        description: 'Answers one property of a collection (built-in ones too).',
        tags: ['Collection properties'],
        ...property,
        response: { 200: Property },
      },
    },
    async (req) => {
      const { collection, property: name } = req.params
      return audited(await collections.getProperty(req.ctx, collection, name), toWireProperty)
    },
  )

  app.patch(
    PROPERTY,
    {
      config: {
        operation: 'update_property',
        errors: ['collectionNotFound', 'propertyNotFound'],
        isTimeoutExempt: true,
      },
      schema: {
        operationId: 'collectionProperties.updateCollectionProperty',
        summary: 'Update a property',
        description:
          'Changes the description, indexes, nullability or uniqueness of a property, within the allowed directions. Exempt from the call timeout.',
        tags: ['Collection properties'],
        ...property,
        body: UpdatePropertyBody,
        response: { 200: Property },
      },
    },
    async (req) => {
      const { collection, property: name } = req.params
      const change = readUpdatePropertyBody(req.body)
      return toWireProperty(await collections.updateProperty(req.ctx, collection, name, change))
    },
  )

  app.delete(
    PROPERTY,
    {
      config: { operation: 'delete_property', errors: ['collectionNotFound', 'propertyNotFound'] },
      schema: {
        ...property,
        operationId: 'collectionProperties.deleteCollectionProperty',
        summary: 'Delete a property',
        description: 'Removes the property and every stored value of it. Irreversible.',
        tags: ['Collection properties'],
      },
    },
    async (req) => {
      await collections.deleteProperty(req.ctx, req.params.collection, req.params.property)
    },
  )
}
