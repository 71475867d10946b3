// src/http/routes/iam.ts: HTTP binding for the IAM configuration, users' API keys and the Admin key
import { CustomAuditQuery } from '../../contract/common.ts'
import {
  AdminApiKeyBody,
  ApiKeyExpiryResponse,
  ApiKeyResponse,
  IamConfigText,
  UserDetails,
  UserNameBody,
  UserNameExpiryBody,
  UserParams,
} from '../../contract/iam.ts'
import { formatExpiry } from '../../core/iam/api-keys.ts'
import type { RoutesPlugin } from './types.ts'

const IAM = '/api/pvlt/1.0/ctl/iam'

export const iamRoutes: RoutesPlugin = async (app, { services }) => {
  const { iam } = services

  app.get(
    `${IAM}/conf`,
    {
      config: { operation: 'get_iam_conf' },
      schema: {
        operationId: 'iam.getIamConf',
        summary: 'Get the IAM configuration',
        description:
          'Answers the IAM configuration (users, roles, policies, identity providers) as TOML.',
        tags: ['IAM'],
        querystring: CustomAuditQuery,
      },
    },
    async (req, reply) => {
      // Returned, not sent: the response leaves only after the call's audit record is written.
      reply.type('application/toml; charset=utf-8')
      return iam.getConfig(req.ctx)
    },
  )

  app.post(
    `${IAM}/conf`,
    {
      config: { operation: 'set_iam_conf', errors: ['featureDisabled'] },
      schema: {
        operationId: 'iam.setIamConf',
        summary: 'Set the IAM configuration',
        description: 'Replaces the whole IAM configuration after validating it.',
        tags: ['IAM'],
        querystring: CustomAuditQuery,
        body: IamConfigText,
      },
    },
    async (req) => {
      await iam.setConfig(req.ctx, req.body)
    },
  )

  app.post(
    `${IAM}/user/regen`,
    {
      config: { operation: 'regenerate_user_api_key', errors: ['adminNotAllowed', 'userNotFound'] },
      schema: {
        operationId: 'iam.regenerateUserApiKey',
        summary: "Regenerate a user's API key",
        description: 'Issues a new API key for a user; the old one stops working at once.',
        tags: ['IAM'],
        querystring: CustomAuditQuery,
        body: UserNameBody,
        response: { 200: ApiKeyResponse },
      },
    },
    async (req) => {
      const key = await iam.regenerateApiKey(req.ctx, req.body.name)
      return { api_key: key.apiKey, api_key_expiry: formatExpiry(key.expiresAt) }
    },
  )

  app.post(
    `${IAM}/user/update-expiration`,
    {
      config: {
        operation: 'update_user_api_key_expiration',
        errors: ['adminNotAllowed', 'userNotFound'],
      },
      schema: {
        operationId: 'iam.updateApiKeyExpiration',
        summary: "Update a user's API key expiry",
        description: "Sets when a user's API key expires, in seconds from now.",
        tags: ['IAM'],
        querystring: CustomAuditQuery,
        body: UserNameExpiryBody,
        response: { 200: ApiKeyExpiryResponse },
      },
    },
    async (req) => {
      const { name, expiration_secs } = req.body
      const key = await iam.updateApiKeyExpiration(req.ctx, name, expiration_secs)
      return { name: key.name, api_key_expiry: formatExpiry(key.expiresAt) }
    },
  )

  app.get(
    `${IAM}/user/:user`,
    {
      config: { operation: 'get_user', errors: ['userNotFound'] },
      schema: {
        operationId: 'iam.getUser',
        summary: 'Get a user',
        description: "Answers a user's name and API key expiry.",
        tags: ['IAM'],
        params: UserParams,
        querystring: CustomAuditQuery,
        response: { 200: UserDetails },
      },
    },
    async (req) => {
      const user = await iam.getUser(req.ctx, req.params.user)
      return { name: user.name, api_key: { expiry: formatExpiry(user.expiresAt) } }
    },
  )

  app.post(
    `${IAM}/admin/set-api-key`,
    {
      config: { operation: 'set_admin_api_key' },
      schema: {
        operationId: 'iam.setAdminApiKey',
        summary: 'Set the Admin API key',
        description:
          'Replaces the Admin API key (at least 15 characters with a digit, a lower-case and an upper-case letter).',
        tags: ['IAM'],
        querystring: CustomAuditQuery,
        body: AdminApiKeyBody,
      },
    },
    async (req) => {
      await iam.setAdminApiKey(req.ctx, req.body.key)
    },
  )
}
