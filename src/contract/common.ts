// src/contract/common.ts: wire shapes shared by many operations
import type { Static } from 'typebox'
import { Type } from './schema.ts'

/**
 * A boolean query parameter: `true`/`false` in any case (anything else is 400 ERR1012).
 * @example ?reload_cache=TRUE
 */
export const QueryBoolean = Type.String({ pattern: '^([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])$' })

/** An array query parameter; repeated keys and comma-separated values arrive merged. */
export const QueryList = Type.Array(Type.String())

/** `custom_audit`: free text copied into the audit record of the call. */
export const CustomAuditQuery = Type.Object({ custom_audit: Type.Optional(Type.String()) })
export type CustomAuditQuery = Static<typeof CustomAuditQuery>

/**
 * The shared data-plane parameters (README "Shared query parameters").
 * @example ?reason=AppFunctionality&custom_audit=ticket-42
 */
export const DataQuery = Type.Object({
  reason: Type.Optional(Type.String()),
  adhoc_reason: Type.Optional(Type.String()),
  custom_audit: Type.Optional(Type.String()),
  reload_cache: Type.Optional(QueryBoolean),
})
export type DataQuery = Static<typeof DataQuery>

/** Query parameters that hold arrays: both `a=1&a=2` and `a=1,2` are accepted and merged. */
export const ARRAY_QUERY_PARAMETERS = [
  'props',
  'options',
  'ids',
  'token_ids',
  'object_ids',
  'tags',
  'token_types',
] as const

/** Health in the IETF health-check format. @example { "status": "pass" } */
export const Health = Type.Object({
  status: Type.Union([Type.Literal('pass'), Type.Literal('fail')]),
})
export type Health = Static<typeof Health>

/**
 * Readiness: the overall status and each check (`database`, `kms`, `audit_<sink>`), never why a
 * check failed (the service log says). @example { "status": "fail", "checks": { "database": "pass", "kms": "pass", "audit_file": "fail" } }
 */
export const Readiness = Type.Object({
  status: Type.Union([Type.Literal('pass'), Type.Literal('fail')]),
  checks: Type.Record(Type.String(), Type.Union([Type.Literal('pass'), Type.Literal('fail')])),
})
