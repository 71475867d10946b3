// src/core/iam/jwt.test.ts: JWT verification with inline keys, and claims → role and tenants
import {
  type CryptoKey,
  exportJWK,
  generateKeyPair,
  type JWK,
  type JWTPayload,
  SignJWT,
} from 'jose'
import { beforeAll, describe, expect, it } from 'vitest'
import type { IdpConfig } from './config.ts'
import { createIdp, JwtRejected, looksLikeJwt, verifyJwt } from './jwt.ts'
import { resolveJwtRole, subjectOf, tenantsFromClaims } from './jwt-claims.ts'

const NOW = Date.UTC(2030, 0, 1) * 1000
const NOW_SECONDS = NOW / 1_000_000
const SECRET: JWK = {
  kty: 'oct',
  k: Buffer.from('a-shared-secret-of-32-bytes-long').toString('base64url'),
  kid: 'hs',
}

type Signer = Readonly<{ alg: string; key: CryptoKey | Uint8Array; kid: string }>

function config(overrides: Partial<IdpConfig> = {}): IdpConfig {
  return {
    isDisabled: false,
    allowedRoles: undefined,
    rolesMap: {},
    iss: 'https://issuer.example',
    aud: 'vault',
    jwksUri: undefined,
    keys: undefined,
    rolesClaim: 'roles',
    boundClaims: {},
    extraClaims: [],
    namespaceTopClaim: undefined,
    ...overrides,
  }
}

async function sign(signer: Signer, claims: JWTPayload = {}) {
  const standard = {
    iss: 'https://issuer.example',
    aud: 'vault',
    sub: 'alice',
    iat: NOW_SECONDS - 10,
    exp: NOW_SECONDS + 60,
  }
  return new SignJWT({ ...standard, ...claims })
    .setProtectedHeader({ alg: signer.alg, kid: signer.kid })
    .sign(signer.key)
}

async function pair(alg: string, kid: string): Promise<{ signer: Signer; jwk: JWK }> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true })
  return { signer: { alg, key: privateKey, kid }, jwk: { ...(await exportJWK(publicKey)), kid } }
}

async function reasonOf(work: Promise<unknown>): Promise<string> {
  try {
    await work
    return 'accepted'
  } catch (error) {
    if (error instanceof JwtRejected) return error.message
    throw error
  }
}

