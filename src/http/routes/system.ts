// src/http/routes/system.ts: HTTP binding for health, version, cluster, configuration, license, confvars, debug

import { CustomAuditQuery, Health } from '../../contract/common.ts'
import { Type } from '../../contract/schema.ts'
import {
  ClusterInfo,
  Confvar,
  ConfvarParams,
  KmsStatusResponse,
  License,
  SetConfvarBody,
  SetLicenseBody,
  TriggerErrorBody,
  Version,
} from '../../contract/system.ts'
import type { RoutesPlugin } from './types.ts'

const BASE = '/api/pvlt/1.0'
const Configuration = Type.Record(Type.String(), Type.Unknown())

export const systemRoutes: RoutesPlugin = async (app, { services }) => {
  const { system, confvars } = services

  for (const [path, operation] of [
    [`${BASE}/data/info/health`, 'data_health'],
    [`${BASE}/ctl/info/health`, 'control_health'],
  ] as const) {
    app.get(
      path,
      {
        config: { operation },
        schema: { response: { 200: Health, 503: Health } },
        // The body is `{ status }` and nothing else: plain JSON.stringify writes it, so answering
        // the first health check does not load fast-json-stringify and Ajv (~80 modules).
        serializerCompiler: () => (data) => JSON.stringify(data),
      },
      async (_req, reply) => {
        const isHealthy = await system.isHealthy()
        return reply.code(isHealthy ? 200 : 503).send({ status: isHealthy ? 'pass' : 'fail' })
      },
    )
  }

  app.get(
    `${BASE}/system/info/version`,
    {
      config: { operation: 'get_version' },
      schema: { querystring: CustomAuditQuery, response: { 200: Version } },
    },
    () => system.getVersion(),
  )

  app.get(
    `${BASE}/ctl/info/cluster`,
    {
      config: { operation: 'get_cluster_info' },
      schema: { querystring: CustomAuditQuery, response: { 200: ClusterInfo } },
    },
    () => system.getClusterInfo(),
  )

  app.get(
    `${BASE}/system/info/configuration`,
    {
      config: { operation: 'get_configuration' },
      schema: { querystring: CustomAuditQuery, response: { 200: Configuration } },
    },
    () => system.getConfiguration(),
  )

  app.get(
    `${BASE}/system/info/license`,
    {
      config: { operation: 'get_license' },
      schema: { querystring: CustomAuditQuery, response: { 200: License } },
    },
    () => system.getLicense(),
  )

  app.post(
    `${BASE}/system/info/license`,
    {
      config: { operation: 'set_license' },
      schema: { querystring: CustomAuditQuery, body: SetLicenseBody },
    },
    async (req) => {
      await system.setLicense(req.body.key, req.ctx.now)
    },
  )

  app.get(
    `${BASE}/system/info/kms`,
    {
      config: { operation: 'get_kms_status' },
      schema: { querystring: CustomAuditQuery, response: { 200: KmsStatusResponse } },
    },
    () => system.getKmsStatus(),
  )

  app.delete(
    `${BASE}/system/confvar`,
    { config: { operation: 'clear_confvars' }, schema: { querystring: CustomAuditQuery } },
    async () => {
      await confvars.clear()
    },
  )

  app.get(
    `${BASE}/system/confvar/:name`,
    {
      config: { operation: 'get_confvar' },
      schema: { params: ConfvarParams, querystring: CustomAuditQuery, response: { 200: Confvar } },
    },
    async (req) => confvars.get(req.params.name),
  )

  app.post(
    `${BASE}/system/confvar/:name`,
    {
      config: { operation: 'set_confvar' },
      schema: { params: ConfvarParams, querystring: CustomAuditQuery, body: SetConfvarBody },
    },
    async (req) => {
      await confvars.set(req.params.name, req.body.value)
    },
  )

  app.post(
    `${BASE}/system/debug/error/trigger`,
    {
      config: { operation: 'trigger_error' },
      schema: { querystring: CustomAuditQuery, body: TriggerErrorBody },
    },
    async (req) => system.triggerError(req.body.status),
  )
}
