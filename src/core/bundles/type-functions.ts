// src/core/bundles/type-functions.ts: runs custom data types' validators, normalizers and transformers in the sandbox, in batches
import type { RequestContext } from '../context.ts'
import type { TypeRegistry } from '../data-types/registry.ts'
import { isVaultError, VaultError } from '../errors.ts'
import { hasNul } from '../values/body.ts'
import {
  type CustomTypeFunctions,
  matchDependencies,
  type TemplateCall,
  type TransformCall,
  type ValueCheck,
} from '../values/custom.ts'
import { javascriptDisabled } from './bundles.ts'
import { callError, invocationError } from './failures.ts'
import { type BundleRegistry, parseReference } from './registry.ts'
import {
  type CallOutcome,
  type FunctionType,
  isSandboxFailure,
  type Sandbox,
  type SandboxFailure,
} from './sandbox.ts'

export type TypeFunctionsDeps = Readonly<{
  registry: BundleRegistry
  sandbox: Sandbox
  types: TypeRegistry
  isJavascriptDisabled: boolean
}>

type Property = Readonly<{ name: string; dataType: string; isEncrypted: boolean }>

/** 400 ERR3002 naming the property and the function (never the value). */
function rejected(property: string, reference: string, why: string): VaultError {
  const parsed = parseReference(reference)
  return new VaultError('invalidPropertyValue', {
    message: `The value of property ${property} is invalid: ${why}.`,
    context: { property, bundle: parsed?.bundle ?? '', function: parsed?.function ?? '' },
  })
}

/** Same rule as a given token_id (tokens.md §3). */
const TOKEN_ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/

function templateError(call: TemplateCall, why: string): VaultError {
  const parsed = parseReference(call.function)
  return new VaultError('invalidRequest', {
    message: `The fptemplate ${call.function} cannot make token IDs: ${why}.`,
    context: { field: call.field, bundle: parsed?.bundle ?? '', function: parsed?.function ?? '' },
  })
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1).replace(/\.$/, '')

