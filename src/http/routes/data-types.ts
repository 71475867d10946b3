// src/http/routes/data-types.ts: HTTP binding for data types (endpoints §6.1–6.5; routes/types.ts holds the plugin type)

import { CustomAuditQuery } from '../../contract/common.ts'
import {
  DataType,
  DataTypeInput,
  DataTypeParams,
  DataTypesQuery,
  DataTypeUpdate,
} from '../../contract/data-types.ts'
import { Type } from '../../contract/schema.ts'
import type { DataTypeInfo } from '../../core/data-types/registry.ts'
import { formatNano } from '../../core/time.ts'
import type { RoutesPlugin } from './types.ts'

const BASE = '/api/pvlt/1.0/ctl/types'

function toWireDataType(info: DataTypeInfo): DataType {
  return {
    name: info.name,
    base_type_name: info.base.name,
    description: info.description,
    is_builtin: info.isBuiltin,
    validator: info.validator,
    normalizer: info.normalizer,
    // Custom types name their bundle functions; built-ins their transformers (custom ones too).
    transformers: info.isBuiltin
      ? [...info.transformerNames.filter((n) => !isCustom(info, n)), ...(info.functions ?? [])]
      : [...(info.functions ?? [])],
    default_transformer: info.defaultTransformer,
    creation_time: info.createdAt === undefined ? undefined : formatNano(info.createdAt),
  }
}

const isCustom = (info: DataTypeInfo, name: string) =>
  (info.functions ?? []).some((f) => f.endsWith(`.${name}`))

const TAGS = ['Data types']
const WRITE_ERRORS = ['featureDisabled', 'dataTypeNotFound', 'bundleNotFound'] as const

function inputOf(body: DataTypeUpdate) {
  return {
    description: body.description,
    validator: body.validator,
    normalizer: body.normalizer,
    transformers: body.transformers,
    defaultTransformer: body.default_transformer,
  }
}

export const dataTypesRoutes: RoutesPlugin = async (app, { services }) => {
  const { types, dataTypes } = services

  app.get(
    BASE,
    {
      config: { operation: 'list_types' },
      schema: {
        operationId: 'customDataTypes.listDataTypes',
        summary: 'List data types',
        description:
          'Lists the custom data types, and the built-in ones with `options=show_builtins`.',
        tags: ['Data types'],
        querystring: DataTypesQuery,
        response: { 200: Type.Array(DataType) },
      },
    },
    async (req) => {
      const showBuiltins = req.query.options?.includes('show_builtins') === true
      const listed = types.list({ showBuiltins, bundle: req.query.bundle })
      return listed.map(toWireDataType)
    },
  )

  app.get(
    `${BASE}/:type`,
    {
      config: { operation: 'get_type', errors: ['dataTypeNotFound'] },
      schema: {
        operationId: 'customDataTypes.getDataType',
        summary: 'Get a data type',
        description: 'Answers one built-in or custom data type.',
        tags: ['Data types'],
        params: DataTypeParams,
        querystring: CustomAuditQuery,
        response: { 200: DataType },
      },
    },
    async (req) => toWireDataType(types.getOrThrow(req.params.type)),
  )

  app.post(
    BASE,
    {
      config: { operation: 'add_type', errors: [...WRITE_ERRORS, 'alreadyExists'] },
      schema: {
        operationId: 'customDataTypes.addDataType',
        summary: 'Add data type',
        description:
          'Adds a custom data type on a built-in base type. `validator` and `normalizer` name exported bundle functions as `"<bundle>.<function>"` or `{ bundle, function }`; `transformers` name exported transformers, addressed in `props` by function name.',
        tags: TAGS,
        querystring: CustomAuditQuery,
        body: DataTypeInput,
        response: { 200: DataType },
      },
    },
    async (req) => {
      const { name, base_type_name: baseTypeName } = req.body
      const created = await dataTypes.create(req.ctx, { name, baseTypeName, ...inputOf(req.body) })
      return toWireDataType(created)
    },
  )

  app.patch(
    `${BASE}/:type`,
    {
      config: { operation: 'update_type', errors: [...WRITE_ERRORS, 'concurrentUpdate'] },
      schema: {
        operationId: 'customDataTypes.updateDataType',
        summary: 'Update data type',
        description:
          'Custom types: changes `description`, `default_transformer`, `validator` (only when the type has no normalizer) and `transformers`. Built-in types: only their custom transformers. Other fields are ignored.',
        tags: TAGS,
        params: DataTypeParams,
        querystring: CustomAuditQuery,
        body: DataTypeUpdate,
        response: { 200: DataType },
      },
    },
    async (req) =>
      toWireDataType(await dataTypes.update(req.ctx, req.params.type, inputOf(req.body))),
  )

  app.delete(
    `${BASE}/:type`,
    {
      config: {
        operation: 'delete_type',
        errors: ['featureDisabled', 'dataTypeNotFound', 'inUse'],
      },
      schema: {
        operationId: 'customDataTypes.deleteDataType',
        summary: 'Delete data type',
        description:
          'Deletes a custom data type. Built-in types cannot be deleted (400); a type used by a collection property is refused with 409.',
        tags: TAGS,
        params: DataTypeParams,
        querystring: CustomAuditQuery,
      },
    },
    async (req) => {
      await dataTypes.delete(req.ctx, req.params.type)
    },
  )
}
