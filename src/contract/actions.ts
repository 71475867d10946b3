// src/contract/actions.ts: wire shapes of actions and the built-in http_call (endpoints §7, data-model §10)
import type { Static } from 'typebox'
import { Type } from './schema.ts'

/**
 * An action: a bundle function run with an IAM role, or the built-in `http_call`.
 * @example { "name": "notify", "description": "", "function": "hooks.notify", "role": "Notifier", "is_builtin": false, "creation_time": "…", "modification_time": "…" }
 */
export const Action = Type.Object({
  name: Type.String(),
  description: Type.String(),
  function: Type.String(),
  role: Type.String(),
  is_builtin: Type.Boolean(),
  creation_time: Type.Optional(Type.String()),
  modification_time: Type.Optional(Type.String()),
})
export type Action = Static<typeof Action>

/** Add action; `is_builtin` and the times are ignored. @example { "name": "notify", "function": "hooks.notify", "role": "Notifier" } */
export const ActionInput = Type.Object({
  name: Type.String({ minLength: 1 }),
  description: Type.Optional(Type.String()),
  function: Type.String(),
  role: Type.String(),
})
export type ActionInput = Static<typeof ActionInput>

/** @example /ctl/actions/notify */
export const ActionParams = Type.Object({ action: Type.String() })

export const HTTP_METHODS = [
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'CONNECT',
  'OPTIONS',
  'TRACE',
] as const

/**
 * The request an http_call sends; `url`, header values and `body` are templates.
 * @example { "url": "https://api.example.com/v1/{{ .id }}", "method": "POST", "headers": { "content-type": "application/json" }, "body": "{\"ssn\": \"{{ .ssn }}\"}" }
 */
export const HttpCallRequest = Type.Object({
  url: Type.String(),
  method: Type.Optional(Type.Union(HTTP_METHODS.map((m) => Type.Literal(m)))),
  headers: Type.Optional(Type.Record(Type.String(), Type.String())),
  body: Type.Optional(Type.String()),
})

/**
 * Invoke http_call: template variables name global identifiers, resolved before rendering.
 * @example { "template_variables": { "ssn": "pvlt:read_object:customers:ssn:8d0f…:" }, "request": { … }, "include_response_body": true }
 */
export const HttpCallInput = Type.Object({
  template_variables: Type.Optional(Type.Record(Type.String(), Type.String())),
  request: HttpCallRequest,
  include_response_body: Type.Optional(Type.Boolean()),
})
export type HttpCallInput = Static<typeof HttpCallInput>

/** @example { "status_code": 200, "headers": { "content-type": "application/json" }, "body": "{}" } */
export const HttpCallResult = Type.Object({
  status_code: Type.Integer(),
  headers: Type.Record(Type.String(), Type.String()),
  body: Type.Optional(Type.String()),
})
export type HttpCallResult = Static<typeof HttpCallResult>