describe('JWT verification', () => {
  const signers: Record<string, Signer> = {}
  let keys: JWK[] = []
  beforeAll(async () => {
    for (const [alg, kid] of [
      ['RS256', 'rsa'],
      ['ES256', 'ec'],
      ['EdDSA', 'ed'],
    ] as const) {
      const { signer, jwk } = await pair(alg, kid)
      signers[alg] = signer
      keys.push(jwk)
    }
    signers.HS256 = {
      alg: 'HS256',
      key: Buffer.from('a-shared-secret-of-32-bytes-long'),
      kid: 'hs',
    }
    keys = [...keys, SECRET]
  })

  const idp = (overrides: Partial<IdpConfig> = {}) =>
    createIdp('app1', config({ keys: { keys }, ...overrides }))

  it.each(['RS256', 'ES256', 'EdDSA', 'HS256'])(
    'accepts a %s token signed by a configured key',
    async (alg) => {
      const token = await sign(signers[alg] as Signer)
      expect(looksLikeJwt(token)).toBe(true)
      const verified = await verifyJwt(token, [idp()], NOW)
      expect(verified.idp.name).toBe('app1')
      expect(verified.claims.sub).toBe('alice')
    },
  )

  it('tells API keys from JWTs', () => {
    expect(looksLikeJwt('pvaultauth')).toBe(false)
    expect(looksLikeJwt('a.b.c')).toBe(false)
    expect(looksLikeJwt('AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).toBe(false)
  })

  it('refuses forged, expired, early, foreign and misaddressed tokens, saying why', async () => {
    const rs = signers.RS256 as Signer
    const forger = (await pair('RS256', 'rsa')).signer
    const expired = await sign(rs, { exp: NOW_SECONDS - 1 })
    const early = await sign(rs, { nbf: NOW_SECONDS + 30 })
    const noExp = await sign(rs, { exp: undefined })
    const idps = [idp()]
    expect(await reasonOf(verifyJwt(await sign(forger), idps, NOW))).toBe(
      'the signature does not verify',
    )
    expect(await reasonOf(verifyJwt(expired, idps, NOW))).toBe('the token is expired')
    expect(await reasonOf(verifyJwt(early, idps, NOW))).toBe('the nbf claim is not accepted')
    expect(await reasonOf(verifyJwt(noExp, idps, NOW))).toBe('the exp claim is not accepted')
    expect(await reasonOf(verifyJwt(await sign(rs, { aud: 'other' }), idps, NOW))).toBe(
      'the aud claim is not accepted',
    )
    expect(await reasonOf(verifyJwt(await sign(rs, { iss: 'https://evil' }), idps, NOW))).toBe(
      'no enabled identity provider has its issuer',
    )
  })

  it('refuses a disabled IdP and unknown keys', async () => {
    const token = await sign(signers.RS256 as Signer)
    expect(await reasonOf(verifyJwt(token, [idp({ isDisabled: true })], NOW))).toMatch(/no enabled/)
    const onlySecret = createIdp('s', config({ keys: { keys: [SECRET] } }))
    expect(await reasonOf(verifyJwt(token, [onlySecret], NOW))).toBe(
      'no configured key matches the token',
    )
  })

  it('never verifies an HS256 token with a public key (algorithm confusion)', async () => {
    const rsaOnly = createIdp('r', config({ keys: { keys: keys.filter((k) => k.kty === 'RSA') } }))
    const token = await sign(signers.HS256 as Signer)
    expect(await reasonOf(verifyJwt(token, [rsaOnly], NOW))).toBe(
      'no configured key matches the token',
    )
  })

  it('checks bound and extra claims', async () => {
    const rs = signers.RS256 as Signer
    const bound = idp({ boundClaims: { tier: 'gold', groups: 'ops' }, extraClaims: ['email'] })
    const good = await sign(rs, { tier: 'gold', groups: ['dev', 'ops'], email: 'a@x' })
    expect(await reasonOf(verifyJwt(good, [bound], NOW))).toBe('accepted')
    const wrongTier = await sign(rs, { tier: 'silver', groups: 'ops', email: 'a@x' })
    expect(await reasonOf(verifyJwt(wrongTier, [bound], NOW))).toBe(
      'the tier claim is not accepted',
    )
    const noEmail = await sign(rs, { tier: 'gold', groups: 'ops' })
    expect(await reasonOf(verifyJwt(noEmail, [bound], NOW))).toBe('the email claim is missing')
  })

  it('tries every IdP of the issuer', async () => {
    const other = createIdp('other', config({ keys: { keys: [SECRET] } }))
    const verified = await verifyJwt(await sign(signers.ES256 as Signer), [other, idp()], NOW)
    expect(verified.idp.name).toBe('app1')
  })
})

describe('JWT claims', () => {
  const known = (role: string) => ['App', 'Ops', 'Reader'].includes(role)

  it.each<[string, Partial<IdpConfig>, JWTPayload, string | undefined]>([
    ['roles_map by sub', { rolesMap: { alice: 'Ops' } }, { sub: 'alice', roles: ['App'] }, 'Ops'],
    ['roles_map by email', { rolesMap: { 'a@x': 'Ops' } }, { sub: 's', email: 'a@x' }, 'Ops'],
    ['the roles claim as text', {}, { roles: 'App' }, 'App'],
    ['the first known role of the claim', {}, { roles: ['Nope', 'Reader', 'App'] }, 'Reader'],
    ['the first allowed role', { allowedRoles: ['App'] }, { roles: ['Reader', 'App'] }, 'App'],
    ['another roles claim', { rolesClaim: 'groups' }, { groups: ['Ops'], roles: ['App'] }, 'Ops'],
    ['no acceptable role', { allowedRoles: ['Ops'] }, { roles: ['App'] }, undefined],
    [
      'a mapped role that is not allowed',
      { rolesMap: { alice: 'App' }, allowedRoles: ['Ops'] },
      { sub: 'alice', roles: ['Ops'] },
      undefined,
    ],
    ['Admin is never a role', {}, { roles: ['Admin'] }, undefined],
  ])('resolve the role from %s', (_what, overrides, claims, expected) => {
    expect(resolveJwtRole(config(overrides), claims, known)).toBe(expected)
  })

  it('name the subject by sub, else email', () => {
    expect(subjectOf({ sub: 's', email: 'e' })).toBe('s')
    expect(subjectOf({ email: 'e' })).toBe('e')
    expect(subjectOf({})).toBeUndefined()
  })

  it.each<[string, unknown, string[] | undefined]>([
    ['a tenant ID', 't1', ['t1']],
    ['a comma-separated list', 't1, t2', ['t1', 't2']],
    ['an array', ['t1', 't2', 't1'], ['t1', 't2']],
    ['a table with tenant_ids', { tenant_ids: ['t3'] }, ['t3']],
    ['a table with tenant_id', { tenant_id: 't4' }, ['t4']],
    ['an unusable value (fail closed)', 42, []],
    ['no claim (the header applies)', undefined, undefined],
  ])('read tenants from %s', (_what, value, expected) => {
    const claims = value === undefined ? {} : { vault: value }
    expect(tenantsFromClaims(config({ namespaceTopClaim: 'vault' }), claims as JWTPayload)).toEqual(
      expected,
    )
  })

  it('read no tenants when the IdP has no namespace claim', () => {
    expect(tenantsFromClaims(config(), { vault: 't1' })).toBeUndefined()
  })
})
