// src/core/tokens/tokens.ts: the tokens service: tokenize, detokenize, search, update, delete, rotate, transactions, count, export, import
import type { TokenData, TokenizeRequest, UpdateTokenRequest } from '../../contract/tokens.ts'
import type { RequestContext } from '../context.ts'
import type { TokensDeps } from './deps.ts'
import { type DetokenizeOptions, detokenize, searchTokens } from './detokenize.ts'
import { type ExportOptions, exportTokens } from './export.ts'
import { importTokens } from './import.ts'
import { countTokens, deleteTokens, rotateTokens, transactionTokens } from './manage.ts'
import type { Selection } from './selection.ts'
import { type TokenizeOptions, tokenize } from './tokenize.ts'
import { type UpdateOptions, updateTokens } from './update.ts'

type Ctx = RequestContext

export function createTokensService(deps: TokensDeps) {
  return {
    tokenize: (
      ctx: Ctx,
      collection: string,
      items: readonly TokenizeRequest[],
      options: TokenizeOptions,
    ) => tokenize(deps, ctx, collection, items, options),
    detokenize: (ctx: Ctx, collection: string, selection: Selection, options: DetokenizeOptions) =>
      detokenize(deps, ctx, collection, selection, options),
    search: (
      ctx: Ctx,
      collection: string,
      selection: Selection,
      options: { isArchived: boolean; includeAggregate: boolean },
    ) => searchTokens(deps, ctx, collection, selection, options),
    update: (
      ctx: Ctx,
      collection: string,
      selection: Selection,
      body: UpdateTokenRequest,
      options: UpdateOptions,
    ) => updateTokens(deps, ctx, collection, selection, body, options),
    delete: (
      ctx: Ctx,
      collection: string,
      selection: Selection,
      options: { isArchived: boolean; tenantId?: string },
    ) => deleteTokens(deps, ctx, collection, selection, options),
    rotate: (ctx: Ctx, collection: string, tokenIds: readonly string[]) =>
      rotateTokens(deps, ctx, collection, tokenIds),
    byTransaction: (ctx: Ctx, collection: string, transactionId: string) =>
      transactionTokens(deps, ctx, collection, transactionId),
    count: (ctx: Ctx, collection: string) => countTokens(deps, ctx, collection),
    export: (ctx: Ctx, collection: string, options: ExportOptions) =>
      exportTokens(deps, ctx, collection, options),
    import: (
      ctx: Ctx,
      collection: string,
      items: readonly TokenData[],
      exportKey: string | undefined,
    ) => importTokens(deps, ctx, collection, items, exportKey),
  }
}

export type TokensService = ReturnType<typeof createTokensService>
