// src/contract/tokens.ts: wire shapes of the tokens operations (endpoints §4, tokens.md)
import type { Static } from 'typebox'
import { DataQuery, QueryList } from './common.ts'
import { ErrorBody } from './errors.ts'
import { ObjectFields, Paging } from './objects.ts'
import { Type } from './schema.ts'

/** @example "pci" */
export const TokenType = Type.Union([
  Type.Literal('randomized'),
  Type.Literal('pointer'),
  Type.Literal('pci'),
  Type.Literal('pci_oneway'),
  Type.Literal('deterministic'),
])
export type TokenType = Static<typeof TokenType>

/** Exactly one member: a stored object, fields, a ciphertext or another item's object. */
export const InputObject = Type.Object({
  id: Type.Optional(Type.String()),
  fields: Type.Optional(ObjectFields),
  encrypted: Type.Optional(
    Type.Object({ ciphertext: Type.String(), scope: Type.Optional(Type.String()) }),
  ),
  request_index: Type.Optional(Type.Integer()),
})
export type InputObject = Static<typeof InputObject>

/** @example { "type": "pci", "object": { "fields": { "card": "4111111111111111" } }, "props": ["card"] } */
export const TokenizeRequest = Type.Object({
  type: TokenType,
  object: InputObject,
  props: Type.Optional(Type.Array(Type.String())),
  token_id: Type.Optional(Type.String()),
  scope: Type.Optional(Type.String()),
  tags: Type.Optional(Type.Array(Type.String())),
  ensure_unique_tenant_tags: Type.Optional(Type.Array(Type.String())),
  store_object: Type.Optional(Type.Boolean()),
  fpprops: Type.Optional(Type.Array(Type.String())),
  fptemplate: Type.Optional(Type.String()),
})
export type TokenizeRequest = Static<typeof TokenizeRequest>
export const TokenizeBody = Type.Array(TokenizeRequest)

/** @example { "token_id": "6f1c…", "object_id": "0b3e…" } */
export const TokenValue = Type.Object({
  token_id: Type.String(),
  object_id: Type.Optional(Type.String()),
})
export const TokenValues = Type.Array(TokenValue)

export const TokensParams = Type.Object({ collection: Type.String() })
export const TransactionParams = Type.Object({ collection: Type.String(), id: Type.String() })

const Selection = {
  token_ids: Type.Optional(QueryList),
  object_ids: Type.Optional(QueryList),
  tags: Type.Optional(QueryList),
}

export const TokenizeQuery = Type.Object({
  ...DataQuery.properties,
  expiration_secs: Type.Optional(Type.String()),
  transaction_id: Type.Optional(Type.String()),
})

export const DetokenizeQuery = Type.Object({
  ...DataQuery.properties,
  ...Selection,
  props: Type.Optional(QueryList),
  options: Type.Optional(
    Type.Array(
      Type.Union([Type.Literal('include_metadata'), Type.Literal('include_aggregated_data')]),
    ),
  ),
})
export type DetokenizeQuery = Static<typeof DetokenizeQuery>

const ArchivedOnly = Type.Optional(Type.Array(Type.Literal('archived')))

export const SearchTokensQuery = Type.Object({
  ...DataQuery.properties,
  options: Type.Optional(
    Type.Array(Type.Union([Type.Literal('archived'), Type.Literal('include_aggregated_data')])),
  ),
})

/** @example { "tags": ["checkout"] } */
export const QueryToken = Type.Object({
  object_ids: Type.Optional(Type.Array(Type.String())),
  token_ids: Type.Optional(Type.Array(Type.String())),
  tags: Type.Optional(Type.Array(Type.String())),
})
export type QueryToken = Static<typeof QueryToken>

export const UpdateTokensQuery = Type.Object({
  ...DataQuery.properties,
  ...Selection,
  expiration_secs: Type.Optional(Type.String()),
  options: ArchivedOnly,
})

