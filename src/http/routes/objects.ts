// src/http/routes/objects.ts: HTTP binding for objects (endpoints §3)
import type { FastifyRequest } from 'fastify'
import { DataQuery } from '../../contract/common.ts'
import {
  AddObjectQuery,
  BulkDeleteBody,
  BulkObjectResponse,
  BulkObjectsBody,
  CollectionObjectsParams,
  DeleteObjectQuery,
  GetObjectQuery,
  ListObjectsQuery,
  ObjectFields,
  ObjectFieldsPage,
  ObjectId,
  ObjectParams,
  ObjectsCount,
  ObjectsQueryBody,
  SearchObjectsQuery,
  UpdateObjectQuery,
} from '../../contract/objects.ts'
import type { ObjectsPage } from '../../core/objects/reading.ts'
import type { BulkResult } from '../../core/writes/bulk.ts'
import { audited } from '../audited.ts'
import { type ErrorStyle, styleErrorBody, toErrorResponse } from '../errors.ts'
import { isTrue } from '../query.ts'
import type { RoutesPlugin } from './types.ts'

const BASE = '/api/pvlt/1.0/data/collections/:collection'

type WriteQuery = Readonly<{ expiration_secs?: string; import?: string; export_key?: string }>

const writeOptions = (query: WriteQuery) => ({
  expirationSecs: query.expiration_secs,
  isImport: isTrue(query.import),
  exportKey: query.export_key,
})

const isArchived = (options: readonly string[] | undefined) =>
  options?.includes('archived') ?? false

function toPage(page: ObjectsPage) {
  return {
    results: page.results,
    paging: { size: page.results.length, remaining_count: page.remaining, cursor: page.cursor },
  }
}

/** Per-item errors use the one error body (http/errors.ts), like whole-request errors. */
function toBulk(req: FastifyRequest, result: BulkResult, style: ErrorStyle) {
  return {
    ok: result.ok,
    results: result.results.map((item) =>
      item.ok
        ? { ok: true, id: item.id }
        : {
            ok: false,
            id: item.id,
            error: styleErrorBody(toErrorResponse(item.error, req.log).body, style),
          },
    ),
  }
}

