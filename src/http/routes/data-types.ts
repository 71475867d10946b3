// src/http/routes/data-types.ts: HTTP binding for reading data types (routes/types.ts holds the plugin type)

import { CustomAuditQuery } from '../../contract/common.ts'
import { DataType, DataTypeParams, DataTypesQuery } from '../../contract/data-types.ts'
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
    transformers: [...info.transformerNames],
    default_transformer: info.defaultTransformer,
    creation_time: info.createdAt === undefined ? undefined : formatNano(info.createdAt),
  }
}

export const dataTypesRoutes: RoutesPlugin = async (app, { services }) => {
  const { types } = services

  app.get(
    BASE,
    {
      config: { operation: 'list_types' },
      schema: { querystring: DataTypesQuery, response: { 200: Type.Array(DataType) } },
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
      config: { operation: 'get_type' },
      schema: {
        params: DataTypeParams,
        querystring: CustomAuditQuery,
        response: { 200: DataType },
      },
    },
    async (req) => toWireDataType(types.getOrThrow(req.params.type)),
  )
}
