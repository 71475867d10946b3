// src/http/routes/types.ts: the shape of a capability's route plugin
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyPluginAsync } from 'fastify'
import type { Services } from '../../core/services.ts'

export type RoutesOptions = { readonly services: Services }

export type RoutesPlugin = FastifyPluginAsync<RoutesOptions, never, TypeBoxTypeProvider>
