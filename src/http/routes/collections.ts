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
