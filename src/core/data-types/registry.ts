// src/core/data-types/registry.ts: the type registry: built-in types, custom types on top of them, validation and transformers
import { VaultError } from '../errors.ts'
import type { Micros } from '../time.ts'
import type { BuiltinType, JsonValueType, Transformer, TypeLimits } from './data-type.ts'
import { FINANCIAL_TYPES } from './financial.ts'
import { IDENTIFIER_TYPES } from './identifiers.ts'
import { PERSONAL_TYPES } from './personal.ts'
import { STANDARD_TYPES } from './standard.ts'
import { TEMPORAL_TYPES } from './temporal.ts'

export const BUILTIN_TYPES: readonly BuiltinType[] = [
  ...STANDARD_TYPES,
  ...PERSONAL_TYPES,
  ...TEMPORAL_TYPES,
  ...IDENTIFIER_TYPES,
  ...FINANCIAL_TYPES,
]

const BUILTIN_BY_NAME: ReadonlyMap<string, BuiltinType> = new Map(
  BUILTIN_TYPES.map((type) => [type.name, type]),
)

/** Above this SVC_DB_MAX_STRING_LENGTH, string-limited types cannot be indexed (data-model §3). */
const MAX_INDEXABLE_STRING_LENGTH = 2048

/**
 * A custom data type (bundles issue): its validator, normalizer and transformers are bundle
 * functions `"<bundle>.<function>"` run in the sandbox; everything else comes from its base type.
 */
export type CustomType = Readonly<{
  name: string
  baseTypeName: string
  description: string
  validator?: string
  normalizer?: string
  transformers: readonly string[]
  defaultTransformer?: string
  createdAt: Micros
}>

/** A data type as listed and described: built-in, or custom with its built-in base. */
export type DataTypeInfo = Readonly<{
  name: string
  base: BuiltinType
  isBuiltin: boolean
  description: string
  validator?: string
  normalizer?: string
  /** Transformer names as a caller addresses them in `props` (`<property>.<name>`). */
  transformerNames: readonly string[]
  defaultTransformer?: string
  createdAt?: Micros
  /** Bundle functions of a custom type's transformers. */
  functions?: readonly string[]
}>

/** A custom transformer, run by the bundles capability in the sandbox. */
export type ResolvedTransformer =
  | Transformer
  | { readonly kind: 'custom'; readonly function: string }

export type IndexSupport = Readonly<{ canIndex: boolean; canSubstringIndex: boolean }>

export type TypeRegistryDeps = { readonly limits: TypeLimits }

function builtinInfo(type: BuiltinType): DataTypeInfo {
  return {
    name: type.name,
    base: type,
    isBuiltin: true,
    description: type.description,
    transformerNames: Object.keys(type.transformers),
    defaultTransformer: type.defaultTransformer,
  }
}

const functionName = (reference: string) => reference.slice(reference.lastIndexOf('.') + 1)

function customInfo(type: CustomType, base: BuiltinType): DataTypeInfo {
  const own = type.transformers.map(functionName)
  const inherited = Object.keys(base.transformers).filter((name) => !own.includes(name))
  return {
    name: type.name,
    base,
    isBuiltin: false,
    description: type.description,
    validator: type.validator,
    normalizer: type.normalizer,
    transformerNames: [...own, ...inherited],
    functions: type.transformers,
    defaultTransformer: type.defaultTransformer,
    createdAt: type.createdAt,
  }
}

/** Whether any function of a custom type comes from `bundle` (`"<bundle>.<function>"`). */
function dependsOn(info: DataTypeInfo, bundle: string): boolean {
  const functions = [info.validator, info.normalizer, ...(info.functions ?? [])]
  return functions.some((f) => f !== undefined && f.slice(0, f.lastIndexOf('.')) === bundle)
}

