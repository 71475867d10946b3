// test/helpers/engines.ts: runs an API suite on SQLite and, when reachable, on PostgreSQL
import { describe } from 'vitest'
import { findTestPostgres } from './postgres.ts'
import type { Engine } from './server.ts'

const pgUrl = await findTestPostgres()

/**
 * `describeEngines('objects API', (engine) => { … startTestServer({ engine }) … })` declares the
 * suite once per engine. PostgreSQL is skipped (with the reason printed) only off CI.
 */
export function describeEngines(title: string, body: (engine: Engine) => void): void {
  describe(`${title} on SQLite`, () => body('sqlite'))
  describe.skipIf(pgUrl === undefined)(`${title} on PostgreSQL`, () => body('postgres'))
}
