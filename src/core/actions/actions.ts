// src/core/actions/actions.ts: the actions service: list, add, get, delete and invoke actions
import type { HttpCallInput } from '../../contract/actions.ts'
import type { AuditService } from '../audit/audit.ts'
import { type Audited, replaceDetails } from '../audit/details.ts'
import type { BundleReferrer, BundlesService } from '../bundles/bundles.ts'
import { bundleNotFound, javascriptDisabled } from '../bundles/bundles.ts'
import { callError, invocationError } from '../bundles/failures.ts'
import { exportedFunction, parseReference } from '../bundles/registry.ts'
import { isSandboxFailure, type Sandbox } from '../bundles/sandbox.ts'
import type { ControlCache } from '../cache.ts'
import { isValidName, nameKey } from '../collections/names.ts'
import type { RequestContext } from '../context.ts'
import { writeControl } from '../control-write.ts'
import { VaultError } from '../errors.ts'
import { actionResource } from '../iam/policy.ts'
import type { Repos, Store } from '../store.ts'
import { type HttpCallDeps, invokeHttpCall } from './http-call.ts'
import { withRole } from './principal.ts'
import type { StoredAction } from './store.ts'
import { createVaultHost } from './vault-host.ts'

export const HTTP_CALL = 'http_call'

/** An action as listed: a stored one, or the built-in http_call. */
export type ActionInfo = StoredAction & Readonly<{ isBuiltin: boolean }>

export type ActionInput = Readonly<{
  name: string
  description?: string
  function: string
  role: string
}>

export type ActionsDeps = HttpCallDeps &
  Readonly<{
    store: Store
    cache: ControlCache
    audit: AuditService
    bundles: BundlesService
    sandbox: Sandbox
  }>

/** Bundles referenced by actions cannot be deleted (endpoints §6.10; `force` does not help). */
export const actionsReferrer: BundleReferrer = {
  async blockers(tx: Repos, bundle: string) {
    return (await tx.actions.listByBundle(bundle)).map((name) => `action ${name}`)
  },
}

function actionNotFound(name: string): VaultError {
  return new VaultError('actionNotFound', {
    message: 'The action is not found.',
    context: { action: name.slice(0, 100) },
  })
}

function invalidAction(message: string, context: Record<string, string>): VaultError {
  return new VaultError('invalidRequest', { message, context })
}

const byName = (a: StoredAction, b: StoredAction) =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : 0