/** @example { "tags": ["a"], "object": { "fields": { "card": "4111111111111111" } } } */
export const UpdateTokenRequest = Type.Object({
  tags: Type.Optional(Type.Array(Type.String())),
  ensure_unique_tenant_tags: Type.Optional(Type.Array(Type.String())),
  object: Type.Optional(InputObject),
  props: Type.Optional(Type.Array(Type.String())),
})
export type UpdateTokenRequest = Static<typeof UpdateTokenRequest>

export const DeleteTokensQuery = Type.Object({
  ...DataQuery.properties,
  ...Selection,
  tenant_id: Type.Optional(Type.String()),
  options: ArchivedOnly,
})

export const RotateTokensQuery = Type.Object({
  ...DataQuery.properties,
  token_ids: Type.Optional(QueryList),
})

/** @example { "old-id": "new-id" } */
export const RotatedTokens = Type.Record(Type.String(), Type.String())

const Time = Type.Union([Type.String(), Type.Null()])

/** One token of a group. */
export const TokenRefMetadata = Type.Object({
  creation_time: Type.String(),
  expiration_time: Time,
  effective_expiration_time: Time,
  object_id: Type.Optional(Type.String()),
  effective_tenant_id: Type.Optional(Type.String()),
  tags: Type.Array(Type.String()),
})

/** The tokens sharing one ID. @example { "type": "pci", "scope": "", "token_id": "…", "tokens": [] } */
export const TokenMetadata = Type.Object({
  type: TokenType,
  scope: Type.String(),
  token_id: Type.String(),
  agg: Type.Optional(Type.Object({ max_effective_expiration_time: Time })),
  tokens: Type.Array(TokenRefMetadata),
})
export type TokenMetadata = Static<typeof TokenMetadata>
export const TokenMetadataList = Type.Array(TokenMetadata)

/** @example { "token_id": "…", "fields": { "card": "4111111111111111" } } */
export const DetokenizedToken = Type.Object({
  token_id: Type.String(),
  fields: ObjectFields,
  metadata: Type.Optional(TokenMetadata),
})
export const DetokenizedTokens = Type.Array(DetokenizedToken)

/** @example { "ref_ids": ["…"] } */
export const TransactionIdResult = Type.Object({ ref_ids: Type.Array(Type.String()) })

/** @example { "active": 3, "archived": 1, "total": 4 } */
export const TokensCount = Type.Object({
  active: Type.Integer(),
  archived: Type.Integer(),
  total: Type.Integer(),
})

export const ExportTokensQuery = Type.Object({
  ...DataQuery.properties,
  page_size: Type.Optional(Type.String({ pattern: '^\\s*\\d{1,9}\\s*$' })),
  cursor: Type.Optional(Type.String()),
  token_types: Type.Optional(Type.Array(TokenType)),
})

/** An exported token; `fields` values are sealed with the export key. */
export const TokenData = Type.Object({
  token_id: Type.String(),
  token_type: TokenType,
  props: Type.Array(Type.String()),
  fields: Type.Optional(ObjectFields),
  object_id: Type.Optional(Type.String()),
  scope: Type.String(),
  tags: Type.Optional(Type.Array(Type.String())),
  expiration: Type.Optional(Type.Object({ expiration_time: Time })),
  created_at: Type.String(),
  modified_at: Type.String(),
  fptemplate: Type.Optional(Type.String()),
})
export type TokenData = Static<typeof TokenData>
export const TokenDataPage = Type.Object({ results: Type.Array(TokenData), paging: Paging })

export const ImportTokensQuery = Type.Object({
  ...DataQuery.properties,
  export_key: Type.Optional(Type.String()),
})

/** One item of an import answer, in request order. @example { "token_id": "…", "ok": true } */
export const ImportTokenResult = Type.Object({
  token_id: Type.String(),
  ok: Type.Boolean(),
  error: Type.Optional(ErrorBody),
})

/** @example { "ok": true, "results": [{ "token_id": "…", "ok": true }] } */
export const ImportTokensBulkResponse = Type.Object({
  ok: Type.Boolean(),
  results: Type.Array(ImportTokenResult),
})
export const ImportTokensBody = Type.Array(TokenData)
