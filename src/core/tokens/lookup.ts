// src/core/tokens/lookup.ts: the token lookup the objects' `token` transformer needs (objects/deps.ts TokenLookup), over token storage
import type { RequestContext } from '../context.ts'
import type { Store } from '../store.ts'

/** The ID of an active `pci` token of exactly that property for the object, default scope. */
export function createTokenLookup(store: Store) {
  return {
    async pciTokenFor(
      ctx: RequestContext,
      collection: string,
      objectId: string,
      property: string,
    ): Promise<string | null> {
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
