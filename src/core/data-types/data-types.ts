// src/core/data-types/data-types.ts: the data types service: list, add, get, update and delete custom data types
import type { AuditService } from '../audit/audit.ts'
import type { BundleReferrer } from '../bundles/bundles.ts'
import type { ControlCache } from '../cache.ts'
import { isValidName } from '../collections/names.ts'
import type { RequestContext } from '../context.ts'
import { writeControl } from '../control-write.ts'
import { VaultError } from '../errors.ts'
import type { Repos, Store } from '../store.ts'
import {
  builtinTypeOnly,
  invalidType,
  javascriptDisabled,
  typeInUse,
  typeNameTaken,
  typeNotFound,
} from './errors.ts'
import { asText, type FunctionInput, functionName, resolveFunctions } from './functions.ts'
import { BUILTIN_TYPES, type DataTypeInfo, type TypeRegistry } from './registry.ts'
import type { StoredDataType } from './store.ts'

export type DataTypesDeps = Readonly<{
  store: Store
  cache: ControlCache
  audit: AuditService
  types: TypeRegistry
  /** SVC_FEATURES_DISABLE_JAVASCRIPT: custom types are refused with 405 ERR1003. */
  isJavascriptDisabled: boolean
}>

export type DataTypeInput = Readonly<{
  name: string
  baseTypeName: string
  description?: string
  validator?: FunctionInput
  normalizer?: FunctionInput
  transformers?: readonly string[]
  defaultTransformer?: string
}>

export type DataTypeChanges = Partial<Omit<DataTypeInput, 'name' | 'baseTypeName'>>

const BUILTIN_NAMES = new Map(BUILTIN_TYPES.map((t) => [t.name.toLowerCase(), t]))

/** Properties of any collection whose data type is `name` (`"<collection>.<property>"`). */
async function propertiesOfType(tx: Repos, name: string): Promise<string[]> {
  const collections = await tx.collections.list()
  return collections.flatMap((c) =>
    c.properties.filter((p) => p.dataType === name).map((p) => `${c.name}.${p.name}`),
  )
}

/** The default transformer must be one of the type's transformers, custom or inherited. */
function checkDefault(type: StoredDataType, transformerNames: readonly string[]): void {
  const given = type.defaultTransformer
  if (given === undefined || transformerNames.includes(given)) return
  throw invalidType(
    type.name,
    `the default_transformer ${given.slice(0, 100)} is not one of its transformers (${transformerNames.join(', ') || 'none'})`,
    'default_transformer',
  )
}

