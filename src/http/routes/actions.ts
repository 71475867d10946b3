// src/http/routes/actions.ts: HTTP binding for actions and their invocation, http_call included (endpoints §7)
import {
  Action,
  ActionInput,
  ActionParams,
  HttpCallInput,
  HttpCallResult,
} from '../../contract/actions.ts'
import { CustomAuditQuery, DataQuery } from '../../contract/common.ts'
import { Type } from '../../contract/schema.ts'
import type { ActionInfo } from '../../core/actions/actions.ts'
import { formatNano } from '../../core/time.ts'
import { audited } from '../audited.ts'
import type { RoutesPlugin } from './types.ts'

const CTL = '/api/pvlt/1.0/ctl/actions'
const DATA = '/api/pvlt/1.0/data/actions'
const TAGS = ['Actions']

function toWireAction(action: ActionInfo): Action {
  return {
    name: action.name,
    description: action.description,
    function: action.isBuiltin ? action.function : `${action.bundle}.${action.function}`,
    role: action.role,
    is_builtin: action.isBuiltin,
    ...(action.isBuiltin
      ? {}
      : {
          creation_time: formatNano(action.createdAt),
          modification_time: formatNano(action.modifiedAt),
        }),
  }
}

export const actionsRoutes: RoutesPlugin = async (app, { services }) => {
  const { actions } = services

  app.get(
    CTL,
    {
      config: { operation: 'list_actions' },
      schema: {
        operationId: 'actions.listActions',
        summary: 'List actions',
        description:
          'Lists the built-in http_call and the custom actions, leaving out those the caller has no read policy for.',
        tags: TAGS,
        querystring: CustomAuditQuery,
        response: { 200: Type.Array(Action) },
      },
    },
    async (req) => (await actions.list(req.ctx)).map(toWireAction),
  )

  app.post(
    CTL,
    {
      config: {
        operation: 'add_action',
        errors: ['featureDisabled', 'bundleNotFound', 'alreadyExists'],
      },
      schema: {
        operationId: 'actions.addAction',
        summary: 'Add action',
        description:
          'Adds a custom action: a function exported as an action by a bundle ("<bundle>.<function>"), run with an IAM role that governs its access to data.',
        tags: TAGS,
        querystring: CustomAuditQuery,
        body: ActionInput,
        response: { 200: Action },
      },
    },
    async (req) => toWireAction(await actions.create(req.ctx, req.body)),
  )

  app.get(
    `${CTL}/:action`,
    {
      config: { operation: 'get_action', errors: ['actionNotFound', 'policyDenied'] },
      schema: {
        operationId: 'actions.getActionByName',
        summary: 'Get action',
        description: 'Gets an action; the caller needs a read policy on actions/<name>.',
        tags: TAGS,
        params: ActionParams,
        querystring: CustomAuditQuery,
        response: { 200: Action },
      },
    },
    async (req) => toWireAction(await actions.get(req.ctx, req.params.action)),
  )

  app.delete(
    `${CTL}/:action`,
    {
      config: { operation: 'delete_action', errors: ['actionNotFound'] },
      schema: {
        operationId: 'actions.deleteAction',
        summary: 'Delete action',
        description: 'Deletes a custom action; the built-in http_call cannot be deleted.',
        tags: TAGS,
        params: ActionParams,
        querystring: CustomAuditQuery,
      },
    },
    async (req) => {
      await actions.delete(req.ctx, req.params.action)
    },
  )

  app.post(
    `${DATA}/http_call`,
    {
      config: {
        operation: 'invoke_http_call',
        errors: ['collectionNotFound', 'propertyNotFound', 'objectNotFound', 'tokenNotFound'],
      },
      schema: {
        operationId: 'actions.invokeHttpCallAction',
        summary: 'Invoke HTTP call action',
        description:
          'Sends an HTTP request built from templates whose variables are global identifiers of vault data, to a destination the allow-lists permit.',
        tags: TAGS,
        querystring: DataQuery,
        body: HttpCallInput,
        response: { 200: HttpCallResult },
      },
    },
    async (req) => audited(await actions.invokeHttpCall(req.ctx, req.body)),
  )

  app.post(
    `${DATA}/:action`,
    {
      config: {
        operation: 'invoke_action',
        errors: ['featureDisabled', 'actionNotFound', 'bundleNotFound', 'functionFailed'],
      },
      schema: {
        operationId: 'actions.invokeAction',
        summary: 'Invoke action',
        description:
          'Runs a custom action with the request body as context.body and answers its return value as JSON.',
        tags: TAGS,
        params: ActionParams,
        querystring: DataQuery,
        body: Type.Unknown(),
      },
    },
    async (req, reply) => {
      const result = await actions.invoke(req.ctx, req.params.action, req.body)
      // Any JSON value, strings included, so it is serialized here; the audit record is
      // written (by the route wrapper) before this payload is sent.
      reply.type('application/json; charset=utf-8')
      return audited(result, (value) => JSON.stringify(value ?? null))
    },
  )
}
