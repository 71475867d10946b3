// src/http/routes/tokens.ts: HTTP binding for tokens (endpoints §4)

import { DataQuery } from '../../contract/common.ts'
import type { ErrorBody } from '../../contract/errors.ts'
import {
  DeleteTokensQuery,
  DetokenizedTokens,
  DetokenizeQuery,
  ExportTokensQuery,
  ImportTokensBody,
  ImportTokensBulkResponse,
  ImportTokensQuery,
  QueryToken,
  RotatedTokens,
  RotateTokensQuery,
  SearchTokensQuery,
  TokenDataPage,
  TokenizeBody,
  TokenizeQuery,
  TokenMetadataList,
  TokensCount,
  TokensParams,
  TokenValues,
  TransactionIdResult,
  TransactionParams,
  UpdateTokenRequest,
  UpdateTokensQuery,
} from '../../contract/tokens.ts'
import { audited } from '../audited.ts'
import { styleErrorBody, toErrorResponse } from '../errors.ts'
import type { RoutesPlugin } from './types.ts'

const BASE = '/api/pvlt/1.0/data/collections/:collection'

type SelectionQuery = Readonly<{ token_ids?: string[]; object_ids?: string[]; tags?: string[] }>

const selectionOf = (q: SelectionQuery) => ({
  tokenIds: q.token_ids,
  objectIds: q.object_ids,
  tags: q.tags,
})
const has = (options: readonly string[] | undefined, name: string) =>
  options?.includes(name) ?? false