export function createDataTypesService(deps: DataTypesDeps) {
  const { types } = deps
  const write = <T>(ctx: RequestContext, work: (tx: Repos) => Promise<T>) =>
    writeControl(deps, ctx, work)

  function assertEnabled(): void {
    if (deps.isJavascriptDisabled) throw javascriptDisabled()
  }

  function namesOf(type: StoredDataType): string[] {
    const base = BUILTIN_NAMES.get(type.baseTypeName.toLowerCase())
    const own = type.transformers.map(functionName)
    return [...own, ...Object.keys(base?.transformers ?? {}).filter((n) => !own.includes(n))]
  }

  async function create(ctx: RequestContext, input: DataTypeInput): Promise<DataTypeInfo> {
    assertEnabled()
    if (!isValidName(input.name))
      throw invalidType(input.name, 'use letters, digits and _, starting with a letter', 'name')
    if (BUILTIN_NAMES.has(input.name.toLowerCase())) throw typeNameTaken(input.name, true)
    const base = BUILTIN_NAMES.get(input.baseTypeName.toLowerCase())
    if (base === undefined || base.name !== input.baseTypeName) {
      if (types.get(input.baseTypeName) !== undefined)
        throw invalidType(
          input.name,
          `the base type ${input.baseTypeName} is a custom type; the base must be a built-in type`,
          'base_type_name',
        )
      throw typeNotFound(input.baseTypeName)
    }
    const draft: StoredDataType = {
      name: input.name,
      baseTypeName: base.name,
      description: input.description ?? '',
      transformers: [],
      defaultTransformer: input.defaultTransformer,
      createdAt: ctx.now,
      modifiedAt: ctx.now,
    }
    await write(ctx, async (tx) => {
      const type = { ...draft, ...(await resolveFunctions(tx, draft, input)) }
      checkDefault(type, namesOf(type))
      if (!(await tx.dataTypes.insert(type))) throw typeNameTaken(input.name, false)
    })
    return types.getOrThrow(input.name)
  }

  /** A built-in type: only its custom transformers change (the rest is ignored), kept as a row of the same name. */
  async function updateBuiltin(ctx: RequestContext, name: string, changes: DataTypeChanges) {
    await write(ctx, async (tx) => {
      const existing = await tx.dataTypes.get(name)
      const draft: StoredDataType = existing ?? {
        name,
        baseTypeName: name,
        description: '',
        transformers: [],
        createdAt: ctx.now,
        modifiedAt: ctx.now,
      }
      const resolved = await resolveFunctions(tx, draft, { transformers: changes.transformers })
      const next = { ...draft, ...resolved, modifiedAt: Math.max(ctx.now, draft.modifiedAt + 1) }
      const isWritten = existing
        ? await tx.dataTypes.update(next, existing.modifiedAt)
        : await tx.dataTypes.insert(next)
      if (!isWritten) throw concurrent(name)
    })
  }

  async function update(ctx: RequestContext, name: string, changes: DataTypeChanges) {
    assertEnabled()
    const info = types.getOrThrow(name)
    if (info.isBuiltin) await updateBuiltin(ctx, name, changes)
    else {
      await write(ctx, async (tx) => {
        const existing = await tx.dataTypes.get(name)
        if (existing === undefined) throw typeNotFound(name)
        const normalizer = changes.normalizer && asText(changes.normalizer)
        const validator = changes.validator && asText(changes.validator)
        if (normalizer !== undefined && normalizer !== existing.normalizer)
          throw invalidType(name, 'the normalizer of a type cannot change', 'normalizer')
        const isNewValidator = validator !== undefined && validator !== existing.validator
        if (isNewValidator && existing.normalizer !== undefined)
          throw invalidType(
            name,
            'the validator cannot change on a type that has a normalizer',
            'validator',
          )
        const resolved = await resolveFunctions(tx, existing, {
          validator: isNewValidator ? validator : undefined,
          transformers: changes.transformers,
        })
        const next: StoredDataType = {
          ...existing,
          ...resolved,
          description: changes.description ?? existing.description,
          defaultTransformer: changes.defaultTransformer ?? existing.defaultTransformer,
          modifiedAt: Math.max(ctx.now, existing.modifiedAt + 1),
        }
        checkDefault(next, namesOf(next))
        if (!(await tx.dataTypes.update(next, existing.modifiedAt))) throw concurrent(name)
      })
    }
    return types.getOrThrow(name)
  }

  async function remove(ctx: RequestContext, name: string): Promise<void> {
    assertEnabled()
    const info = types.getOrThrow(name)
    if (info.isBuiltin) throw builtinTypeOnly(name, 'built-in types cannot be deleted')
    await write(ctx, async (tx) => {
      if (!(await tx.dataTypes.delete(name))) throw typeNotFound(name)
      const users = await propertiesOfType(tx, name)
      if (users.length > 0) throw typeInUse(name, users)
    })
  }

  return {
    list: (_ctx: RequestContext, options: { showBuiltins: boolean; bundle?: string }) =>
      types.list(options),
    get: (_ctx: RequestContext, name: string) => types.getOrThrow(name),
    create,
    update,
    delete: remove,
    /** Cache loader: every custom type, for data operations on this node. */
    async load(): Promise<void> {
      types.setCustomTypes(await deps.store.dataTypes.list())
    },
  }
}

function concurrent(name: string): VaultError {
  return new VaultError('concurrentUpdate', {
    message: `The data type ${name} was changed by another call; read it and retry.`,
    context: { data_type: name },
  })
}

/**
 * Custom data types block deleting their bundle; with `force`, types no property uses go with it
 * (endpoints §6.10). Runs in the bundle delete's transaction.
 */
export const dataTypesReferrer: BundleReferrer = {
  async blockers(tx, bundle, isForced) {
    const referencing = (await tx.dataTypes.list()).filter((t) =>
      [t.validator, t.normalizer, ...t.transformers].some(
        (f) => f !== undefined && f.slice(0, f.indexOf('.')) === bundle,
      ),
    )
    const blockers: string[] = []
    for (const type of referencing) {
      const users = await propertiesOfType(tx, type.name)
      const isBuiltin = BUILTIN_NAMES.get(type.name.toLowerCase())?.name === type.name
      if (isForced && users.length === 0 && !isBuiltin) await tx.dataTypes.delete(type.name)
      else blockers.push(`data type ${type.name}`)
    }
    return blockers
  },
}

export type DataTypesService = ReturnType<typeof createDataTypesService>
