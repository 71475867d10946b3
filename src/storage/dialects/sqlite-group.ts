// src/storage/dialects/sqlite-group.ts: group commit: the writes of concurrent calls share one SQLite transaction and one WAL sync
import type {
  CompiledQuery,
  DatabaseConnection,
  Driver,
  QueryResult,
  SqliteDatabase,
  SqliteStatement,
} from 'kysely'

/**
 * Statements that only read (after an optional comment such as dialect.ts's PREPARED marker):
 * they run outside any transaction when no group is open. Anything else may write and opens one.
 */
const READ_ONLY = /^\s*(\/\*.*?\*\/\s*)?select\b/i

type Member = Readonly<{ resolve: () => void; reject: (error: unknown) => void }>

/** Makes the WAL's committed frames durable (fdatasync of the `-wal` file, on libuv's threads). */
export type SyncWal = Readonly<{ sync(): Promise<void>; close(): Promise<void> }>

/**
 * Kysely's SQLite driver, with group commit. SQLite has one connection, used by one caller at a
 * time (a call's transaction, or one statement outside a transaction). With `synchronous =
 * FULL` every COMMIT syncs the WAL to disk, which costs more than the rest of a small call; so
 * the callers of one event-loop turn write inside one real transaction, each caller's
 * transaction a SAVEPOINT in it, and one COMMIT (one sync) at the end of the turn makes them
 * all durable at once.
 *
 * Each caller still gets its own outcome: a caller whose work fails rolls back to its savepoint
 * (the others' writes stay) and gets its error at once; a caller that wrote (or read while
 * others' writes were not yet committed) gets its result only after the group's COMMIT, and the
 * COMMIT's error if it fails. An error that makes SQLite roll the whole transaction back (a full
 * disk, an I/O error) fails every caller of the group, as it would have failed each of them.
 *
 * With `syncWal` (the durable default, ADR 0019), SQLite runs with `synchronous = NORMAL` and the
 * sync that FULL would make inside COMMIT, on the event loop, is made here after it, on libuv's
 * threads: the callers of a group get their results once the WAL holding their COMMIT is synced,
 * while the next group's calls already run. Each group's sync starts right after its COMMIT, also
 * while an earlier one runs (fdatasync makes durable what was written before it was called, so
 * waiting for the earlier one first would only add its time). Reads wait for nothing here; see
 * `synced`.
 */
export class GroupCommitDriver implements Driver {
  readonly #db: SqliteDatabase
  readonly #isInTransaction: () => boolean
  readonly #connection: DatabaseConnection
  /** Callers waiting for the connection, in order. */
  readonly #queue: (() => void)[] = []
  #isLocked = false
  /** The group's real transaction is open. */
  #isOpen = false
  /** Callers whose results wait for the group's COMMIT. */
  #members: Member[] = []
  #isCommitScheduled = false
  /** The current caller failed: it does not wait for the group. */
  #hasFailed = false
  /** The current caller is inside its transaction (its savepoint). */
  #isInCall = false
  readonly #syncWal: SyncWal | undefined
  /** The sync started after the last COMMIT. */
  #latestSync: Promise<void> | undefined

  constructor(db: SqliteDatabase, isInTransaction: () => boolean, syncWal?: SyncWal) {
    this.#db = db
    this.#isInTransaction = isInTransaction
    this.#syncWal = syncWal
    this.#connection = {
      executeQuery: async <R>(query: CompiledQuery) => this.#execute(query) as QueryResult<R>,
      streamQuery: () => {
        throw new Error('streaming queries are not used with SQLite')
      },
    }
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    if (this.#isLocked) await new Promise<void>((resolve) => this.#queue.push(resolve))
    this.#isLocked = true
    this.#hasFailed = false
    this.#isInCall = false
    return this.#connection
  }

  async beginTransaction(): Promise<void> {
    this.#open()
    this.#run('SAVEPOINT call')
    this.#isInCall = true
  }

  async commitTransaction(): Promise<void> {
    this.#isInCall = false
    this.#run('RELEASE call')
  }

