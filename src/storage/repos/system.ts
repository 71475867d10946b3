// src/storage/repos/system.ts: confvars, cluster workers, data keys and leases
import type { Kysely, Selectable, SelectQueryBuilder } from 'kysely'
import type { DataKeyRow, KeysRepo, LeasesRepo, WorkersRepo } from '../../core/store.ts'
import type { ConfvarsRepo } from '../../core/system/store.ts'
import type { DataKeysTable, Tables } from '../schema.ts'

export function createConfvarsRepo(db: Kysely<Tables>): ConfvarsRepo {
  return {
    async list() {
      const rows = await db.selectFrom('confvars').select(['name', 'value']).execute()
      return new Map(rows.map((row) => [row.name, row.value]))
    },
    async set(name, value, now) {
      await db
        .insertInto('confvars')
        .values({ name, value, updated_at: now })
        .onConflict((oc) => oc.column('name').doUpdateSet({ value, updated_at: now }))
        .execute()
    },
    async clear() {
      await db.deleteFrom('confvars').execute()
    },
  }
}

export function createWorkersRepo(db: Kysely<Tables>): WorkersRepo {
  return {
    async upsert(worker) {
      const values = {
        generation_number: worker.generationNumber,
        generation_checked_at: worker.generationCheckedAt,
        refresh_interval_seconds: worker.refreshIntervalSeconds,
        priority: worker.priority,
        component: worker.component,
        heartbeat_at: worker.heartbeatAt,
      }
      await db
        .insertInto('workers')
        .values({ worker_id: worker.workerId, ...values })
        .onConflict((oc) => oc.column('worker_id').doUpdateSet(values))
        .execute()
    },
    async list() {
      const rows = await db.selectFrom('workers').selectAll().orderBy('worker_id').execute()
      return rows.map((row) => ({
        workerId: row.worker_id,
        generationNumber: row.generation_number,
        generationCheckedAt: row.generation_checked_at,
        refreshIntervalSeconds: row.refresh_interval_seconds,
        priority: row.priority,
        component: row.component,
        heartbeatAt: row.heartbeat_at,
      }))
    },
    async remove(workerId) {
      await db.deleteFrom('workers').where('worker_id', '=', workerId).execute()
    },
    async removeStale(heartbeatBefore) {
      const result = await db
        .deleteFrom('workers')
        .where('heartbeat_at', '<', heartbeatBefore)
        .executeTakeFirst()
      return Number(result.numDeletedRows)
    },
  }
}

type DataKeySelect = SelectQueryBuilder<Tables, 'data_keys', Selectable<DataKeysTable>>

async function keyRows(query: DataKeySelect): Promise<DataKeyRow[]> {
  const rows = await query.orderBy('purpose').orderBy('version').execute()
  return rows.map((row) => ({
    purpose: row.purpose,
    version: row.version,
    wrapped: new Uint8Array(row.wrapped),
    createdAt: row.created_at,
  }))
}

export function createKeysRepo(db: Kysely<Tables>): KeysRepo {
  const all = () => db.selectFrom('data_keys').selectAll()
  return {
    async list(purpose) {
      return keyRows(purpose === undefined ? all() : all().where('purpose', '=', purpose))
    },
    async listNewer(after) {
      const known = Object.entries(after)
      if (known.length === 0) return keyRows(all())
      // One statement, usually answering no row: a keyring's reload reads only what it lacks.
      return keyRows(
        all().where((eb) =>
          eb.or([
            ...known.map(([purpose, version]) =>
              eb.and([eb('purpose', '=', purpose), eb('version', '>', version)]),
            ),
            eb(
              'purpose',
              'not in',
              known.map(([purpose]) => purpose),
            ),
          ]),
        ),
      )
    },
    async insert(row) {
      const inserted = await db
        .insertInto('data_keys')
        .values({
          purpose: row.purpose,
          version: row.version,
          wrapped: row.wrapped,
          created_at: row.createdAt,
        })
        .onConflict((oc) => oc.columns(['purpose', 'version']).doNothing())
        .returning('version')
        .executeTakeFirst()
      return inserted !== undefined
    },
  }
}

export function createLeasesRepo(db: Kysely<Tables>): LeasesRepo {
  return {
    async acquire(name, holder, expiresAt, now) {
      // Take the lease when it is free, expired or already ours; one statement, so two nodes
      // racing for it cannot both win.
      const row = await db
        .insertInto('leases')
        .values({ name, holder, expires_at: expiresAt, state: '' })
        .onConflict((oc) =>
          oc
            .column('name')
            .doUpdateSet({ holder, expires_at: expiresAt })
            .where((eb) =>
              eb.or([eb('leases.holder', '=', holder), eb('leases.expires_at', '<', now)]),
            ),
        )
        .returning('holder')
        .executeTakeFirst()
      return row?.holder === holder
    },
    async release(name, holder) {
      await db
        .updateTable('leases')
        .set({ expires_at: 0 })
        .where('name', '=', name)
        .where('holder', '=', holder)
        .execute()
    },
    async getState(name) {
      const row = await db
        .selectFrom('leases')
        .select('state')
        .where('name', '=', name)
        .executeTakeFirst()
      return row?.state
    },
    async setState(name, holder, state) {
      const result = await db
        .updateTable('leases')
        .set({ state })
        .where('name', '=', name)
        .where('holder', '=', holder)
        .executeTakeFirst()
      return Number(result.numUpdatedRows) > 0
    },
  }
}
