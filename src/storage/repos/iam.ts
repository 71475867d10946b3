// src/storage/repos/iam.ts: the stored IAM configuration and users' hashed API keys
import type { Kysely, Selectable } from 'kysely'
import type { IamRepo, StoredApiKey } from '../../core/iam/store.ts'
import type { ApiKeysTable, Tables } from '../schema.ts'
import type { Statements } from '../statements.ts'

function toApiKey(row: Selectable<ApiKeysTable>): StoredApiKey {
  return {
    username: row.username,
    keyHash: new Uint8Array(row.key_hash),
    expiresAt: row.expires_at ?? undefined,
    createdAt: row.created_at,
  }
}

export function createIamRepo(db: Kysely<Tables>, statements: Statements): IamRepo {
  return {
    async getConfig() {
      const row = await db.selectFrom('iam_config').select(['toml', 'version']).executeTakeFirst()
      return row
    },
    async setConfig(toml, now) {
      const row = await db
        .insertInto('iam_config')
        .values({ id: 1, toml, version: 1, updated_at: now })
        .onConflict((oc) =>
          oc.column('id').doUpdateSet((eb) => ({
            toml,
            version: eb('iam_config.version', '+', 1),
            updated_at: now,
          })),
        )
        .returning('version')
        .executeTakeFirstOrThrow()
      return row.version
    },
    // Every call with an API key looks its key up: hand-written SQL.
    async findApiKeyByHash(keyHash) {
      const [row] = await statements.query<Selectable<ApiKeysTable>>(
        db,
        'select "username", "key_hash", "expires_at", "created_at" from "api_keys" where "key_hash" = ?',
        [keyHash],
      )
      return row && toApiKey(row)
    },
    async findCredential(keyHash, metaKey) {
      // One row always: the key's columns are null when no key has this hash.
      const [row] = await statements.query<
        { [K in keyof Selectable<ApiKeysTable>]: Selectable<ApiKeysTable>[K] | null } & {
          meta: string | null
        }
      >(
        db,
        'select k."username", k."key_hash", k."expires_at", k."created_at", (select "value" from "vault_meta" where "key" = ?) as "meta" from (select 1 as "one") as "one" left join "api_keys" as k on k."key_hash" = ?',
        [metaKey, keyHash],
      )
      const meta = row?.meta ?? undefined
      if (
        row === undefined ||
        row.username === null ||
        row.key_hash === null ||
        row.created_at === null
      )
        return { key: undefined, meta }
      const { username, key_hash, created_at } = row
      return { key: toApiKey({ username, key_hash, created_at, expires_at: row.expires_at }), meta }
    },
    async getApiKey(username) {
      const row = await db
        .selectFrom('api_keys')
        .selectAll()
        .where('username', '=', username)
        .executeTakeFirst()
      return row && toApiKey(row)
    },
    async setApiKey(key) {
      const values = {
        key_hash: key.keyHash,
        expires_at: key.expiresAt ?? null,
        created_at: key.createdAt,
      }
      await db
        .insertInto('api_keys')
        .values({ username: key.username, ...values })
        .onConflict((oc) => oc.column('username').doUpdateSet(values))
        .execute()
    },
    async updateApiKeyExpiry(username, expiresAt) {
      const result = await db
        .updateTable('api_keys')
        .set({ expires_at: expiresAt ?? null })
        .where('username', '=', username)
        .executeTakeFirst()
      return Number(result.numUpdatedRows) > 0
    },
    async deleteApiKeysExcept(usernames) {
      let query = db.deleteFrom('api_keys')
      if (usernames.length > 0) query = query.where('username', 'not in', usernames)
      const result = await query.executeTakeFirst()
      return Number(result.numDeletedRows)
    },
  }
}
