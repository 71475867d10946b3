// src/http/routes/types.ts: the shape of a capability's route plugin
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyPluginAsync } from 'fastify'
import type { Services } from '../../core/services.ts'
import type { ErrorStyle } from '../errors.ts'

export type RoutesOptions = {
  readonly services: Services
  /** Per-item errors of bulk answers name their codes like whole-request errors. */
  readonly errorStyle: ErrorStyle
}

export type RoutesPlugin = FastifyPluginAsync<RoutesOptions, never, TypeBoxTypeProvider>
