// src/core/tokens/lookup.ts: the TokenLookup of the `token` transformer over token storage
import type { TokenLookup } from '../objects/token-lookup.ts'
import type { Store } from '../store.ts'

/** The ID of an active `pci` token of exactly that property for the object, default scope. */
export function createTokenLookup(store: Store): TokenLookup {
  return {
    async pciTokenFor(ctx, collection, objectId, property) {
      const rows = await store.tokens.select({ collection, objectIds: [objectId] })
      const match = rows.find(
        (r) =>
          r.type === 'pci' &&
          r.scope === '' &&
          r.props.length === 1 &&
          r.props[0] === property &&
          (r.expiresAt === undefined || r.expiresAt > ctx.now),
      )
      return match?.tokenId ?? null
    },
  }
}
