// src/core/iam/iam.ts: the IAM service: configuration, credentials → principal, capability and policy gates

import type { AuditedWrites } from '../audit/audit.ts'
import { NO_DETAILS } from '../audit/details.ts'
import type { Principal, RequestContext } from '../context.ts'
import { VaultError } from '../errors.ts'
import type { Repos, Store } from '../store.ts'
import type { Clock } from '../time.ts'
import { createAdminKeys } from './api-keys.ts'
import { createAuthenticator } from './authenticate.ts'
import type { Capability } from './capabilities.ts'
import { parseIamConfig } from './config.ts'
import { DEFAULT_IAM_TOML } from './default-config.ts'
import { evaluate, type PolicyCheck } from './evaluate.ts'
import { meetsRequirement, OPERATIONS, type Operation } from './operations.ts'
import { DEFAULT_REASON } from './reasons.ts'
import { installKeyHashes, type KeyHash } from './secrets-file.ts'
import { compileState, EMPTY_STATE, type IamState } from './state.ts'
import { createUsers } from './users.ts'

export { ADMIN } from './authenticate.ts'
export type { PolicyCheck } from './evaluate.ts'

export type IamDeps = Readonly<{
  store: Store
  /** Writes of API calls run in a transaction with their audit record. */
  audit: AuditedWrites
  clock: Clock
  /** Tells every node that control data changed (the control cache's generation). */
  onChanged: () => Promise<void>
  /** The Admin key in force at start (SVC_SERVICE_ADMIN_API_KEY, dev default `pvaultauth`). */
  adminApiKey: string
  overrideAdminApiKeyOnRestart: boolean
  adminMayReadData: boolean
  policyEnforcement: boolean
  apiKeyExpirationSecs: number
  /** False with SVC_FEATURES_DISABLE_IDP_JWKS: IdPs must carry their keys inline. */
  allowJwksUri: boolean
  /** SVC_SERVICE_SET_IAM_ON_START_ONLY: the file is applied at every start; set-IAM is refused. */
  setIamOnStartOnly: boolean
}>

/** The IAM file found in the configuration directory at start, if any. */
export type IamFile = Readonly<{ path: string; text: string }>

