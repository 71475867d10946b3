// src/http/routes/keys.ts: HTTP binding for key administration: rotate data keys, rotation progress
import { CustomAuditQuery } from '../../contract/common.ts'
import { RotationStatus } from '../../contract/keys.ts'
import type { RoutesPlugin } from './types.ts'

const BASE = '/api/pvlt/1.0/system/admin/keys'

export const keysRoutes: RoutesPlugin = async (app, { services }) => {
  app.post(
    `${BASE}/rotate`,
    {
      config: { operation: 'rotate_keys', errors: ['notInMemoryMode', 'inUse'] },
      schema: {
        operationId: 'system.rotateKeys',
        summary: 'Rotate keys',
        description:
          'Adds a new version of every data key; stored data is re-encrypted in the background. A rotation requested while the re-encryption of the previous one still runs is refused with 409 ERR9005.',
        tags: ['System'],
        querystring: CustomAuditQuery,
      },
    },
    async (req) => {
      await services.keys.rotate(req.ctx)
    },
  )

  app.get(
    `${BASE}/rotation`,
    {
      config: { operation: 'get_rotation_status' },
      schema: {
        operationId: 'system.getKeyRotationStatus',
        summary: 'Get the re-encryption progress',
        description: 'Answers the progress of background re-encryption after a key rotation.',
        tags: ['System'],
        querystring: CustomAuditQuery,
        response: { 200: RotationStatus },
      },
    },
    async (req) => services.keys.getStatus(req.ctx),
  )
}
