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

function createRepos(db: Kysely<Tables>, dialect: Dialect): Repos {
  return {
    meta: createMetaRepo(db),
    audit: createAuditRepo(db),
    iam: createIamRepo(db),
    confvars: createConfvarsRepo(db),
    workers: createWorkersRepo(db),
    keys: createKeysRepo(db),
    leases: createLeasesRepo(db),
    objects: createObjectsRepo(db, dialect),
    searchIndex: createSearchIndexRepo(db, dialect),
    substring: createSubstringRepo(db, dialect),
    collections: createCollectionsRepo(db),
    tokens: createTokensRepo(db),
  }
}

export function createSqlStore(database: OpenDatabase): Store {
  const { db } = database
  return {
    ...createRepos(db, database.dialect),
    kind: database.dialect,
    isMemory: database.isMemory,
    async transaction(work, options = {}) {
      return db.transaction().execute(async (trx) => {
        const result = await work(createRepos(trx, database.dialect))
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
