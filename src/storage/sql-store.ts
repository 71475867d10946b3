// src/storage/sql-store.ts: implements core/store.ts on Kysely, for SQLite and PostgreSQL alike
import { type Kysely, sql } from 'kysely'
import type { Repos, Store } from '../core/store.ts'
import type { Dialect, OpenDatabase } from './database.ts'
import { currentVersion } from './migrate.ts'
import { createAuditRepo } from './repos/audit.ts'
import { createCollectionsRepo } from './repos/collections.ts'
import { createIamRepo } from './repos/iam.ts'
import { createMetaRepo } from './repos/meta.ts'
import { createObjectsRepo } from './repos/objects.ts'
import { createSearchIndexRepo, createSubstringRepo } from './repos/search-index.ts'
import {
  createConfvarsRepo,
  createKeysRepo,
  createLeasesRepo,
  createWorkersRepo,
} from './repos/system.ts'
import { createTokensRepo } from './repos/tokens.ts'
import type { Tables } from './schema.ts'
import { createStatements, type Statements } from './statements.ts'

function createRepos(db: Kysely<Tables>, dialect: Dialect, statements: Statements): Repos {
  const factories: { [Name in keyof Repos]: () => Repos[Name] } = {
    meta: () => createMetaRepo(db, statements),
    audit: () => createAuditRepo(db, statements),
    iam: () => createIamRepo(db, statements),
    confvars: () => createConfvarsRepo(db),
    workers: () => createWorkersRepo(db),
    keys: () => createKeysRepo(db),
    leases: () => createLeasesRepo(db),
    objects: () => createObjectsRepo(db, dialect),
    searchIndex: () => createSearchIndexRepo(db),
    substring: () => createSubstringRepo(db),
    collections: () => createCollectionsRepo(db),
    tokens: () => createTokensRepo(db, statements),
  }
  // A transaction uses one or two repos: each is built on first use.
  const repos = {} as Repos
  for (const [name, create] of Object.entries(factories)) {
    let repo: unknown
    Object.defineProperty(repos, name, { enumerable: true, get: () => (repo ??= create()) })
  }
  return repos
}

export function createSqlStore(database: OpenDatabase): Store {
  const { db } = database
  const statements = createStatements(database.dialect)
  return {
    ...createRepos(db, database.dialect, statements),
    kind: database.dialect,
    isMemory: database.isMemory,
    async transaction(work, options = {}) {
      return db.transaction().execute(async (trx) => {
        const result = await work(createRepos(trx, database.dialect, statements))
        // A call that ran out of time is rolled back rather than committed late.
        options.signal?.throwIfAborted()
        return result
      })
    },
    schemaVersion: () => currentVersion(db),
    async ping() {
      await sql`SELECT 1`.execute(db)
    },
    close: () => db.destroy(),
  }
}
