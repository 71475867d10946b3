// src/storage/kysely.ts: Kysely's runtime, loaded from its CommonJS build (values only; types come from 'kysely')
import { createRequire } from 'node:module'
import type * as Runtime from 'kysely'

// Kysely's ES build is 262 small modules that Node's ES loader resolves and links one by one; its
// CommonJS build of the same code loads in ~60 ms less, a tenth of a start (ADR 0010). Every
// value comes from here, so one copy of Kysely is loaded (architecture test).
const kysely = createRequire(import.meta.url)('kysely') as typeof Runtime

export const Kysely = kysely.Kysely
export type Kysely<DB> = Runtime.Kysely<DB>
export const CompiledQuery = kysely.CompiledQuery
export const sql = kysely.sql
export const SqliteDialect = kysely.SqliteDialect
export const PostgresDialect = kysely.PostgresDialect