export const tokensRoutes: RoutesPlugin = async (app, { services, errorStyle }) => {
  const { tokens } = services
  const params = TokensParams

  app.post(
    `${BASE}/tokens`,
    {
      config: {
        operation: 'tokenize',
        errors: [
          'collectionNotFound',
          'objectNotFound',
          'propertyNotFound',
          'invalidTokenizeValues',
          'alreadyExists',
          'transactionIdUsed',
          'tenantTagUsed',
        ],
      },
      schema: {
        operationId: 'tokens.tokenize',
        summary: 'Tokenize',
        description:
          'Creates tokens for object properties or given values and answers their IDs in request order. No token is created if any item fails.',
        tags: ['Tokens'],
        params,
        querystring: TokenizeQuery,
        body: TokenizeBody,
        response: { 200: TokenValues },
      },
    },
    (req) =>
      tokens.tokenize(req.ctx, req.params.collection, req.body, {
        expirationSecs: req.query.expiration_secs,
        transactionId: req.query.transaction_id,
      }),
  )

  app.get(
    `${BASE}/tokens`,
    {
      config: {
        operation: 'detokenize',
        errors: ['collectionNotFound', 'objectNotFound', 'propertyNotFound'],
      },
      schema: {
        operationId: 'tokens.detokenize',
        summary: 'Detokenize',
        description: 'Answers the values behind tokens selected by token IDs, object IDs or tags.',
        tags: ['Tokens'],
        params,
        querystring: DetokenizeQuery,
        response: { 200: DetokenizedTokens },
      },
    },
    async (req) =>
      audited(
        await tokens.detokenize(req.ctx, req.params.collection, selectionOf(req.query), {
          props: req.query.props,
          includeMetadata: has(req.query.options, 'include_metadata'),
          includeAggregate: has(req.query.options, 'include_aggregated_data'),
        }),
      ),
  )

  app.post(
    `${BASE}/query/tokens`,
    {
      config: { operation: 'search_tokens', errors: ['collectionNotFound'] },
      schema: {
        operationId: 'tokens.searchTokens',
        summary: 'Search tokens',
        description: 'Answers the metadata of the tokens matching object IDs, token IDs or tags.',
        tags: ['Tokens'],
        params,
        querystring: SearchTokensQuery,
        body: QueryToken,
        response: { 200: TokenMetadataList },
      },
    },
    async (req) =>
      audited(
        await tokens.search(req.ctx, req.params.collection, selectionOf(req.body), {
          isArchived: has(req.query.options, 'archived'),
          includeAggregate: has(req.query.options, 'include_aggregated_data'),
        }),
      ),
  )

  app.patch(
    `${BASE}/tokens`,
    {
      config: {
        operation: 'update_tokens',
        errors: [
          'collectionNotFound',
          'tokenNotFound',
          'propertyNotFound',
          'invalidTokenizeValues',
          'tenantTagUsed',
        ],
        isAdhocMissingNotFound: true,
      },
      schema: {
        operationId: 'tokens.updateTokens',
        summary: 'Update tokens',
        description: 'Changes the tags, expiry or data of the tokens matching the query.',
        tags: ['Tokens'],
        params,
        querystring: UpdateTokensQuery,
        body: UpdateTokenRequest,
      },
    },
    async (req) => {
      const options = {
        expirationSecs: req.query.expiration_secs,
        isArchived: has(req.query.options, 'archived'),
      }
      await tokens.update(req.ctx, req.params.collection, selectionOf(req.query), req.body, options)
    },
  )

  app.delete(
    `${BASE}/tokens`,
    {
      config: {
        operation: 'delete_tokens',
        errors: ['collectionNotFound', 'tokenNotFound'],
        isAdhocMissingNotFound: true,
      },
      schema: {
        operationId: 'tokens.deleteTokens',
        summary: 'Delete tokens',
        description:
          'Archives the tokens matching every criterion; with `options=archived`, removes archived ones.',
        tags: ['Tokens'],
        params,
        querystring: DeleteTokensQuery,
      },
    },
    async (req) => {
      const options = {
        isArchived: has(req.query.options, 'archived'),
        tenantId: req.query.tenant_id,
      }
      await tokens.delete(req.ctx, req.params.collection, selectionOf(req.query), options)
    },
  )

  app.post(
    `${BASE}/rotate/tokens`,
    {
      config: {
        operation: 'rotate_tokens',
        errors: ['collectionNotFound', 'tokenIdsNotFound', 'tokenNotFound'],
        isAdhocMissingNotFound: true,
      },
      schema: {
        operationId: 'tokens.rotateTokens',
        summary: 'Rotate tokens',
        description: 'Gives tokens new IDs and answers the map from old to new ID.',
        tags: ['Tokens'],
        params,
        querystring: RotateTokensQuery,
        response: { 200: RotatedTokens },
      },
    },
    (req) => tokens.rotate(req.ctx, req.params.collection, req.query.token_ids ?? []),
  )

  app.get(
    `${BASE}/transaction_id/:id`,
    {
      config: {
        operation: 'get_transaction_id',
        errors: ['collectionNotFound', 'transactionIdNotFound'],
      },
      schema: {
        operationId: 'tokens.getByTransactionId',
        summary: 'Get tokens by transaction ID',
        description: 'Answers the IDs of the tokens created under a transaction ID.',
        tags: ['Tokens'],
        params: TransactionParams,
        querystring: DataQuery,
        response: { 200: TransactionIdResult },
      },
    },
    async (req) =>
      audited(await tokens.byTransaction(req.ctx, req.params.collection, req.params.id)),
  )

  app.get(
    `${BASE}/count/tokens`,
    {
      config: { operation: 'count_tokens', errors: ['collectionNotFound'] },
      schema: {
        operationId: 'tokens.getTokensCount',
        summary: 'Count tokens',
        description: 'Answers the number of active and archived tokens of a collection.',
        tags: ['Tokens'],
        params,
        querystring: DataQuery,
        response: { 200: TokensCount },
      },
    },
    async (req) => audited(await tokens.count(req.ctx, req.params.collection)),
  )

  app.get(
    `${BASE}/export/tokens`,
    {
      config: { operation: 'export_tokens', errors: ['collectionNotFound', 'notInMemoryMode'] },
      schema: {
        operationId: 'tokens.exportTokens',
        summary: 'Export tokens',
        description: 'Answers token data, a page at a time, encrypted with the export key.',
        tags: ['Tokens'],
        params,
        querystring: ExportTokensQuery,
        response: { 200: TokenDataPage },
      },
    },
    async (req) =>
      audited(
        await tokens.export(req.ctx, req.params.collection, {
          pageSize: req.query.page_size,
          cursor: req.query.cursor,
          tokenTypes: req.query.token_types,
        }),
      ),
  )

  app.post(
    `${BASE}/import/tokens`,
    {
      config: { operation: 'import_tokens', errors: ['collectionNotFound', 'notInMemoryMode'] },
      schema: {
        operationId: 'tokens.importTokens',
        summary: 'Import tokens',
        description: "Stores tokens exported by another vault; read `ok` and each item's `error`.",
        tags: ['Tokens'],
        params,
        querystring: ImportTokensQuery,
        body: ImportTokensBody,
        response: { 200: ImportTokensBulkResponse },
      },
    },
    async (req) => {
      const result = await tokens.import(
        req.ctx,
        req.params.collection,
        req.body,
        req.query.export_key,
      )
      const results = result.results.map((item) => {
        if (item.error === undefined) return { token_id: item.token_id, ok: item.ok }
        const error: ErrorBody = styleErrorBody(
          toErrorResponse(item.error, req.log).body,
          errorStyle,
        )
        return { token_id: item.token_id, ok: false, error }
      })
      return { ok: result.ok, results }
    },
  )
}