export function createIamService(deps: IamDeps) {
  let state: IamState = EMPTY_STATE
  /** The stored version `state` was compiled from, so unrelated cache reloads skip the work. */
  let version = 0
  const getState = () => state
  const options = { allowJwksUri: deps.allowJwksUri }
  const adminKeys = createAdminKeys({
    meta: deps.store.meta,
    envKey: deps.adminApiKey,
    overrideOnRestart: deps.overrideAdminApiKeyOnRestart,
  })
  const { authenticate } = createAuthenticator({ ...deps, adminKeys, state: getState })
  const users = createUsers({ ...deps, adminKeys, state: getState })

  /** Reloads the stored configuration (the control cache calls this on every generation change). */
  async function load(): Promise<void> {
    const stored = await deps.store.iam.getConfig()
    if (stored === undefined || stored.version === version) return
    state = compileState(parseIamConfig(stored.toml, options))
    version = stored.version
  }

  /**
   * Validates and stores a configuration (with its users' keys) in one transaction, and uses it;
   * for a call (`ctx`), its audit record is written in that transaction too.
   */
  async function store(toml: string, ctx?: RequestContext): Promise<void> {
    const parsed = parseIamConfig(toml, options)
    const work = async (tx: Repos) => {
      const next = await tx.iam.setConfig(parsed.toml, deps.clock())
      // Users that left the configuration lose their keys; the others keep theirs.
      await tx.iam.deleteApiKeysExcept([...parsed.config.users.keys()])
      return next
    }
    const stored = await (ctx === undefined
      ? deps.store.transaction(work)
      : deps.audit.transaction(ctx, NO_DETAILS, work))
    state = compileState(parsed)
    version = stored
  }

  /**
   * At start: applies the Admin key rule, then installs the IAM file (or the default) when the
   * store has none, or at every start with SVC_SERVICE_SET_IAM_ON_START_ONLY; else loads the
   * stored configuration. A configuration that cannot be used throws, naming where it came from.
   */
  async function initialize(file: IamFile | undefined): Promise<void> {
    await adminKeys.initialize()
    const isEmpty = (await deps.store.iam.getConfig()) === undefined
    const [source, work] =
      isEmpty || (file !== undefined && deps.setIamOnStartOnly)
        ? [
            file?.path ?? 'The default IAM configuration',
            () => store(file?.text ?? DEFAULT_IAM_TOML),
          ]
        : ['The stored IAM configuration', load]
    try {
      await work()
    } catch (error) {
      if (!(error instanceof VaultError)) throw error
      throw new VaultError(error.errorName, {
        message: `${source}: ${error.message}`,
        context: error.context,
      })
    }
  }

  async function setConfig(ctx: RequestContext, toml: string): Promise<void> {
    if (deps.setIamOnStartOnly) {
      throw new VaultError('featureDisabled', {
        message:
          'The IAM configuration can only be set at start (SVC_SERVICE_SET_IAM_ON_START_ONLY).',
      })
    }
    await store(toml, ctx)
    await deps.onChanged()
  }

  function capabilitiesOf(principal: Principal): ReadonlySet<Capability> {
    if (principal.isAdmin) return new Set<Capability>(['CapSystem'])
    return state.roles.get(principal.role)?.capabilities ?? new Set()
  }

  /**
   * The capability gate: 403 ERR1007 naming the user when the role lacks what the operation
   * needs; Admin-only operations answer 403 ERR2021 to everyone else. `subject` is the user an
   * operation targets, for operations a caller may run on itself.
   */
  function authorize(ctx: RequestContext, operation: Operation, subject?: string): void {
    const requirement = OPERATIONS[operation]
    const { principal } = ctx
    if (requirement.kind === 'admin' && !principal.isAdmin) {
      throw new VaultError('adminNotAllowed', {
        message: 'The operation is allowed only for the Admin user.',
        context: { username: principal.username },
      })
    }
    const isSelf =
      requirement.kind === 'anyOf' &&
      requirement.isSelfAllowed === true &&
      subject === principal.username
    if (isSelf) return
    if (!meetsRequirement(requirement, capabilitiesOf(principal), principal.isAdmin)) {
      throw new VaultError('missingCapability', { context: { username: principal.username } })
    }
  }

  function denied(ctx: RequestContext, why: string, check?: PolicyCheck): VaultError {
    const context: Record<string, string> = { username: ctx.principal.username }
    if (check) {
      context.operation = check.operation
      context.resource = check.resources[0] ?? ''
    }
    return new VaultError('policyDenied', {
      message: `The request is forbidden due to a policy violation: ${why}.`,
      context,
    })
  }

  /**
   * The data-policy gate: every check needs an allowing and no denying policy of the caller's
   * role, else 403 ERR1006 (deny by default). Admin passes only with SVC_SERVICE_ADMIN_MAY_READ_DATA.
   */
  function checkPolicies(ctx: RequestContext, checks: readonly PolicyCheck[]): void {
    if (!deps.policyEnforcement || checks.length === 0) return
    if (ctx.principal.isAdmin) {
      if (deps.adminMayReadData) return
      throw denied(ctx, 'the Admin user may not access data')
    }
    const policies = state.roles.get(ctx.principal.role)?.policies ?? []
    const decision = evaluate(policies, checks, ctx.reason?.reason ?? DEFAULT_REASON)
    if (decision.isAllowed) return
    const { check } = decision
    throw denied(
      ctx,
      `${check.operation} of ${check.resources[0] ?? 'the resource'} is not allowed`,
      check,
    )
  }

  return {
    authenticate,
    authorize,
    checkPolicies,
    capabilitiesOf,
    /** Whether the configuration defines the role (actions run with one). */
    roleExists: (name: string): boolean => state.roles.has(name),
    load,
    initialize,
    /** Stateless nodes: users' API key hashes from secrets.toml; the problems name unknown users. */
    installKeyHashes: (keys: readonly KeyHash[]): Promise<string[]> =>
      installKeyHashes(deps.store.iam, keys, (name) => state.config.users.has(name), deps.clock()),
    getConfig: (_ctx: RequestContext): string => state.toml,
    setConfig,
    ...users,
  }
}

export type IamService = ReturnType<typeof createIamService>