  async rollbackTransaction(): Promise<void> {
    this.#isInCall = false
    this.#hasFailed = true
    // SQLite may already have rolled the whole group back (full disk): then there is no savepoint.
    if (!this.#isOpen) return
    this.#run('ROLLBACK TO call')
    this.#run('RELEASE call')
  }

  async releaseConnection(): Promise<void> {
    if (!this.#isOpen) {
      this.#unlock()
      return
    }
    if (this.#hasFailed) {
      // The failed caller does not wait, but the group's transaction (which it may have opened)
      // must still end, or it would hold SQLite's write lock until the next write comes.
      this.#scheduleCommit()
      this.#unlock()
      return
    }
    const durable = new Promise<void>((resolve, reject) => this.#members.push({ resolve, reject }))
    this.#scheduleCommit()
    this.#unlock()
    await durable
  }

  /**
   * Resolves once the WAL holding every COMMIT so far is synced. A read outside a group may see
   * a commit whose sync is still running: its caller answers after this (the audit record of an
   * answered call waits for it), so no answer shows data a power loss could take back.
   */
  async synced(): Promise<void> {
    await this.#latestSync?.catch(() => {})
  }

  async destroy(): Promise<void> {
    if (this.#isOpen) await this.#commitGroup()
    await this.#latestSync?.catch(() => {})
    this.#db.close()
    await this.#syncWal?.close()
  }

  #execute(query: CompiledQuery): QueryResult<unknown> {
    const { sql, parameters } = query
    if (!READ_ONLY.test(sql)) this.#open()
    try {
      const statement = this.#db.prepare(sql)
      if (statement.reader) return { rows: statement.all(parameters) as unknown[] }
      return this.#runStatement(statement, parameters)
    } catch (error) {
      // A statement alone fails its caller; inside a transaction, the caller may go on (and
      // then commits and waits for the group) or roll back.
      if (!this.#isInCall) this.#hasFailed = true
      this.#checkGroup(error)
      throw error
    }
  }

  #runStatement(statement: SqliteStatement, parameters: readonly unknown[]): QueryResult<unknown> {
    const { changes, lastInsertRowid } = statement.run(parameters)
    return {
      numAffectedRows: changes === undefined || changes === null ? undefined : BigInt(changes),
      insertId:
        lastInsertRowid === undefined || lastInsertRowid === null
          ? undefined
          : BigInt(lastInsertRowid),
      rows: [],
    }
  }

  #run(sql: string): void {
    try {
      this.#runStatement(this.#db.prepare(sql), [])
    } catch (error) {
      this.#checkGroup(error)
      throw error
    }
  }

  /** Opens the group's transaction unless it is open. */
  #open(): void {
    if (this.#isOpen) return
    this.#runStatement(this.#db.prepare('BEGIN'), [])
    this.#isOpen = true
  }

  /** After an error: if SQLite rolled the whole transaction back, the group's writes are lost. */
  #checkGroup(error: unknown): void {
    if (!this.#isOpen || this.#isInTransaction()) return
    this.#isOpen = false
    const members = this.#members
    this.#members = []
    for (const member of members) member.reject(error)
  }

  #scheduleCommit(): void {
    if (this.#isCommitScheduled) return
    this.#isCommitScheduled = true
    // After the callers that are ready in this turn have joined the group.
    setImmediate(() => {
      void this.#commitGroup()
    })
  }

  async #commitGroup(): Promise<void> {
    await this.acquireConnection()
    this.#isCommitScheduled = false
    const members = this.#members
    this.#members = []
    let isCommitted = false
    try {
      if (this.#isOpen) {
        this.#isOpen = false
        this.#runStatement(this.#db.prepare('COMMIT'), [])
        isCommitted = true
      }
    } catch (error) {
      try {
        if (this.#isInTransaction()) this.#runStatement(this.#db.prepare('ROLLBACK'), [])
      } catch {
        // Nothing more to undo.
      }
      for (const member of members) member.reject(error)
      return
    } finally {
      this.#unlock()
    }
    if (!isCommitted || this.#syncWal === undefined) {
      for (const member of members) member.resolve()
      return
    }
    // Started now, it covers every COMMIT made so far.
    this.#latestSync = this.#syncWal.sync()
    this.#latestSync.then(
      () => {
        for (const member of members) member.resolve()
      },
      (error: unknown) => {
        for (const member of members) member.reject(error)
      },
    )
  }

  #unlock(): void {
    const next = this.#queue.shift()
    if (next === undefined) this.#isLocked = false
    else next()
  }
}