export function createTypeRegistry(deps: TypeRegistryDeps) {
  let builtins = new Map(BUILTIN_TYPES.map((type) => [type.name, builtinInfo(type)]))
  let customs = new Map<string, DataTypeInfo>()
  let customTransformers = new Map<string, ReadonlyMap<string, string>>()

  function get(name: string): DataTypeInfo | undefined {
    return builtins.get(name) ?? customs.get(name)
  }

  function getOrThrow(name: string): DataTypeInfo {
    const info = get(name)
    if (info === undefined) {
      throw new VaultError('dataTypeNotFound', {
        message: 'The data type is not found.',
        context: { data_type: name.slice(0, 100) },
      })
    }
    return info
  }

  /** Index support of a type (§7.3): LONG_TEXT/JSON/BLOB-based types cannot be indexed or unique. */
  function indexSupport(name: string): IndexSupport {
    const info = getOrThrow(name)
    const isTooLong =
      info.base.isStringLimited && deps.limits.maxStringLength > MAX_INDEXABLE_STRING_LENGTH
    const canSubstringIndex = info.isBuiltin
      ? info.base.canSubstringIndex
      : info.base.name === 'STRING'
    return { canIndex: info.base.canIndex && !isTooLong, canSubstringIndex }
  }

  /**
   * Checks and normalizes one value of a property with its type's base rules; an invalid value is
   * 400 ERR3002 naming the property, never the value. Custom validators and normalizers run after
   * this, in the sandbox (data-model §8).
   */
  function validate(property: { name: string; dataType: string }, value: unknown): unknown {
    const result = getOrThrow(property.dataType).base.check(value, deps.limits)
    if (result.isValid) return result.value
    throw new VaultError('invalidPropertyValue', {
      message: `The value of property ${property.name} is invalid: ${result.reason}.`,
      context: { property: property.name },
    })
  }

  function transformer(typeName: string, name: string): ResolvedTransformer | undefined {
    const info = get(typeName)
    if (info === undefined) return undefined
    const custom = customTransformers.get(typeName)?.get(name)
    if (custom !== undefined) return { kind: 'custom', function: custom }
    // Own names only: `toString`, `constructor`, `__proto__` are not transformers.
    return Object.hasOwn(info.base.transformers, name) ? info.base.transformers[name] : undefined
  }

  return {
    get,
    getOrThrow,
    /**
     * Custom types by name, after the built-ins (in the spec's order) when `showBuiltins`;
     * `bundle` keeps the types whose functions come from that bundle (built-ins have none).
     */
    /** The custom type's definition (validator, normalizer) when `name` is a custom type. */
    custom: (name: string): DataTypeInfo | undefined => customs.get(name),
    list(options: { showBuiltins: boolean; bundle?: string }): DataTypeInfo[] {
      const all = [...(options.showBuiltins ? builtins.values() : []), ...customs.values()]
      const { bundle } = options
      if (bundle === undefined) return all
      return all.filter((t) => dependsOn(t, bundle))
    },
    indexSupport,
    validate,
    transformer,
    jsonType: (name: string): JsonValueType => getOrThrow(name).base.jsonType,
    /**
     * Replaces the custom types (loaded by the data types capability through the control cache).
     * A stored type named like a built-in one only adds custom transformers to it (§6.4).
     */
    setCustomTypes(types: readonly CustomType[]): void {
      const sorted = [...types].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      const extended = new Map(BUILTIN_TYPES.map((type) => [type.name, builtinInfo(type)]))
      for (const t of sorted) {
        const builtin = BUILTIN_BY_NAME.get(t.name)
        if (builtin === undefined) continue
        const own = t.transformers.map(functionName)
        const inherited = Object.keys(builtin.transformers).filter((n) => !own.includes(n))
        extended.set(t.name, {
          ...builtinInfo(builtin),
          transformerNames: [...inherited, ...own],
          functions: t.transformers,
        })
      }
      builtins = extended
      customs = new Map(
        sorted.flatMap((t) => {
          const base = BUILTIN_BY_NAME.get(t.baseTypeName)
          if (base === undefined || BUILTIN_BY_NAME.has(t.name)) return []
          return [[t.name, customInfo(t, base)] as const]
        }),
      )
      customTransformers = new Map(
        sorted.map((t) => [t.name, new Map(t.transformers.map((f) => [functionName(f), f]))]),
      )
    },
  }
}

export type TypeRegistry = ReturnType<typeof createTypeRegistry>
