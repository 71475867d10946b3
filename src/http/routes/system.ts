// src/http/routes/system.ts: HTTP binding for health, version, cluster, configuration, license, confvars, debug

import { CustomAuditQuery, Health, Readiness } from '../../contract/common.ts'
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

  for (const [path, operation, operationId, family] of [
    [`${BASE}/data/info/health`, 'data_health', 'system.dataHealth', 'data'],
    [`${BASE}/ctl/info/health`, 'control_health', 'system.controlHealth', 'control'],
  ] as const) {
    app.get(
      path,
      {
        config: { operation },
        schema: {
          operationId,
          summary: `Check the ${family} plane's health`,
          description:
            'Liveness: `pass` (200) while the node can serve, `fail` (503) otherwise. Not audited.',
          tags: ['System'],
          response: { 200: Health, 503: Health },
        },
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

  for (const [path, operation, operationId, family] of [
    [`${BASE}/data/info/ready`, 'data_ready', 'system.dataReady', 'data'],
    [`${BASE}/ctl/info/ready`, 'control_ready', 'system.controlReady', 'control'],
  ] as const) {
    app.get(
      path,
      {
        config: { operation },
        schema: {
          operationId,
          summary: `Check whether the ${family} plane is ready for traffic`,
          description:
            'Readiness, for load balancers and Kubernetes readiness probes: `pass` (200) when the database answers, every audit sink can record and the KMS wraps and unwraps a key; `fail` (503) otherwise, with the check that failed. No credential, not audited. Liveness is the health operation.',
          tags: ['System'],
          response: { 200: Readiness, 503: Readiness },
        },
        serializerCompiler: () => (data) => JSON.stringify(data),
      },
      async (_req, reply) => {
        const { isReady, checks } = await system.readiness()
        return reply.code(isReady ? 200 : 503).send({ status: isReady ? 'pass' : 'fail', checks })
      },
    )
  }

  app.get(
    `${BASE}/system/info/version`,
    {
      config: { operation: 'get_version' },
      schema: {
        operationId: 'system.getVaultVersion',
        summary: 'Get the version',
        description: 'Answers the vault ID, the service version and the database schema version.',
        tags: ['System'],
        querystring: CustomAuditQuery,
        response: { 200: Version },
      },
    },
    () => system.getVersion(),
  )

  app.get(
    `${BASE}/ctl/info/cluster`,
    {
      config: { operation: 'get_cluster_info', errors: ['notInMemoryMode'] },
      schema: {
        operationId: 'system.getClusterInfo',
        summary: 'Get cluster information',
        description:
          'Answers the control-data generation and every worker node with its cache state.',
        tags: ['System'],
        querystring: CustomAuditQuery,
        response: { 200: ClusterInfo },
      },
    },
    () => system.getClusterInfo(),
  )

  app.get(
    `${BASE}/system/info/configuration`,
    {
      config: { operation: 'get_configuration' },
      schema: {
        operationId: 'system.getConfiguration',
        summary: 'Get the configuration',
        description: 'Answers the effective configuration; secrets are masked.',
        tags: ['System'],
        querystring: CustomAuditQuery,
        response: { 200: Configuration },
      },
    },
    () => system.getConfiguration(),
  )

  app.get(
    `${BASE}/system/info/license`,
    {
      config: { operation: 'get_license' },
      schema: {
        operationId: 'system.getLicense',
        summary: 'Get the license',
        description:
          'Answers the license key (masked with SVC_FEATURES_MASK_LICENSE) and its expiry. Licensing is not enforced.',
        tags: ['System'],
        querystring: CustomAuditQuery,
        response: { 200: License },
      },
    },
    () => system.getLicense(),
  )

  app.post(
    `${BASE}/system/info/license`,
    {
      config: { operation: 'set_license' },
      schema: {
        operationId: 'system.setLicense',
        summary: 'Set the license',
        description: 'Stores a license key. Licensing is not enforced.',
        tags: ['System'],
        querystring: CustomAuditQuery,
        body: SetLicenseBody,
      },
    },
    async (req) => {
      await system.setLicense(req.ctx, req.body.key)
    },
  )

  app.get(
    `${BASE}/system/info/kms`,
    {
      config: { operation: 'get_kms_status' },
      schema: {
        operationId: 'system.getKms',
        summary: 'Get the KMS status',
        description: 'Answers whether the KMS (and the export KMS) can be used, and their kind.',
        tags: ['System'],
        querystring: CustomAuditQuery,
        response: { 200: KmsStatusResponse },
      },
    },
    () => system.getKmsStatus(),
  )

  app.delete(
    `${BASE}/system/confvar`,
    {
      config: { operation: 'clear_confvars' },
      schema: {
        operationId: 'configVars.clearAllConfVars',
        summary: 'Clear configuration variables',
        description: 'Resets every dynamic configuration variable to its default.',
        tags: ['Configuration variables'],
        querystring: CustomAuditQuery,
      },
    },
    async (req) => {
      await confvars.clear(req.ctx)
    },
  )

  app.get(
    `${BASE}/system/confvar/:name`,
    {
      config: { operation: 'get_confvar', errors: ['confvarNotFound'] },
      schema: {
        operationId: 'configVars.getConfVar',
        summary: 'Get a configuration variable',
        description:
          'Answers the value and default of a dynamic configuration variable (`log_level`, `trace_sql`).',
        tags: ['Configuration variables'],
        params: ConfvarParams,
        querystring: CustomAuditQuery,
        response: { 200: Confvar },
      },
    },
    async (req) => confvars.get(req.params.name),
  )

  app.post(
    `${BASE}/system/confvar/:name`,
    {
      config: { operation: 'set_confvar', errors: ['confvarNotFound'] },
      schema: {
        operationId: 'configVars.setConfVar',
        summary: 'Set a configuration variable',
        description: 'Sets a dynamic configuration variable for every node.',
        tags: ['Configuration variables'],
        params: ConfvarParams,
        querystring: CustomAuditQuery,
        body: SetConfvarBody,
      },
    },
    async (req) => {
      await confvars.set(req.ctx, req.params.name, req.body.value)
    },
  )

  app.post(
    `${BASE}/system/debug/error/trigger`,
    {
      config: { operation: 'trigger_error' },
      schema: {
        operationId: 'system.triggerError',
        summary: 'Trigger an error',
        description: 'A test aid: answers the error described by the body.',
        tags: ['System'],
        querystring: CustomAuditQuery,
        body: TriggerErrorBody,
      },
    },
    async (req) => system.triggerError(req.body.status),
  )
}
