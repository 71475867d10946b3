// src/http/routes/bundles.ts: HTTP binding for bundles of JavaScript code (endpoints §6.6–6.10)
import {
  Bundle,
  type BundleExports,
  BundleInput,
  BundleParams,
  BundleUpdate,
  DeleteBundleQuery,
} from '../../contract/bundles.ts'
import { CustomAuditQuery } from '../../contract/common.ts'
import { Type } from '../../contract/schema.ts'
import { encodeCode } from '../../core/bundles/code.ts'
import type { FunctionPrototype } from '../../core/bundles/exports.ts'
import type { StoredBundle } from '../../core/bundles/store.ts'
import { formatNano } from '../../core/time.ts'
import type { RoutesPlugin } from './types.ts'

const BASE = '/api/pvlt/1.0/ctl/bundles'
const TAGS = ['Bundles']

function toWireFunction(f: FunctionPrototype): BundleExports['actions'][number] {
  const { dependencies, ...rest } = f
  if (dependencies === undefined) return rest
  const { properties } = dependencies
  return { ...rest, dependencies: properties ? { properties: [...properties] } : {} }
}

function toWireExports(functions: readonly FunctionPrototype[]): BundleExports {
  const of = (type: FunctionPrototype['type']) =>
    functions.filter((f) => f.type === type).map(toWireFunction)
  return {
    validators: of('validator'),
    normalizers: of('normalizer'),
    transformers: of('transformer'),
    actions: of('action'),
    fptemplates: of('fptemplate'),
  }
}

function toWireBundle(bundle: StoredBundle): Bundle {
  return {
    name: bundle.name,
    description: bundle.description,
    code: encodeCode(bundle.source),
    exports: toWireExports(bundle.exports),
    creation_time: formatNano(bundle.createdAt),
    modification_time: formatNano(bundle.modifiedAt),
  }
}

export const bundlesRoutes: RoutesPlugin = async (app, { services }) => {
  const { bundles } = services

  app.get(
    BASE,
    {
      config: { operation: 'list_bundles' },
      schema: {
        operationId: 'bundles.listBundles',
        summary: 'List bundles',
        description: 'Lists the bundles of JavaScript code, by name, with their code and exports.',
        tags: TAGS,
        querystring: CustomAuditQuery,
        response: { 200: Type.Array(Bundle) },
      },
    },
    async (req) => (await bundles.list(req.ctx)).map(toWireBundle),
  )

  app.post(
    BASE,
    {
      config: { operation: 'add_bundle', errors: ['featureDisabled', 'alreadyExists'] },
      schema: {
        operationId: 'bundles.addBundle',
        summary: 'Add bundle',
        description:
          'Adds a bundle: base64 of one self-contained CommonJS-style script. The code is loaded in the sandbox to find its exports; code that does not load or exports something invalid is refused with 400.',
        tags: TAGS,
        querystring: CustomAuditQuery,
        body: BundleInput,
        response: { 200: Bundle },
      },
    },
    async (req) => toWireBundle(await bundles.create(req.ctx, req.body)),
  )

  app.get(
    `${BASE}/:bundle`,
    {
      config: { operation: 'get_bundle', errors: ['bundleNotFound'] },
      schema: {
        operationId: 'bundles.getBundle',
        summary: 'Get bundle',
        description: 'Gets a bundle with its code and exports.',
        tags: TAGS,
        params: BundleParams,
        querystring: CustomAuditQuery,
        response: { 200: Bundle },
      },
    },
    async (req) => toWireBundle(await bundles.get(req.ctx, req.params.bundle)),
  )

  app.patch(
    `${BASE}/:bundle`,
    {
      config: {
        operation: 'update_bundle',
        errors: ['featureDisabled', 'bundleNotFound', 'concurrentUpdate'],
      },
      schema: {
        operationId: 'bundles.updateBundle',
        summary: 'Update bundle',
        description:
          'Updates the description or the code of a bundle. New code must still export every function of the old code with the same type; the name cannot change.',
        tags: TAGS,
        params: BundleParams,
        querystring: CustomAuditQuery,
        body: BundleUpdate,
        response: { 200: Bundle },
      },
    },
    async (req) => toWireBundle(await bundles.update(req.ctx, req.params.bundle, req.body)),
  )

  app.delete(
    `${BASE}/:bundle`,
    {
      config: { operation: 'delete_bundle', errors: ['bundleNotFound', 'inUse'] },
      schema: {
        operationId: 'bundles.deleteBundle',
        summary: 'Delete bundle',
        description:
          'Deletes a bundle. Refused with 409 while an action or a data type references it; with options=force, data types no property uses are deleted with it.',
        tags: TAGS,
        params: BundleParams,
        querystring: DeleteBundleQuery,
      },
    },
    async (req) => {
      const isForced = req.query.options?.includes('force') === true
      await bundles.delete(req.ctx, req.params.bundle, isForced)
    },
  )
}
