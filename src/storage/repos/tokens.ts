// src/storage/repos/tokens.ts: the tokens tables: token rows, tag index, claimed IDs, reuse fingerprints, transaction IDs
import type { Kysely, Selectable } from 'kysely'
import type { TokenRecord, TokenSelection, TokensRepo, TokenType } from '../../core/tokens/store.ts'
import type { RowsShape } from '../dialects/dialect.ts'
import type { Tables, TokensTable } from '../schema.ts'
import type { Statements } from '../statements.ts'
import { createRowsInserter } from './rows.ts'

type Row = Selectable<TokensTable>

const nullable = <T>(value: T | undefined): T | null => (value === undefined ? null : value)
const optional = <T>(value: T | null): T | undefined => (value === null ? undefined : value)
const bytes = (value: Uint8Array | null) => (value === null ? undefined : Buffer.from(value))
const CHUNK = 500

function toRecord(row: Row): TokenRecord {
  return {
    rowId: row.row_id,
    collection: row.collection,
    tokenId: row.token_id,
    type: row.type as TokenType,
    scope: row.scope,
    props: JSON.parse(row.props),
    objectId: optional(row.object_id),
    tenantId: optional(row.tenant_id),
    sealed: bytes(row.sealed),
    fingerprint: bytes(row.fingerprint),
    tags: JSON.parse(row.tags),
    createdAt: Number(row.created_at),
    modifiedAt: Number(row.modified_at),
    expiresAt: row.expires_at === null ? undefined : Number(row.expires_at),
    fptemplate: optional(row.fptemplate),
    fpprops: row.fpprops === null ? undefined : JSON.parse(row.fpprops),
    transactionId: optional(row.transaction_id),
  }
}

function toRow(record: TokenRecord): Row {
  return {
    row_id: record.rowId,
    collection: record.collection,
    token_id: record.tokenId,
    type: record.type,
    scope: record.scope,
    props: JSON.stringify(record.props),
    object_id: nullable(record.objectId),
    tenant_id: nullable(record.tenantId),
    sealed: nullable(record.sealed),
    fingerprint: nullable(record.fingerprint),
    tags: JSON.stringify(record.tags),
    created_at: record.createdAt,
    modified_at: record.modifiedAt,
    expires_at: nullable(record.expiresAt),
    fptemplate: nullable(record.fptemplate),
    fpprops: record.fpprops === undefined ? null : JSON.stringify(record.fpprops),
    transaction_id: nullable(record.transactionId),
  }
}

function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}

/** The tokens table's columns with their PostgreSQL types, in the order `toRow` gives them. */
const TOKEN_ROWS: RowsShape = {
  table: 'tokens',
  columns: [
    ['row_id', 'text'],
    ['collection', 'text'],
    ['token_id', 'text'],
    ['type', 'text'],
    ['scope', 'text'],
    ['props', 'text'],
    ['object_id', 'text'],
    ['tenant_id', 'text'],
    ['sealed', 'bytea'],
    ['fingerprint', 'bytea'],
    ['tags', 'text'],
    ['created_at', 'bigint'],
    ['modified_at', 'bigint'],
    ['expires_at', 'bigint'],
    ['fptemplate', 'text'],
    ['fpprops', 'text'],
    ['transaction_id', 'text'],
  ],
  tail: '',
}
const TAG_ROWS: RowsShape = {
  table: 'token_tags',
  columns: [
    ['collection', 'text'],
    ['tag', 'text'],
    ['row_id', 'text'],
  ],
  tail: '',
}
const CLAIM_ROWS: RowsShape = {
  table: 'token_ids',
  columns: [
    ['collection', 'text'],
    ['token_id', 'text'],
    ['type', 'text'],
  ],
  tail: 'ON CONFLICT DO NOTHING RETURNING token_id',
}

