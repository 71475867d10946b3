// src/core/objects/token-lookup.ts: the port the `token` transformer reads tokens through, and today's implementation
import type { RequestContext } from '../context.ts'

/**
 * The `token` transformer (data-model §7.4) answers the ID of an existing `pci` token of the
 * property for the object in the default scope, or null; it never creates one.
 */
export type TokenLookup = {
  pciTokenFor(
    ctx: RequestContext,
    collection: string,
    objectId: string,
    property: string,
  ): Promise<string | null>
}

/**
 * There is no token storage yet, so no object has a token and the answer is always null. The
 * tokens capability replaces this with a lookup in its own tables (wired in core/services.ts).
 */
export const tokenlessLookup: TokenLookup = {
  pciTokenFor: async () => null,
}