export const objectsRoutes: RoutesPlugin = async (app, { services, errorStyle }) => {
  const { objects } = services
  const collection = { params: CollectionObjectsParams }
  const one = { params: ObjectParams }

  app.post(
    `${BASE}/objects`,
    {
      config: {
        operation: 'add_object',
        errors: [
          'collectionNotFound',
          'propertyNotFound',
          'invalidPropertyValue',
          'alreadyExists',
          'uniqueValueUsed',
        ],
      },
      schema: {
        operationId: 'objects.addObject',
        summary: 'Add an object',
        description:
          'Stores one object; encrypted properties are stored only as ciphertext. Answers the object ID.',
        tags: ['Objects'],
        ...collection,
        querystring: AddObjectQuery,
        body: ObjectFields,
        response: { 200: ObjectId },
      },
    },
    (req) => objects.add(req.ctx, req.params.collection, req.body, writeOptions(req.query)),
  )

  app.post(
    `${BASE}/bulk/objects`,
    {
      config: { operation: 'add_objects', errors: ['collectionNotFound'] },
      schema: {
        operationId: 'objects.addObjects',
        summary: 'Add objects in bulk',
        description:
          "Stores up to the maximum page size of objects atomically: all or none. A 200 does not mean success: read `ok` and each item's `error`.",
        tags: ['Objects'],
        ...collection,
        querystring: AddObjectQuery,
        body: BulkObjectsBody,
        response: { 200: BulkObjectResponse },
      },
    },
    async (req) =>
      audited(
        await objects.addMany(req.ctx, req.params.collection, req.body, writeOptions(req.query)),
        (result) => toBulk(req, result, errorStyle),
      ),
  )

  app.get(
    `${BASE}/objects/:id`,
    {
      config: {
        operation: 'get_object',
        errors: ['collectionNotFound', 'objectNotFound', 'propertyNotFound'],
      },
      schema: {
        operationId: 'objects.getObjectById',
        summary: 'Get an object',
        description:
          'Answers exactly the requested properties (`props`, with transformations such as `ssn.mask`) or, with `options=unsafe`, all of them.',
        tags: ['Objects'],
        ...one,
        querystring: GetObjectQuery,
        response: { 200: ObjectFields },
      },
    },
    async (req) =>
      audited(
        await objects.get(req.ctx, req.params.collection, req.params.id, {
          props: req.query.props,
          options: req.query.options ?? [],
        }),
      ),
  )

  app.get(
    `${BASE}/objects`,
    {
      config: {
        operation: 'list_objects',
        errors: ['collectionNotFound', 'objectNotFound', 'propertyNotFound', 'notInMemoryMode'],
      },
      schema: {
        operationId: 'objects.listObjects',
        summary: 'List objects',
        description:
          'Lists objects in creation order, a page at a time, or the objects named by `ids`.',
        tags: ['Objects'],
        ...collection,
        querystring: ListObjectsQuery,
        response: { 200: ObjectFieldsPage },
      },
    },
    async (req) => {
      const { query } = req
      const request = {
        props: query.props,
        options: query.options ?? [],
        pageSize: query.page_size,
        cursor: query.cursor,
        ids: query.ids,
        isExport: isTrue(query.export),
      }
      return audited(await objects.list(req.ctx, req.params.collection, request), toPage)
    },
  )

  app.post(
    `${BASE}/query/objects`,
    {
      config: {
        operation: 'search_objects',
        errors: [
          'collectionNotFound',
          'propertyNotFound',
          'invalidPropertyValue',
          'substringIndexNotReady',
        ],
      },
      schema: {
        operationId: 'objects.searchObjects',
        summary: 'Search objects',
        description:
          'Finds objects by exact match (`match`, `in`) on any property (through the blind index of indexed ones, by scanning the collection for others, within the call timeout) and by substring (`like`) on substring-indexed ones; all members are ANDed.',
        tags: ['Objects'],
        ...collection,
        querystring: SearchObjectsQuery,
        body: ObjectsQueryBody,
        response: { 200: ObjectFieldsPage },
      },
    },
    async (req) => {
      const { query } = req
      const request = {
        props: query.props,
        options: query.options ?? [],
        pageSize: query.page_size,
        cursor: query.cursor,
      }
      return audited(
        await objects.search(req.ctx, req.params.collection, req.body, request),
        toPage,
      )
    },
  )

  app.patch(
    `${BASE}/objects/:id`,
    {
      config: {
        operation: 'update_object',
        errors: [
          'collectionNotFound',
          'objectNotFound',
          'propertyNotFound',
          'invalidPropertyValue',
          'concurrentUpdate',
          'uniqueValueUsed',
        ],
      },
      schema: {
        operationId: 'objects.updateObjectById',
        summary: 'Update an object',
        description:
          'Changes the given properties of one object; `null` removes the value of a nullable property.',
        tags: ['Objects'],
        ...one,
        querystring: UpdateObjectQuery,
        body: ObjectFields,
      },
    },
    async (req) => {
      const options = { ...writeOptions(req.query), isArchived: isArchived(req.query.options) }
      await objects.update(req.ctx, req.params.collection, req.params.id, req.body, options)
    },
  )

  app.patch(
    `${BASE}/bulk/objects`,
    {
      config: { operation: 'update_objects', errors: ['collectionNotFound'] },
      schema: {
        operationId: 'objects.updateObjects',
        summary: 'Update objects in bulk',
        description:
          "Changes several objects atomically, each named by its `id`. Read `ok` and each item's `error`.",
        tags: ['Objects'],
        ...collection,
        querystring: UpdateObjectQuery,
        body: BulkObjectsBody,
        response: { 200: BulkObjectResponse },
      },
    },
    async (req) => {
      const options = { ...writeOptions(req.query), isArchived: isArchived(req.query.options) }
      const result = await objects.updateMany(req.ctx, req.params.collection, req.body, options)
      return audited(result, (bulk) => toBulk(req, bulk, errorStyle))
    },
  )

  app.delete(
    `${BASE}/objects/:id`,
    {
      config: { operation: 'delete_object', errors: ['collectionNotFound', 'objectNotFound'] },
      schema: {
        operationId: 'objects.deleteObjectById',
        summary: 'Delete an object',
        description:
          'Archives an active object; with `options=archived`, permanently removes an archived one and its tokens.',
        tags: ['Objects'],
        ...one,
        querystring: DeleteObjectQuery,
      },
    },
    async (req) => {
      const options = { isArchived: isArchived(req.query.options) }
      await objects.delete(req.ctx, req.params.collection, req.params.id, options)
    },
  )

  app.delete(
    `${BASE}/bulk/objects`,
    {
      config: { operation: 'delete_objects', errors: ['collectionNotFound'] },
      schema: {
        operationId: 'objects.deleteObjects',
        summary: 'Delete objects in bulk',
        description: 'Archives (or, with `options=archived`, removes) several objects atomically.',
        tags: ['Objects'],
        ...collection,
        querystring: DeleteObjectQuery,
        body: BulkDeleteBody,
        response: { 200: BulkObjectResponse },
      },
    },
    async (req) => {
      const ids = req.body.map((item) => item.id)
      const options = { isArchived: isArchived(req.query.options) }
      const result = await objects.deleteMany(req.ctx, req.params.collection, ids, options)
      return audited(result, (bulk) => toBulk(req, bulk, errorStyle))
    },
  )

  app.get(
    `${BASE}/count/objects`,
    {
      config: { operation: 'count_objects', errors: ['collectionNotFound'] },
      schema: {
        operationId: 'objects.getObjectsCount',
        summary: 'Count objects',
        description: 'Answers the number of active and archived objects of a collection.',
        tags: ['Objects'],
        ...collection,
        querystring: DataQuery,
        response: { 200: ObjectsCount },
      },
    },
    async (req) => audited(await objects.count(req.ctx, req.params.collection)),
  )
}
