// src/core/iam/config-rules.ts: the cross-checks of an IAM file (names, references, known values)
import type { IamConfigFile } from '../../contract/iam.ts'
import { toCapability } from './capabilities.ts'
import { isValidResourcePattern, LEGACY_POLICY_OPERATIONS, POLICY_OPERATIONS } from './policy.ts'
import { REASONS } from './reasons.ts'

/** The first thing wrong with a configuration: the dotted entry and what is wrong with it. */
export type Problem = Readonly<{ entry: string; message: string }>

export type RuleOptions = Readonly<{ allowJwksUri: boolean }>

const ADMIN = 'Admin'
/** Naming rules (spec README): a letter, then letters, digits and `_`; at most 450 characters. */
const NAME = /^[A-Za-z][A-Za-z0-9_]{0,449}$/
const OPERATIONS = new Set<string>([...POLICY_OPERATIONS, ...LEGACY_POLICY_OPERATIONS, '*'])
const REASON_NAMES = new Set<string>([...REASONS, '*'])

type Check = (entry: string, values: readonly string[]) => Problem | undefined

function firstOf<T>(items: Iterable<T>, find: (item: T) => Problem | undefined) {
  for (const item of items) {
    const problem = find(item)
    if (problem) return problem
  }
  return undefined
}

function eachValue(isKnown: (value: string) => boolean, what: string): Check {
  return (entry, values) =>
    firstOf(values, (value) =>
      isKnown(value) ? undefined : { entry, message: `names ${what} '${value}'` },
    )
}

function checkNames(file: IamConfigFile): Problem | undefined {
  const tables = { users: file.users, roles: file.roles, policies: file.policies, idps: file.idps }
  return firstOf(Object.entries(tables), ([table, entries]) =>
    firstOf(Object.keys(entries ?? {}), (name) => {
      const entry = `${table}.${name}`
      if (!NAME.test(name)) return { entry, message: 'is not a valid name' }
      if (name === ADMIN && (table === 'users' || table === 'roles'))
        return { entry, message: 'is built in and cannot be defined' }
      return undefined
    }),
  )
}

function checkRoles(file: IamConfigFile): Problem | undefined {
  const isRole = (name: string) => Object.hasOwn(file.roles, name)
  const isPolicy = (name: string) => name === '*' || Object.hasOwn(file.policies, name)
  const isCapability = (name: string) =>
    name === '*' || (toCapability(name) !== undefined && toCapability(name) !== 'CapSystem')
  return firstOf(Object.entries(file.roles), ([name, role]) => {
    const entry = `roles.${name}`
    return (
      eachValue(isCapability, 'an unknown capability')(
        `${entry}.capabilities`,
        role.capabilities ?? [],
      ) ??
      eachValue(isPolicy, 'an unknown policy')(`${entry}.policies`, role.policies ?? []) ??
      eachValue(isRole, 'an unknown role')(`${entry}.trusted_roles`, role.trusted_roles ?? [])
    )
  })
}

function checkUsers(file: IamConfigFile): Problem | undefined {
  return firstOf(Object.entries(file.users), ([name, user]) =>
    Object.hasOwn(file.roles, user.role)
      ? undefined
      : { entry: `users.${name}.role`, message: `names an unknown role '${user.role}'` },
  )
}

function checkPolicies(file: IamConfigFile): Problem | undefined {
  return firstOf(Object.entries(file.policies), ([name, policy]) => {
    const entry = `policies.${name}`
    return (
      eachValue((op) => OPERATIONS.has(op), 'an unknown operation')(
        `${entry}.operations`,
        policy.operations,
      ) ??
      eachValue((reason) => REASON_NAMES.has(reason), 'an unknown reason')(
        `${entry}.reasons`,
        policy.reasons,
      ) ??
      eachValue(isValidResourcePattern, 'an invalid resource')(
        `${entry}.resources`,
        policy.resources,
      )
    )
  })
}

const KEY_TYPES = ['RSA', 'EC', 'OKP', 'oct']

/** A JWKS from the forms an IAM file may use; undefined when it is not one. */
export function toJwks(value: unknown): { keys: Record<string, unknown>[] } | undefined {
  let parsed = value
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value)
    } catch {
      return undefined
    }
  }
  const keys = Array.isArray(parsed) ? parsed : (parsed as { keys?: unknown } | null)?.keys
  if (!Array.isArray(keys) || keys.length === 0) return undefined
  const isJwk = (key: unknown) =>
    typeof key === 'object' &&
    key !== null &&
    KEY_TYPES.includes((key as { kty?: unknown }).kty as string)
  return keys.every(isJwk) ? { keys: keys as Record<string, unknown>[] } : undefined
}

function checkIdpKeys(
  entry: string,
  conf: NonNullable<IamConfigFile['idps']>[string]['conf'],
  options: RuleOptions,
): Problem | undefined {
  const hasUri = conf.jwks_uri !== undefined
  if (hasUri === (conf.keys !== undefined))
    return { entry, message: 'must have exactly one of jwks_uri and keys' }
  if (hasUri && !options.allowJwksUri)
    return { entry: `${entry}.jwks_uri`, message: 'is not allowed (SVC_FEATURES_DISABLE_IDP_JWKS)' }
  if (hasUri && !/^https?:$/.test(URL.parse(conf.jwks_uri as string)?.protocol ?? ''))
    return { entry: `${entry}.jwks_uri`, message: 'is not an http or https URL' }
  if (!hasUri && toJwks(conf.keys) === undefined)
    return { entry: `${entry}.keys`, message: 'is not a JSON Web Key Set with at least one key' }
  return undefined
}

function checkIdps(file: IamConfigFile, options: RuleOptions): Problem | undefined {
  const isRole = (name: string) => Object.hasOwn(file.roles, name)
  return firstOf(Object.entries(file.idps ?? {}), ([name, idp]) => {
    const entry = `idps.${name}`
    return (
      checkIdpKeys(`${entry}.conf`, idp.conf, options) ??
      eachValue(isRole, 'an unknown role')(`${entry}.allowed_roles`, idp.allowed_roles ?? []) ??
      eachValue(isRole, 'an unknown role')(`${entry}.roles_map`, Object.values(idp.roles_map ?? {}))
    )
  })
}

/** The first rule an IAM file breaks, or undefined when it is acceptable as a whole. */
export function findProblem(file: IamConfigFile, options: RuleOptions): Problem | undefined {
  return (
    checkNames(file) ??
    checkPolicies(file) ??
    checkRoles(file) ??
    checkUsers(file) ??
    checkIdps(file, options)
  )
}
