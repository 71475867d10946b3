// src/core/actions/vault-host.ts: `context.vault` of an action: deref and crypto.decrypt with the action's role
import {
  type AuditDetails,
  type Audited,
  mergeDetails,
  NO_DETAILS,
  replaceDetails,
  withFailureOf,
} from '../audit/details.ts'
import type { VaultHost } from '../bundles/sandbox.ts'
import type { RequestContext } from '../context.ts'
import { VaultError } from '../errors.ts'
import { parseIdentifier, type ResolverDeps, resolveIdentifier } from './identifiers.ts'

const MAX_IDENTIFIERS = 100

function invalid(what: string): VaultError {
  return new VaultError('invalidRequest', { message: `vault.${what}.`, context: {} })
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

async function deref(
  deps: ResolverDeps,
  ctx: RequestContext,
  request: unknown,
): Promise<Audited<unknown>> {
  if (!isRecord(request)) throw invalid('deref takes an object mapping names to global identifiers')
  const entries = Object.entries(request)
  if (entries.length > MAX_IDENTIFIERS)
    throw invalid(`deref resolves at most ${MAX_IDENTIFIERS} identifiers per call`)
  const answer: Record<string, unknown> = {}
  let audit = NO_DETAILS
  try {
    for (const [key, text] of entries) {
      if (typeof text !== 'string')
        throw invalid(`deref: the identifier of ${key.slice(0, 100)} must be a string`)
      const resolved = await resolveIdentifier(deps, ctx, parseIdentifier(key, text))
      answer[key] = resolved.value.value
      audit = mergeDetails(audit, resolved.audit)
    }
  } catch (error) {
    // The identifiers resolved before the failure were touched too.
    throw replaceDetails(error, withFailureOf(audit, error))
  }
  return { value: answer, audit }
}

type DecryptItem = { encrypted_object: { ciphertext: string; scope?: string }; props?: string[] }

function decryptItem(item: unknown): DecryptItem {
  const why = 'crypto.decrypt items are { encryptedObject: { ciphertext, scope? }, props? }'
  if (!isRecord(item)) throw invalid(why)
  const object = item.encryptedObject ?? item.encrypted_object
  if (!isRecord(object) || typeof object.ciphertext !== 'string') throw invalid(why)
  if (object.scope !== undefined && typeof object.scope !== 'string') throw invalid(why)
  const { props } = item
  if (props !== undefined && !(Array.isArray(props) && props.every((p) => typeof p === 'string')))
    throw invalid(why)
  return {
    encrypted_object: {
      ciphertext: object.ciphertext,
      ...(object.scope === undefined ? {} : { scope: object.scope as string }),
    },
    ...(props === undefined ? {} : { props: props as string[] }),
  }
}

async function decrypt(
  deps: ResolverDeps,
  ctx: RequestContext,
  request: unknown,
): Promise<Audited<unknown>> {
  const why = 'crypto.decrypt takes { collection, requestBody: [ … ], options? }'
  if (!isRecord(request) || typeof request.collection !== 'string') throw invalid(why)
  if (!Array.isArray(request.requestBody)) throw invalid(why)
  const options = Array.isArray(request.options) ? request.options : []
  deps.iam.authorize(ctx, 'decrypt')
  return deps.crypto.decrypt(ctx, request.collection, request.requestBody.map(decryptItem), {
    archived: options.includes('archived'),
    includeMetadata: options.includes('include_metadata'),
  })
}

/**
 * The `vault` of an action run with `ctx` (the action's role). The first service error a host
 * call raised is kept: when the action then fails, that error (a policy denial, a missing object)
 * is the answer rather than "the function threw". `audit()` is what the host calls touched so
 * far, failed ones included (the action's code may catch their errors and carry on).
 */
export function createVaultHost(deps: ResolverDeps, ctx: RequestContext) {
  let firstError: VaultError | undefined
  let audit: AuditDetails = NO_DETAILS
  const guard =
    (work: (request: unknown) => Promise<Audited<unknown>>) =>
    async (request: unknown): Promise<unknown> => {
      try {
        const result = await work(request)
        audit = mergeDetails(audit, result.audit)
        return result.value
      } catch (error) {
        audit = withFailureOf(audit, error)
        if (error instanceof VaultError) firstError ??= error
        throw error
      }
    }
  const host: VaultHost = {
    deref: guard((request) => deref(deps, ctx, request)),
    decrypt: guard((request) => decrypt(deps, ctx, request)),
  }
  return { host, firstError: () => firstError, audit: () => audit }
}
