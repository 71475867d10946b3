// src/core/iam/config.ts: IAM TOML → validated, typed IamConfig and its normalized text
import { createRequire } from 'node:module'
import { parse, stringify, TomlError } from 'smol-toml'
import type { Check, Errors } from 'typebox/schema'
import { IamConfigFile } from '../../contract/iam.ts'
import { VaultError } from '../errors.ts'
import { findProblem, type Problem, type RuleOptions, toJwks } from './config-rules.ts'
import { DEFAULT_IAM_TOML } from './default-config.ts'

export type UserConfig = Readonly<{ role: string; isDisabled: boolean }>

export type RoleConfig = Readonly<{
  capabilities: readonly string[]
  policies: readonly string[]
  trustedRoles: readonly string[]
}>

export type PolicyConfig = Readonly<{
  isAllow: boolean
  operations: readonly string[]
  reasons: readonly string[]
  resources: readonly string[]
}>

export type Jwks = Readonly<{ keys: readonly Record<string, unknown>[] }>

export type IdpConfig = Readonly<{
  isDisabled: boolean
  /** Roles a token may resolve to; undefined allows every role. */
  allowedRoles: readonly string[] | undefined
  rolesMap: Readonly<Record<string, string>>
  iss: string
  aud: string | readonly string[]
  jwksUri: string | undefined
  keys: Jwks | undefined
  rolesClaim: string
  boundClaims: Readonly<Record<string, unknown>>
  extraClaims: readonly string[]
  namespaceTopClaim: string | undefined
}>

export type IamConfig = Readonly<{
  users: ReadonlyMap<string, UserConfig>
  roles: ReadonlyMap<string, RoleConfig>
  policies: ReadonlyMap<string, PolicyConfig>
  idps: ReadonlyMap<string, IdpConfig>
}>

export type ParsedIamConfig = Readonly<{ config: IamConfig; toml: string }>

function invalid(problem: Problem): VaultError {
  return new VaultError('invalidRequest', {
    message: `The IAM configuration is invalid: ${problem.entry} ${problem.message}.`,
    context: { entry: problem.entry },
  })
}

function parseToml(text: string): unknown {
  try {
    return parse(text)
  } catch (error) {
    if (!(error instanceof TomlError)) throw error
    const what = error.message.split('\n')[0]?.replace(/^Invalid TOML document: /, '') ?? ''
    throw new VaultError('invalidRequest', {
      message: `The IAM configuration is not valid TOML: ${what} at line ${error.line}, column ${error.column}.`,
      context: { line: String(error.line), column: String(error.column) },
    })
  }
}

const require = createRequire(import.meta.url)

type SchemaChecker = { readonly Check: typeof Check; readonly Errors: typeof Errors }
let checker: SchemaChecker | undefined

/**
 * TypeBox's JSON Schema checker (what `Value.Check` and `Value.Errors` from `typebox/value` call,
 * without the ~440 modules around them), required on first use: ~240 modules, ~0.1 s.
 */
function schemaChecker(): SchemaChecker {
  checker ??= require('typebox/schema') as SchemaChecker
  return checker
}

function checkShape(value: unknown): IamConfigFile {
  const { Check, Errors } = schemaChecker()
  if (Check({}, IamConfigFile, value)) return value as IamConfigFile
  const [, [issue]] = Errors({}, IamConfigFile, value)
  const path = (issue?.instancePath ?? '').replace(/^\//, '').split('/').join('.')
  const missing = (issue?.params as { requiredProperties?: string[] } | undefined)
    ?.requiredProperties
  const entry = [path, missing?.join(',')].filter(Boolean).join('.') || 'the document'
  throw invalid({ entry, message: missing ? 'is missing' : (issue?.message ?? 'is invalid') })
}

function splitClaims(value: string | readonly string[] | undefined): string[] {
  const list = typeof value === 'string' ? value.split(',') : [...(value ?? [])]
  return list.map((claim) => claim.trim()).filter((claim) => claim.length > 0)
}

function toIdp(idp: NonNullable<IamConfigFile['idps']>[string]): IdpConfig {
  const { conf } = idp
  return {
    isDisabled: idp.disabled === true,
    allowedRoles: idp.allowed_roles,
    rolesMap: idp.roles_map ?? {},
    iss: conf.iss,
    aud: conf.aud,
    jwksUri: conf.jwks_uri,
    keys: conf.keys === undefined ? undefined : toJwks(conf.keys),
    rolesClaim: conf.roles_claim ?? 'roles',
    boundClaims: conf.bound_claims ?? {},
    extraClaims: splitClaims(conf.extra_claims),
    namespaceTopClaim: conf.namespace_top_claim,
  }
}

function mapOf<T, U>(record: Record<string, T>, convert: (item: T) => U): Map<string, U> {
  return new Map(Object.entries(record).map(([name, item]) => [name, convert(item)]))
}

function toConfig(file: IamConfigFile): IamConfig {
  return {
    users: mapOf(file.users, (user) => ({ role: user.role, isDisabled: user.disabled === true })),
    roles: mapOf(file.roles, (role) => ({
      capabilities: role.capabilities ?? [],
      policies: role.policies ?? [],
      trustedRoles: role.trusted_roles ?? [],
    })),
    policies: mapOf(file.policies, (policy) => ({
      isAllow: policy.policy_type === 'allow',
      operations: policy.operations,
      reasons: policy.reasons,
      resources: policy.resources,
    })),
    idps: mapOf(file.idps ?? {}, toIdp),
  }
}

/** Tables with their keys in sorted order, recursively; arrays keep their order. */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys)
  if (typeof value !== 'object' || value === null) return value
  const prototype = Object.getPrototypeOf(value)
  if (prototype !== Object.prototype && prototype !== null) return value
  const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return Object.fromEntries(entries.map(([key, item]) => [key, sortKeys(item)]))
}

/**
 * Parses and validates an IAM file as a whole. Any problem throws 400 ERR1012 naming the entry
 * (or the line and column of a TOML syntax error); nothing is half-accepted.
 */
export function parseIamConfig(text: string, options: RuleOptions): ParsedIamConfig {
  // The built-in default passes the shape check (config.test.ts), so the first start of a node
  // does not load the checker for it; every other text is checked.
  const document = parseToml(text)
  const file = text === DEFAULT_IAM_TOML ? (document as IamConfigFile) : checkShape(document)
  const problem = findProblem(file, options)
  if (problem) throw invalid(problem)
  return { config: toConfig(file), toml: stringify(sortKeys(file)) }
}
