// src/storage/sql-store.ts: implements core/store.ts on Kysely, for SQLite and PostgreSQL alike
import type { Kysely } from 'kysely'
import type { Repos, Store } from '../core/store.ts'
import type { OpenDatabase, SqlDialect } from './dialects/dialect.ts'
import { sql } from './kysely.ts'
import { currentVersion } from './migrate.ts'
import { createActionsRepo } from './repos/actions.ts'
import { createAuditRepo } from './repos/audit.ts'
import { createBundlesRepo } from './repos/bundles.ts'
import { createCollectionsRepo } from './repos/collections.ts'
import { createDataTypesRepo } from './repos/data-types.ts'
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

/**
 * The repositories over one connection or transaction. A transaction uses one or two of them, so
 * each is built on first use (getters on the prototype: cheap to create per transaction).
 */
class SqlRepos implements Repos {
  #meta?: Repos['meta']
  #audit?: Repos['audit']
  #iam?: Repos['iam']
  #confvars?: Repos['confvars']
  #workers?: Repos['workers']
  #keys?: Repos['keys']
  #leases?: Repos['leases']
  #objects?: Repos['objects']
  #searchIndex?: Repos['searchIndex']
  #substring?: Repos['substring']
  #collections?: Repos['collections']
  #tokens?: Repos['tokens']
  #bundles?: Repos['bundles']
  #actions?: Repos['actions']
  #dataTypes?: Repos['dataTypes']
  readonly #db: Kysely<Tables>
  readonly #dialect: SqlDialect
  readonly #statements: Statements

  constructor(db: Kysely<Tables>, dialect: SqlDialect, statements: Statements) {
    this.#db = db
    this.#dialect = dialect
    this.#statements = statements
  }

  get meta() {
    this.#meta ??= createMetaRepo(this.#db, this.#statements)
    return this.#meta
  }
  get audit() {
    this.#audit ??= createAuditRepo(this.#db, this.#statements)
    return this.#audit
  }
  get iam() {
    this.#iam ??= createIamRepo(this.#db, this.#statements)
    return this.#iam
  }
  get confvars() {
    this.#confvars ??= createConfvarsRepo(this.#db)
    return this.#confvars
  }
  get workers() {
    this.#workers ??= createWorkersRepo(this.#db)
    return this.#workers
  }
  get keys() {
    this.#keys ??= createKeysRepo(this.#db)
    return this.#keys
  }
  get leases() {
    this.#leases ??= createLeasesRepo(this.#db)
    return this.#leases
  }
  get objects() {
    this.#objects ??= createObjectsRepo(this.#db, this.#dialect)
    return this.#objects
  }
  get searchIndex() {
    this.#searchIndex ??= createSearchIndexRepo(this.#db, this.#dialect)
    return this.#searchIndex
  }
  get substring() {
    this.#substring ??= createSubstringRepo(this.#db, this.#dialect)
    return this.#substring
  }
  get collections() {
    this.#collections ??= createCollectionsRepo(this.#db)
    return this.#collections
  }
  get tokens() {
    this.#tokens ??= createTokensRepo(this.#db, this.#statements)
    return this.#tokens
  }
  get bundles() {
    this.#bundles ??= createBundlesRepo(this.#db)
    return this.#bundles
  }
  get actions() {
    this.#actions ??= createActionsRepo(this.#db)
    return this.#actions
  }
  get dataTypes() {
    this.#dataTypes ??= createDataTypesRepo(this.#db)
    return this.#dataTypes
  }
}

export function createSqlStore(database: OpenDatabase): Store {
  const { db } = database
  const statements = createStatements(database.dialect)
  const repos = new SqlRepos(db, database.dialect, statements)
  return {
    meta: repos.meta,
    audit: repos.audit,
    iam: repos.iam,
    confvars: repos.confvars,
    workers: repos.workers,
    keys: repos.keys,
    leases: repos.leases,
    objects: repos.objects,
    searchIndex: repos.searchIndex,
    substring: repos.substring,
    collections: repos.collections,
    tokens: repos.tokens,
    bundles: repos.bundles,
    actions: repos.actions,
    dataTypes: repos.dataTypes,
    kind: database.dialect.name,
    isMemory: database.isMemory,
    async transaction(work, options = {}) {
      return db.transaction().execute(async (trx) => {
        const result = await work(new SqlRepos(trx, database.dialect, statements))
        // A call that ran out of time is rolled back rather than committed late.
        options.signal?.throwIfAborted()
        return result
      })
    },
    schemaVersion: () => currentVersion(db),
    maintainSearchTables: () => database.dialect.maintainSearchTables(db),
    synced: database.synced ?? (async () => {}),
    async ping() {
      await sql`SELECT 1`.execute(db)
    },
    close: () => db.destroy(),
  }
}