export function createActionsService(deps: ActionsDeps) {
  let cached: ReadonlyMap<string, StoredAction> = new Map()
  const builtin: ActionInfo = {
    name: HTTP_CALL,
    description: 'Sends an HTTP request built from templates that reference vault data.',
    bundle: '',
    function: HTTP_CALL,
    role: deps.role,
    createdAt: 0,
    modifiedAt: 0,
    isBuiltin: true,
  }

  /** `read` on `actions/<name>`; the built-in Admin reads action definitions like any control data. */
  function canRead(ctx: RequestContext, name: string): boolean {
    if (ctx.principal.isAdmin) return true
    try {
      deps.iam.checkPolicies(ctx, [{ operation: 'read', resources: actionResource(name) }])
      return true
    } catch {
      return false
    }
  }

  async function find(name: string): Promise<ActionInfo | undefined> {
    if (name === HTTP_CALL) return builtin
    const stored = isValidName(name) ? await deps.store.actions.get(name) : undefined
    return stored && { ...stored, isBuiltin: false }
  }

  async function list(ctx: RequestContext): Promise<ActionInfo[]> {
    const stored = (await deps.store.actions.list())
      .sort(byName)
      .map((a) => ({ ...a, isBuiltin: false }))
    return [builtin, ...stored].filter((action) => canRead(ctx, action.name))
  }

  async function get(ctx: RequestContext, name: string): Promise<ActionInfo> {
    const action = await find(name)
    if (action === undefined) throw actionNotFound(name)
    if (!ctx.principal.isAdmin)
      deps.iam.checkPolicies(ctx, [{ operation: 'read', resources: actionResource(name) }])
    return action
  }

  function checkInput(input: ActionInput) {
    if (!isValidName(input.name))
      throw invalidAction(
        'The action name is invalid: use letters, digits and _, starting with a letter.',
        { action: input.name.slice(0, 100) },
      )
    if (nameKey(input.name) === HTTP_CALL)
      throw new VaultError('alreadyExists', {
        message: 'The action http_call is built in.',
        context: { action: input.name },
      })
    const reference = parseReference(input.function)
    if (reference === undefined)
      throw invalidAction('The function must be written "<bundle>.<function>".', {
        action: input.name,
        field: 'function',
      })
    if (!deps.iam.roleExists(input.role))
      throw invalidAction(
        `The role ${input.role.slice(0, 100)} does not exist in the IAM configuration.`,
        { action: input.name, field: 'role' },
      )
    return reference
  }

  async function create(ctx: RequestContext, input: ActionInput): Promise<ActionInfo> {
    if (deps.bundles.isJavascriptDisabled) throw javascriptDisabled()
    const reference = checkInput(input)
    const action: StoredAction = {
      name: input.name,
      description: input.description ?? '',
      bundle: reference.bundle,
      function: reference.function,
      role: input.role,
      createdAt: ctx.now,
      modifiedAt: ctx.now,
    }
    await writeControl(deps, ctx, async (tx) => {
      // Held to the end, so a concurrent delete of the bundle sees this action (or wins first).
      const bundle = (await tx.bundles.hold(reference.bundle))
        ? await tx.bundles.get(reference.bundle)
        : undefined
      if (bundle === undefined) throw bundleNotFound(reference.bundle)
      if (exportedFunction(bundle, reference.function, 'action') === undefined)
        throw invalidAction(`The bundle ${bundle.name} exports no action ${reference.function}.`, {
          action: input.name,
          field: 'function',
        })
      if (!(await tx.actions.insert(action)))
        throw new VaultError('alreadyExists', {
          message: `An action ${input.name} already exists (names are unique regardless of case).`,
          context: { action: input.name },
        })
    })
    return { ...action, isBuiltin: false }
  }

  async function remove(ctx: RequestContext, name: string): Promise<void> {
    if (name === HTTP_CALL)
      throw invalidAction('The built-in action http_call cannot be deleted.', { action: name })
    await writeControl(deps, ctx, async (tx) => {
      if (!isValidName(name) || !(await tx.actions.delete(name))) throw actionNotFound(name)
    })
  }

  /** §7.5: runs the function with `context = { user, role, reason, body, vault }`. */
  async function invoke(
    ctx: RequestContext,
    name: string,
    body: unknown,
  ): Promise<Audited<unknown>> {
    if (deps.bundles.isJavascriptDisabled) throw javascriptDisabled()
    const action = cached.get(name)
    if (action === undefined) throw actionNotFound(name)
    deps.iam.checkPolicies(ctx, [{ operation: 'invoke', resources: actionResource(name) }])
    const fn = deps.bundles.registry.functionOf({
      bundle: action.bundle,
      function: action.function,
    })
    if (fn === undefined) throw bundleNotFound(action.bundle)
    const vault = createVaultHost(deps, withRole(ctx, action.role))
    const context = {
      user: ctx.principal.username,
      role: ctx.principal.role,
      reason: ctx.reason?.reason ?? null,
      body: body ?? null,
    }
    try {
      const [outcome] = await deps.sandbox.call({
        bundle: fn.bundle,
        function: action.function,
        type: 'action',
        inputs: [[context]],
        signal: ctx.signal,
        vault: vault.host,
      })
      if (outcome?.ok) return { value: outcome.value, audit: vault.audit() }
      throw (
        vault.firstError() ??
        invocationError(
          outcome?.error ?? { kind: 'threw', name: 'Error' },
          action.bundle,
          action.function,
        )
      )
    } catch (error) {
      const failure = isSandboxFailure(error)
        ? callError(error, action.bundle, action.function)
        : error
      // The record names what the action's vault calls touched, whichever error is the answer.
      throw replaceDetails(failure, vault.audit())
    }
  }

  return {
    list,
    get,
    create,
    delete: remove,
    invoke,
    invokeHttpCall: (ctx: RequestContext, input: HttpCallInput) => invokeHttpCall(deps, ctx, input),
    /** Cache loader: the custom actions, for invocations on this node. */
    async load(): Promise<void> {
      cached = new Map((await deps.store.actions.list()).map((a) => [a.name, a]))
    },
  }
}

export type ActionsService = ReturnType<typeof createActionsService>
