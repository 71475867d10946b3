// src/core/bundles/bundles.ts: the bundles service: list, add, get, update and delete bundles of code
import type { AuditService } from '../audit/audit.ts'
import type { ControlCache } from '../cache.ts'
import { isValidName } from '../collections/names.ts'
import type { RequestContext } from '../context.ts'
import { writeControl } from '../control-write.ts'
import { VaultError } from '../errors.ts'
import type { Repos, Store } from '../store.ts'
import { bundleSource, decodeCode } from './code.ts'
import { assertSuperset, type FunctionPrototype, judgeExports } from './exports.ts'
import { loadError } from './failures.ts'
import { type BundleRegistry, createBundleRegistry } from './registry.ts'
import { isSandboxFailure, type Sandbox } from './sandbox.ts'
import type { StoredBundle } from './store.ts'

/** Something that references bundles' functions (actions; custom data types) and may block a delete. */
export type BundleReferrer = Readonly<{
  /**
   * What still references `bundle`, as `"<kind> <name>"`. With `isForced`, it first removes what
   * `options=force` allows (data types no property uses). Runs inside the delete's transaction,
   * after the bundle row is gone (and so locked), so a concurrent reference is seen.
   */
  blockers(tx: Repos, bundle: string, isForced: boolean): Promise<readonly string[]>
}>

export type BundlesDeps = Readonly<{
  store: Store
  cache: ControlCache
  audit: AuditService
  sandbox: Sandbox
  /** SVC_FEATURES_DISABLE_JAVASCRIPT: adding or changing code is 405 ERR1003. */
  isJavascriptDisabled: boolean
  referrers: readonly BundleReferrer[]
  /** The registry data operations read (created here when not shared). */
  registry?: BundleRegistry
}>

export type BundleInput = Readonly<{ name: string; description?: string; code: string }>
export type BundleChanges = Readonly<{ name?: string; description?: string; code?: string }>

export function javascriptDisabled(): VaultError {
  return new VaultError('featureDisabled', {
    message: 'JavaScript is disabled on this vault (SVC_FEATURES_DISABLE_JAVASCRIPT).',
  })
}

export function bundleNotFound(name: string): VaultError {
  return new VaultError('bundleNotFound', {
    message: 'The bundle is not found.',
    context: { bundle: name.slice(0, 100) },
  })
}

const byName = (a: StoredBundle, b: StoredBundle) =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : 0

export function createBundlesService(deps: BundlesDeps) {
  const registry = deps.registry ?? createBundleRegistry()

  function assertEnabled(): void {
    if (deps.isJavascriptDisabled) throw javascriptDisabled()
  }

  /** Loads the code in the sandbox and judges its exports; bad code is 400 naming the bundle. */
  async function exportsOf(name: string, source: string): Promise<FunctionPrototype[]> {
    try {
      return judgeExports(name, await deps.sandbox.inspect(bundleSource(name, source)))
    } catch (error) {
      throw isSandboxFailure(error) ? loadError(error, name) : error
    }
  }

  const write = <T>(ctx: RequestContext, work: (tx: Repos) => Promise<T>) =>
    writeControl(deps, ctx, work)

  async function getOrThrow(_ctx: RequestContext, name: string): Promise<StoredBundle> {
    const bundle = isValidName(name) ? await deps.store.bundles.get(name) : undefined
    if (bundle === undefined) throw bundleNotFound(name)
    return bundle
  }

  async function create(ctx: RequestContext, input: BundleInput): Promise<StoredBundle> {
    assertEnabled()
    if (!isValidName(input.name)) {
      throw new VaultError('invalidRequest', {
        message: 'The bundle name is invalid: use letters, digits and _, starting with a letter.',
        context: { bundle: input.name.slice(0, 100) },
      })
    }
    const source = decodeCode(input.name, input.code)
    const bundle: StoredBundle = {
      name: input.name,
      description: input.description ?? '',
      source,
      exports: await exportsOf(input.name, source),
      createdAt: ctx.now,
      modifiedAt: ctx.now,
    }
    await write(ctx, async (tx) => {
      if (!(await tx.bundles.insert(bundle))) {
        throw new VaultError('alreadyExists', {
          message: `A bundle ${input.name} already exists (names are unique regardless of case).`,
          context: { bundle: input.name },
        })
      }
    })
    return bundle
  }

  async function update(ctx: RequestContext, name: string, changes: BundleChanges) {
    assertEnabled()
    if (changes.name !== undefined && changes.name !== name) {
      throw new VaultError('invalidRequest', {
        message:
          'A bundle cannot be renamed: the name in the body must equal the name in the path.',
        context: { bundle: name.slice(0, 100), field: 'name' },
      })
    }
    const existing = await getOrThrow(ctx, name)
    const source = changes.code === undefined ? existing.source : decodeCode(name, changes.code)
    const exports = changes.code === undefined ? existing.exports : await exportsOf(name, source)
    assertSuperset(name, existing.exports, exports)
    const next: StoredBundle = {
      ...existing,
      description: changes.description ?? existing.description,
      source,
      exports,
      modifiedAt: Math.max(ctx.now, existing.modifiedAt + 1),
    }
    await write(ctx, async (tx) => {
      if (await tx.bundles.update(next, existing.modifiedAt)) return
      throw new VaultError('concurrentUpdate', {
        message: `The bundle ${name} was changed or deleted by another call; read it and retry.`,
        context: { bundle: name },
      })
    })
    return next
  }

  async function remove(ctx: RequestContext, name: string, isForced: boolean): Promise<void> {
    await getOrThrow(ctx, name)
    await write(ctx, async (tx) => {
      if (!(await tx.bundles.delete(name))) throw bundleNotFound(name)
      const blockers: string[] = []
      for (const referrer of deps.referrers)
        blockers.push(...(await referrer.blockers(tx, name, isForced)))
      if (blockers.length === 0) return
      throw new VaultError('inUse', {
        message: `The bundle ${name} is in use by ${blockers.slice(0, 10).join(', ')}; remove those references first.`,
        context: { bundle: name, used_by: blockers.slice(0, 100).join(',') },
      })
    })
  }

  return {
    list: async (_ctx: RequestContext) => (await deps.store.bundles.list()).sort(byName),
    get: getOrThrow,
    create,
    update,
    delete: remove,
    /** Cache loader: every bundle, for data operations on this node. */
    async load(): Promise<void> {
      registry.replace(await deps.store.bundles.list())
    },
    registry,
    isJavascriptDisabled: deps.isJavascriptDisabled,
  }
}

export type BundlesService = ReturnType<typeof createBundlesService>
