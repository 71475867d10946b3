// src/http/compilers.ts: route validators and response serializers, each compiled on first use
import { createRequire } from 'node:module'
import type { SerializerFactory } from '@fastify/fast-json-stringify-compiler'
import type { FastifySchemaCompiler, FastifyServerOptions } from 'fastify'
import type { Compile } from 'typebox/compile'
import type { Value } from 'typebox/value'

// Fastify compiles every route's validators and serializers when the server gets ready, and the
// TypeBox compiler is ~680 modules: together more than half a second of every start, for routes
// a node may never serve (ADR 0010). Here each one compiles when its route first needs it, with
// the same compilers as before: TypeBox's (what @fastify/type-provider-typebox's
// TypeBoxValidatorCompiler does) and Fastify's default fast-json-stringify. Both are loaded then,
// synchronously (require of an ES module), so a request never waits for anything but the work.

const require = createRequire(import.meta.url)

type TypeBoxRuntime = { readonly Compile: typeof Compile; readonly Value: typeof Value }

let typebox: TypeBoxRuntime | undefined

function loadTypeBox(): TypeBoxRuntime {
  typebox ??= {
    Compile: (require('typebox/compile') as { Compile: typeof Compile }).Compile,
    Value: (require('typebox/value') as { Value: typeof Value }).Value,
  }
  return typebox
}

type Validate = ReturnType<FastifySchemaCompiler<unknown>>

/**
 * TypeBoxValidatorCompiler: only bodies are taken as sent; text parts are converted first. A text
 * part that is valid as it came (most query strings: only strings) is taken without converting:
 * TypeBox's Convert leaves a valid value as it is, and walking it cost more than the check.
 */
function compileValidator(schema: unknown, httpPart: string | undefined): Validate {
  const { Compile, Value } = loadTypeBox()
  const validator = Compile(schema as Parameters<typeof Compile>[0])
  return (value) => {
    if (validator.Check(value)) return { value }
    if (httpPart === 'body') return { error: validator.Errors(value) }
    const converted = Value.Convert(schema as never, value)
    if (validator.Check(converted)) return { value: converted }
    return { error: validator.Errors(converted) }
  }
}

const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  let validate: Validate | undefined
  return (value: unknown) => {
    validate ??= compileValidator(schema, httpPart)
    return validate(value)
  }
}

const buildSerializer: SerializerFactory = (externalSchemas, options) => {
  let compile: ReturnType<SerializerFactory> | undefined
  return (route) => {
    let serialize: ((data: unknown) => string) | undefined
    return (data: unknown) => {
      if (serialize === undefined) {
        const { SerializerSelector } = require('@fastify/fast-json-stringify-compiler') as {
          SerializerSelector: () => SerializerFactory
        }
        compile ??= SerializerSelector()(externalSchemas, options)
        serialize = compile(route)
      }
      return serialize(data)
    }
  }
}

type CompilersFactory = NonNullable<
  NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']
>

/** Compiler factories that return compilers of the given kinds (they ignore shared schemas). */
export function compilersFactory(
  validator: FastifySchemaCompiler<unknown>,
  serializer: SerializerFactory,
): CompilersFactory {
  // Fastify types `buildValidator` as Ajv's factory; what it calls is any factory returning a
  // compiler of FastifySchemaCompiler's shape.
  return { buildValidator: (() => validator) as never, buildSerializer: serializer }
}

/** For Fastify's `schemaController`: neither TypeBox nor fast-json-stringify loads at start. */
export const lazyCompilers: CompilersFactory = compilersFactory(validatorCompiler, buildSerializer)

/** Loads the validator and serializer compilers (import() yields between modules). */
export async function loadCompilers(): Promise<void> {
  await Promise.all([
    import('typebox/compile'),
    import('typebox/value'),
    import('@fastify/fast-json-stringify-compiler'),
  ])
}

/**
 * Once a node serves, its compilers are loaded in the background, so the first request of a
 * route does not wait ~0.4 s for them. Started a little after listening, so start-up and the
 * first health checks do not share the CPU with it.
 */
export function warmCompilersLater(delayMs = 1000): void {
  const warm = () =>
    loadCompilers().catch(() => {
      // A failure here shows again, with its cause, when a route first compiles.
    })
  setTimeout(warm, delayMs).unref()
}
