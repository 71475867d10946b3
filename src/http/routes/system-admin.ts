// src/http/routes/system-admin.ts: HTTP binding for the export key and garbage collection (endpoints §10)

import { CustomAuditQuery } from '../../contract/common.ts'
import { Type } from '../../contract/schema.ts'
import { DeletionCount, ExportKeyResponse, GcQuery } from '../../contract/system.ts'
import { isTrue } from '../query.ts'
import type { RoutesPlugin } from './types.ts'

const BASE = '/api/pvlt/1.0/system/admin'

export const systemAdminRoutes: RoutesPlugin = async (app, { services }) => {
  app.get(
    `${BASE}/export_key`,
    {
      config: { operation: 'get_export_key', errors: ['notInMemoryMode'] },
      schema: {
        operationId: 'system.getExportKey',
        summary: 'Get the export key',
        description: 'Answers the export key, wrapped by the export KMS.',
        tags: ['System'],
        querystring: CustomAuditQuery,
        response: { 200: ExportKeyResponse },
      },
    },
    async () => ({ export_key: await services.exportKeys.wrapped() }),
  )

  app.post(
    `${BASE}/lifecycle/gc`,
    {
      config: { operation: 'garbage_collection', errors: ['notInMemoryMode'] },
      schema: {
        operationId: 'system.garbageCollection',
        summary: 'Run garbage collection',
        description:
          'Deletes archived objects and tokens older than the retention period, at most 10,000 per call, and answers the counts.',
        tags: ['System'],
        querystring: GcQuery,
        response: { 200: Type.Array(DeletionCount) },
      },
    },
    async (req) => {
      const options = { filter: req.query.filter, isDryRun: isTrue(req.query.dry_run) }
      const counts = await services.gc.run(req.ctx, options)
      return counts.map((c) => ({
        collection_name: c.collectionName,
        collection_type: c.collectionType,
        count: c.count,
      }))
    },
  )
}