const describe = (value: unknown) =>
  value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`

function failedBecause(outcome: CallOutcome | undefined): string {
  if (outcome === undefined || outcome.ok) return 'it gave no answer'
  const { error } = outcome
  return error.kind === 'threw' ? `it threw ${error.name}` : 'it returned a value that is not JSON'
}

export function createTypeFunctions(deps: TypeFunctionsDeps): CustomTypeFunctions {
  /** One sandbox entry over many inputs; a failure of the whole entry is thrown. */
  async function run(
    ctx: RequestContext,
    reference: string,
    type: FunctionType,
    batch: Readonly<{ shared?: readonly unknown[]; inputs: readonly (readonly unknown[])[] }>,
    onFailure: (failure: SandboxFailure, bundle: string, fn: string) => VaultError,
  ): Promise<readonly CallOutcome[]> {
    if (deps.isJavascriptDisabled) throw javascriptDisabled()
    const parsed = parseReference(reference)
    const found = parsed && deps.registry.functionOf(parsed)
    if (parsed === undefined || found === undefined || found.prototype.type !== type) {
      throw new VaultError('functionFailed', {
        message: `The function ${reference} is not a loaded ${type}; check the bundle and the data type.`,
        context: { bundle: parsed?.bundle ?? reference, function: parsed?.function ?? '' },
      })
    }
    try {
      return await deps.sandbox.call({
        bundle: found.bundle,
        function: parsed.function,
        type,
        ...batch,
        signal: ctx.signal,
      })
    } catch (error) {
      throw isSandboxFailure(error) ? onFailure(error, parsed.bundle, parsed.function) : error
    }
  }

  /** Limits are 503 ERR1009 (retryable); anything else the code did makes the value invalid. */
  const checkFailure =
    (property: string) => (failure: SandboxFailure, bundle: string, fn: string) =>
      failure.kind === 'timeout' || failure.kind === 'interrupted'
        ? callError(failure, bundle, fn)
        : rejected(property, `${bundle}.${fn}`, lowerFirst(callError(failure, bundle, fn).message))

  /** One sandbox entry of a validator or normalizer over `values`, one input each. */
  const runEach = (
    ctx: RequestContext,
    property: Property,
    reference: string,
    type: 'validator' | 'normalizer',
    values: readonly unknown[],
  ) => run(ctx, reference, type, { inputs: values.map((v) => [v]) }, checkFailure(property.name))

  /** A value whose function call failed (threw, or returned what is not JSON). */
  const failed = (
    property: Property,
    reference: string,
    type: 'validator' | 'normalizer',
    outcome: CallOutcome | undefined,
  ): ValueCheck => ({
    ok: false,
    error: rejected(
      property.name,
      reference,
      `the ${type} ${reference} failed: ${failedBecause(outcome)}`,
    ),
  })

  async function validate(
    ctx: RequestContext,
    property: Property,
    reference: string,
    values: readonly unknown[],
  ) {
    const outcomes = await runEach(ctx, property, reference, 'validator', values)
    return values.map((value, i): ValueCheck => {
      const outcome = outcomes[i]
      if (outcome === undefined || !outcome.ok)
        return failed(property, reference, 'validator', outcome)
      if (outcome.value === true) return { ok: true, value }
      const why =
        outcome.value === false
          ? `the validator ${reference} rejected it`
          : `the validator ${reference} returned ${describe(outcome.value)} instead of a boolean`
      return { ok: false, error: rejected(property.name, reference, why) }
    })
  }

  async function normalize(
    ctx: RequestContext,
    property: Property,
    reference: string,
    values: readonly unknown[],
  ) {
    const outcomes = await runEach(ctx, property, reference, 'normalizer', values)
    return values.map((_, i): ValueCheck => {
      const outcome = outcomes[i]
      if (outcome === undefined || !outcome.ok)
        return failed(property, reference, 'normalizer', outcome)
      try {
        // The normalized value must still be a valid value of the base type (data-model §8).
        const value = deps.types.validate(property, outcome.value)
        if (!property.isEncrypted && hasNul(value))
          throw rejected(property.name, reference, 'it holds NUL characters')
        return { ok: true, value }
      } catch (error) {
        if (!isVaultError(error)) throw error
        const base = deps.types.getOrThrow(property.dataType).base.name
        const why = `the normalizer ${reference} returned a value that is not a valid ${base}`
        return { ok: false, error: rejected(property.name, reference, why) }
      }
    })
  }

  return {
    dependencies(reference, collection) {
      const globs = deps.registry.functionOf(reference)?.prototype.dependencies?.properties
      return matchDependencies(collection, globs ?? [])
    },

    async check(ctx, property, values) {
      const info = deps.types.custom(property.dataType)
      let results: ValueCheck[] = values.map((value) => ({ ok: true, value }))
      if (info?.validator !== undefined)
        results = await validate(ctx, property, info.validator, values)
      if (info?.normalizer === undefined) return results
      const passing = results.flatMap((r, i) => (r.ok ? [i] : []))
      const normalized = await normalize(
        ctx,
        property,
        info.normalizer,
        passing.map((i) => values[i]),
      )
      for (const [k, i] of passing.entries()) results[i] = normalized[k] as ValueCheck
      return results
    },

    async templateIds(ctx, call: TemplateCall) {
      if (call.items.length === 0) return []
      if (deps.isJavascriptDisabled) throw javascriptDisabled()
      const parsed = parseReference(call.function)
      const found = parsed && deps.registry.functionOf(parsed)
      if (parsed === undefined || found === undefined)
        throw new VaultError('bundleNotFound', {
          message: `The fptemplate ${call.function.slice(0, 200)} is not found: no loaded bundle exports that function.`,
          context: {
            field: call.field,
            bundle: parsed?.bundle ?? '',
            function: parsed?.function ?? '',
          },
        })
      if (found.prototype.type !== 'fptemplate')
        throw templateError(call, `it is a ${found.prototype.type}, not an fptemplate`)
      const context = {
        user: ctx.principal.username,
        role: ctx.principal.role,
        reason: ctx.reason?.reason ?? '',
        collection: call.collection.name,
      }
      const outcomes = await run(
        ctx,
        call.function,
        'fptemplate',
        { shared: [context], inputs: call.items.map((item) => [item.object, item.seed]) },
        callError,
      )
      return outcomes.map((outcome) => {
        if (!outcome.ok) throw invocationError(outcome.error, parsed.bundle, parsed.function)
        const id = outcome.value
        if (typeof id === 'string' && TOKEN_ID_PATTERN.test(id)) return id
        throw templateError(
          call,
          `it returned ${typeof id === 'string' ? 'a string' : describe(id)} that is not a token ID of 1 to 128 characters among A-Z, a-z, 0-9, _ and -`,
        )
      })
    },

    async transform(ctx, call: TransformCall) {
      if (call.items.length === 0) return []
      const props = Object.fromEntries(call.collection.properties.map((p) => [p.name, p.dataType]))
      const context = {
        user: ctx.principal.username,
        role: ctx.principal.role,
        reason: ctx.reason?.reason ?? '',
        collection: call.collection.name,
        props,
        prop: call.property,
        ...(ctx.transParam === undefined ? {} : { param: ctx.transParam }),
      }
      const outcomes = await run(
        ctx,
        call.function,
        'transformer',
        { shared: [context], inputs: call.items.map((item) => [item.object, item.value]) },
        callError,
      )
      const parsed = parseReference(call.function)
      return outcomes.map((outcome) => {
        if (outcome.ok) return outcome.value
        throw invocationError(outcome.error, parsed?.bundle ?? '', parsed?.function ?? '')
      })
    },
  }
}
