// src/core/iam/jwt.ts: verifies JWTs of configured identity providers (jose) against keys or a JWKS

import { createRequire } from 'node:module'
import { isDeepStrictEqual } from 'node:util'
import type * as Jose from 'jose'
import type { JWK, JWTPayload, JWTVerifyGetKey } from 'jose'
import type { Micros } from '../time.ts'
import type { IdpConfig, Jwks } from './config.ts'

/** An identity provider ready to verify tokens; key sets are built once per configuration. */
export type Idp = Readonly<{ name: string; config: IdpConfig; getKey: JWTVerifyGetKey }>

export type VerifiedJwt = Readonly<{ idp: Idp; claims: JWTPayload }>

/** Why a token was refused; safe to show (never the token or its claims). */
export class JwtRejected extends Error {}

/** Signature algorithms accepted; `none` never is. HS* work only with inline `oct` keys. */
const ALGORITHMS = [
  ...['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512'],
  ...['EdDSA', 'Ed25519', 'HS256', 'HS384', 'HS512'],
]

const require = createRequire(import.meta.url)
let loaded: typeof Jose | undefined

/**
 * jose (~45 modules) is required the first time a JWT-shaped credential arrives or an identity
 * provider is configured: a node that sees only API keys never loads it.
 */
function jose(): typeof Jose {
  loaded ??= require('jose') as typeof Jose
  return loaded
}

/** Whether a bearer value has the shape of a signed JWT (three parts, a JSON header with `alg`). */
export function looksLikeJwt(credential: string): boolean {
  if (!/^[\w-]+\.[\w-]+\.[\w-]*$/.test(credential)) return false
  const { decodeProtectedHeader } = jose()
  try {
    return typeof decodeProtectedHeader(credential).alg === 'string'
  } catch {
    return false
  }
}

/**
 * Keys given inline. jose's key sets refuse shared secrets, so HS* tokens look up an `oct` key
 * themselves; the other algorithms never see a secret key (no algorithm confusion).
 */
function inlineKeys(jwks: Jwks): JWTVerifyGetKey {
  const { createLocalJWKSet, importJWK } = jose()
  const secrets = jwks.keys.filter((key) => key.kty === 'oct') as JWK[]
  const publicKeys = jwks.keys.filter((key) => key.kty !== 'oct') as JWK[]
  const local = publicKeys.length > 0 ? createLocalJWKSet({ keys: publicKeys }) : undefined
  return async (header, token) => {
    const alg = header.alg ?? ''
    if (alg.startsWith('HS')) {
      const jwk = secrets.find(
        (key) =>
          (header.kid === undefined || key.kid === header.kid) &&
          (key.alg === undefined || key.alg === alg),
      )
      if (jwk === undefined) throw new JwtRejected('no configured key matches the token')
      return importJWK(jwk, alg)
    }
    if (local === undefined) throw new JwtRejected('no configured key matches the token')
    return local(header, token)
  }
}

export function createIdp(name: string, config: IdpConfig): Idp {
  const getKey = config.jwksUri
    ? jose().createRemoteJWKSet(new URL(config.jwksUri), { timeoutDuration: 5000 })
    : inlineKeys(config.keys ?? { keys: [] })
  return { name, config, getKey }
}

function describeFailure(error: unknown): string {
  const { errors } = jose()
  if (error instanceof JwtRejected) return error.message
  if (error instanceof errors.JWTExpired) return 'the token is expired'
  if (error instanceof errors.JWTClaimValidationFailed)
    return `the ${error.claim} claim is not accepted`
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'the signature does not verify'
  if (error instanceof errors.JOSEAlgNotAllowed) return 'the algorithm is not allowed'
  if (error instanceof errors.JWKSNoMatchingKey) return 'no configured key matches the token'
  return 'the token cannot be verified'
}

function hasClaim(claims: JWTPayload, name: string, expected: unknown): boolean {
  const actual = claims[name]
  if (isDeepStrictEqual(actual, expected)) return true
  return Array.isArray(actual) && actual.some((item) => isDeepStrictEqual(item, expected))
}

function checkClaims(config: IdpConfig, claims: JWTPayload): void {
  for (const [name, expected] of Object.entries(config.boundClaims)) {
    if (!hasClaim(claims, name, expected))
      throw new JwtRejected(`the ${name} claim is not accepted`)
  }
  for (const name of config.extraClaims) {
    if (claims[name] === undefined) throw new JwtRejected(`the ${name} claim is missing`)
  }
}

async function verifyWith(idp: Idp, token: string, now: Micros): Promise<JWTPayload> {
  const { payload } = await jose().jwtVerify(token, idp.getKey, {
    issuer: idp.config.iss,
    audience: idp.config.aud as string | string[],
    algorithms: ALGORITHMS,
    currentDate: new Date(Math.floor(now / 1000)),
    requiredClaims: ['exp'],
  })
  checkClaims(idp.config, payload)
  return payload
}

function issuerOf(token: string): string | undefined {
  try {
    return jose().decodeJwt(token).iss
  } catch {
    return undefined
  }
}

/**
 * Verifies a token with every enabled IdP whose `iss` matches the token's: signature, `exp`,
 * `nbf`, `iss`, `aud`, bound and extra claims. Throws JwtRejected saying why when none accepts it.
 */
export async function verifyJwt(
  token: string,
  idps: readonly Idp[],
  now: Micros,
): Promise<VerifiedJwt> {
  const iss = issuerOf(token)
  const candidates = idps.filter((idp) => !idp.config.isDisabled && idp.config.iss === iss)
  if (candidates.length === 0) throw new JwtRejected('no enabled identity provider has its issuer')
  let reason = ''
  for (const idp of candidates) {
    try {
      return { idp, claims: await verifyWith(idp, token, now) }
    } catch (error) {
      reason = describeFailure(error)
    }
  }
  throw new JwtRejected(reason)
}