export function createTokensRepo(db: Kysely<Tables>, statements: Statements): TokensRepo {
  const insertRows = createRowsInserter(db, statements.dialect)

  async function insertTags(rows: readonly TokenRecord[]) {
    const tags = rows.flatMap((r) =>
      [...new Set(r.tags)].map((tag) => [r.collection, tag, r.rowId]),
    )
    await insertRows(TAG_ROWS, tags)
  }

  async function releaseOrphans(collection: string, tokenIds: readonly string[]) {
    for (const id of new Set(tokenIds)) {
      const left = await db
        .selectFrom('tokens')
        .select('row_id')
        .where('collection', '=', collection)
        .where('token_id', '=', id)
        .limit(1)
        .executeTakeFirst()
      if (left !== undefined) continue
      await db
        .deleteFrom('token_ids')
        .where('collection', '=', collection)
        .where('token_id', '=', id)
        .execute()
      await db.deleteFrom('token_reuse').where('token_id', '=', id).execute()
    }
  }

  return {
    // Tokenize's two writes run once per call and dominate it: SQL built once (rows.ts).
    async insert(rows) {
      await insertRows(
        TOKEN_ROWS,
        rows.map((record) => {
          const row = toRow(record)
          return TOKEN_ROWS.columns.map(([name]) => row[name as keyof Row])
        }),
      )
      await insertTags(rows)
    },
    async claimIds(collection, claims) {
      if (claims.length === 0) return new Set()
      const won = await insertRows<{ token_id: string }>(
        CLAIM_ROWS,
        claims.map((c) => [collection, c.tokenId, c.type]),
      )
      const wonIds = new Set(won.map((row) => row.token_id))
      return new Set(claims.map((c) => c.tokenId).filter((id) => !wonIds.has(id)))
    },
    async claimedType(collection, tokenId) {
      const row = await db
        .selectFrom('token_ids')
        .select('type')
        .where('collection', '=', collection)
        .where('token_id', '=', tokenId)
        .executeTakeFirst()
      return row?.type as TokenType | undefined
    },
    async claimReuse(namespace, fingerprint, tokenId) {
      const won = await db
        .insertInto('token_reuse')
        .values({ namespace, fingerprint, token_id: tokenId })
        .onConflict((oc) => oc.doNothing())
        .returning('token_id')
        .executeTakeFirst()
      if (won !== undefined) return tokenId
      return (await this.findReuse(namespace, fingerprint)) ?? tokenId
    },
    async findReuse(namespace, fingerprint) {
      const row = await db
        .selectFrom('token_reuse')
        .select('token_id')
        .where('namespace', '=', namespace)
        .where('fingerprint', '=', fingerprint)
        .executeTakeFirst()
      return row?.token_id
    },
    async setReuse(namespace, fingerprint, tokenId) {
      await db
        .insertInto('token_reuse')
        .values({ namespace, fingerprint, token_id: tokenId })
        .onConflict((oc) =>
          oc.columns(['namespace', 'fingerprint']).doUpdateSet({ token_id: tokenId }),
        )
        .execute()
    },
    async releaseReuse(tokenId) {
      await db.deleteFrom('token_reuse').where('token_id', '=', tokenId).execute()
    },
    async select(selection: TokenSelection) {
      let query = db.selectFrom('tokens').selectAll().where('collection', '=', selection.collection)
      if (selection.tokenIds !== undefined) {
        if (selection.tokenIds.length === 0) return []
        query = query.where('token_id', 'in', [...selection.tokenIds])
      }
      if (selection.objectIds !== undefined) {
        if (selection.objectIds.length === 0) return []
        query = query.where('object_id', 'in', [...selection.objectIds])
      }
      for (const tag of new Set(selection.tags ?? [])) {
        query = query.where((eb) =>
          eb.exists(
            eb
              .selectFrom('token_tags')
              .select('token_tags.row_id')
              .where('token_tags.collection', '=', selection.collection)
              .where('token_tags.tag', '=', tag)
              .whereRef('token_tags.row_id', '=', 'tokens.row_id'),
          ),
        )
      }
      return (await query.orderBy('created_at').orderBy('row_id').execute()).map(toRecord)
    },
    async withTag(collection, tag) {
      return this.select({ collection, tags: [tag] })
    },
    async byTransaction(collection, transactionId) {
      const rows = await db
        .selectFrom('tokens')
        .selectAll()
        .where('collection', '=', collection)
        .where('transaction_id', '=', transactionId)
        .orderBy('created_at')
        .orderBy('row_id')
        .execute()
      return rows.map(toRecord)
    },
    async updateMeta(changes) {
      for (const change of changes) {
        await db
          .updateTable('tokens')
          .set({
            tags: JSON.stringify(change.tags),
            expires_at: nullable(change.expiresAt),
            modified_at: change.modifiedAt,
          })
          .where('row_id', '=', change.rowId)
          .execute()
        await db.deleteFrom('token_tags').where('row_id', '=', change.rowId).execute()
      }
      const rows = await db
        .selectFrom('tokens')
        .selectAll()
        .where('row_id', 'in', changes.length ? changes.map((c) => c.rowId) : [''])
        .execute()
      await insertTags(rows.map(toRecord))
    },
    async updateData(changes) {
      for (const change of changes)
        await db
          .updateTable('tokens')
          .set({
            sealed: change.sealed,
            fingerprint: nullable(change.fingerprint),
            props: JSON.stringify(change.props),
            modified_at: change.modifiedAt,
          })
          .where('row_id', '=', change.rowId)
          .execute()
    },
    async replaceSealed(rowId, from, to) {
      const result = await db
        .updateTable('tokens')
        .set({ sealed: Buffer.from(to) })
        .where('row_id', '=', rowId)
        .where('sealed', '=', Buffer.from(from))
        .executeTakeFirst()
      return Number(result.numUpdatedRows) > 0
    },
    async rename(collection, from, to) {
      await db
        .updateTable('tokens')
        .set({ token_id: to })
        .where('collection', '=', collection)
        .where('token_id', '=', from)
        .execute()
      // The new ID was claimed by the caller; the old claim goes.
      await db
        .deleteFrom('token_ids')
        .where('collection', '=', collection)
        .where('token_id', '=', from)
        .execute()
      await db
        .updateTable('token_reuse')
        .set({ token_id: to })
        .where('token_id', '=', from)
        .execute()
    },
    async delete(collection, rowIds) {
      for (const part of chunks(rowIds)) {
        const rows = await db
          .selectFrom('tokens')
          .select('token_id')
          .where('row_id', 'in', part)
          .execute()
        await db.deleteFrom('token_tags').where('row_id', 'in', part).execute()
        await db.deleteFrom('tokens').where('row_id', 'in', part).execute()
        await releaseOrphans(
          collection,
          rows.map((r) => r.token_id),
        )
      }
    },
    async insertTransaction(collection, transactionId, now) {
      const row = await db
        .insertInto('transaction_ids')
        .values({ collection, transaction_id: transactionId, created_at: now })
        .onConflict((oc) => oc.doNothing())
        .returning('transaction_id')
        .executeTakeFirst()
      return row !== undefined
    },
    async hasTransaction(collection, transactionId) {
      const row = await db
        .selectFrom('transaction_ids')
        .select('transaction_id')
        .where('collection', '=', collection)
        .where('transaction_id', '=', transactionId)
        .executeTakeFirst()
      return row !== undefined
    },
    async orphanTransactions(limit) {
      const rows = await db
        .selectFrom('transaction_ids as x')
        .select(['x.collection', 'x.transaction_id'])
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('tokens')
                .select('tokens.row_id')
                .whereRef('tokens.collection', '=', 'x.collection')
                .whereRef('tokens.transaction_id', '=', 'x.transaction_id'),
            ),
          ),
        )
        .limit(limit)
        .execute()
      return rows.map((r) => ({ collection: r.collection, transactionId: r.transaction_id }))
    },
    async deleteTransactions(entries) {
      for (const e of entries)
        await db
          .deleteFrom('transaction_ids')
          .where('collection', '=', e.collection)
          .where('transaction_id', '=', e.transactionId)
          .execute()
    },
    async expired(before, limit) {
      const rows = await db
        .selectFrom('tokens')
        .selectAll()
        .where('expires_at', '<', before)
        .orderBy('expires_at')
        .limit(limit)
        .execute()
      return rows.map(toRecord)
    },
    async page(collection, after, limit) {
      let query = db.selectFrom('tokens').selectAll()
      if (collection !== undefined) query = query.where('collection', '=', collection)
      if (after !== undefined) query = query.where('row_id', '>', after)
      return (await query.orderBy('row_id').limit(limit).execute()).map(toRecord)
    },
    async deleteCollection(collection) {
      const ids = await db
        .selectFrom('tokens')
        .select('token_id')
        .where('collection', '=', collection)
        .execute()
      await db.deleteFrom('token_tags').where('collection', '=', collection).execute()
      await db.deleteFrom('tokens').where('collection', '=', collection).execute()
      await db.deleteFrom('token_ids').where('collection', '=', collection).execute()
      await db.deleteFrom('transaction_ids').where('collection', '=', collection).execute()
      for (const part of chunks([...new Set(ids.map((r) => r.token_id))]))
        await db.deleteFrom('token_reuse').where('token_id', 'in', part).execute()
    },
    async removeProperty(collection, property) {
      const rows = (await this.select({ collection })).filter((r) => r.props.includes(property))
      const gone = rows.filter((r) => r.props.length === 1).map((r) => r.rowId)
      await this.delete(collection, gone)
      for (const row of rows.filter((r) => r.props.length > 1))
        await db
          .updateTable('tokens')
          .set({ props: JSON.stringify(row.props.filter((p) => p !== property)) })
          .where('row_id', '=', row.rowId)
          .execute()
    },
  }
}
