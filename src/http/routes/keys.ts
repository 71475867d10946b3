// src/http/routes/keys.ts: HTTP binding for key administration: rotate data keys, rotation progress
import { CustomAuditQuery } from '../../contract/common.ts'
import { RotationStatus } from '../../contract/keys.ts'
import type { RoutesPlugin } from './types.ts'

const BASE = '/api/pvlt/1.0/system/admin/keys'

export const keysRoutes: RoutesPlugin = async (app, { services }) => {
  app.post(
    `${BASE}/rotate`,
    { config: { operation: 'rotate_keys' }, schema: { querystring: CustomAuditQuery } },
    async (req) => {
      await services.keys.rotate(req.ctx)
    },
  )

  app.get(
    `${BASE}/rotation`,
    {
      config: { operation: 'get_rotation_status' },
      schema: { querystring: CustomAuditQuery, response: { 200: RotationStatus } },
    },
    async (req) => services.keys.getStatus(req.ctx),
  )
}
