// src/contract/iam.ts: wire shapes of the IAM operations and of the IAM configuration file (TOML)
import type { Static } from 'typebox'
import { Type } from './schema.ts'

const Names = Type.Array(Type.String())
const NonEmptyNames = Type.Array(Type.String(), { minItems: 1 })

/** `[users.<name>]` of the IAM file. @example role = "ExternalApplication" */
export const IamUserEntry = Type.Object({
  role: Type.String(),
  disabled: Type.Optional(Type.Boolean()),
})

/** `[roles.<name>]`. @example capabilities = ["CapDataWriter"], policies = ["*"] */
export const IamRoleEntry = Type.Object({
  capabilities: Type.Optional(Names),
  policies: Type.Optional(Names),
  trusted_roles: Type.Optional(Names),
})

/** `[policies.<name>]`. @example policy_type = "allow", operations = ["read"], … */
export const IamPolicyEntry = Type.Object({
  policy_type: Type.Union([Type.Literal('allow'), Type.Literal('deny')]),
  operations: NonEmptyNames,
  reasons: NonEmptyNames,
  resources: NonEmptyNames,
})

/** `[idps.<name>.conf]`: where JWTs come from and how they are checked. */
export const IamIdpConf = Type.Object({
  iss: Type.String({ minLength: 1 }),
  aud: Type.Union([Type.String({ minLength: 1 }), NonEmptyNames]),
  jwks_uri: Type.Optional(Type.String({ minLength: 1 })),
  /** A JWKS: JSON text, a `{ keys = [...] }` table, or an array of JWKs. */
  keys: Type.Optional(Type.Unknown()),
  roles_claim: Type.Optional(Type.String({ minLength: 1 })),
  bound_claims: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  /** Claims that must be present: comma-separated text or a list. */
  extra_claims: Type.Optional(Type.Union([Type.String(), Names])),
  namespace_top_claim: Type.Optional(Type.String({ minLength: 1 })),
})

/** `[idps.<name>]`: a JWT identity provider. */
export const IamIdpEntry = Type.Object({
  type: Type.Literal('direct-jwt'),
  disabled: Type.Optional(Type.Boolean()),
  allowed_roles: Type.Optional(Names),
  roles_map: Type.Optional(Type.Record(Type.String(), Type.String())),
  conf: IamIdpConf,
})

/** The IAM configuration file (spec iam.md §1); unknown keys are kept and ignored. */
export const IamConfigFile = Type.Object({
  users: Type.Record(Type.String(), IamUserEntry),
  roles: Type.Record(Type.String(), IamRoleEntry),
  policies: Type.Record(Type.String(), IamPolicyEntry),
  idps: Type.Optional(Type.Record(Type.String(), IamIdpEntry)),
})
export type IamConfigFile = Static<typeof IamConfigFile>

/**
 * The set-IAM body: TOML text (`application/toml`), or the same text as a JSON string (what the
 * generated client sends when told to use JSON).
 */
export const IamConfigText = Type.String()

/** @example { "name": "Webapp" } */
export const UserNameBody = Type.Object({ name: Type.String({ minLength: 1 }) })
export type UserNameBody = Static<typeof UserNameBody>

/** @example { "name": "Webapp", "expiration_secs": 86400 } */
export const UserNameExpiryBody = Type.Object({
  name: Type.String({ minLength: 1 }),
  // At most 100 years, so the expiry stays a valid RFC 3339 time.
  expiration_secs: Type.Integer({ minimum: 0, maximum: 3_153_600_000 }),
})
export type UserNameExpiryBody = Static<typeof UserNameExpiryBody>

/** A new key: shown once, never stored in clear. @example { "api_key": "…", "api_key_expiry": "2026-01-01T00:00:00Z" } */
export const ApiKeyResponse = Type.Object({ api_key: Type.String(), api_key_expiry: Type.String() })
export type ApiKeyResponse = Static<typeof ApiKeyResponse>

/** @example { "name": "Webapp", "api_key_expiry": "2026-01-01T00:00:00Z" } */
export const ApiKeyExpiryResponse = Type.Object({
  name: Type.String(),
  api_key_expiry: Type.String(),
})
export type ApiKeyExpiryResponse = Static<typeof ApiKeyExpiryResponse>

/** `expiry` is empty when the user has no key or the key never expires. @example { "name": "Webapp", "api_key": { "expiry": "…" } } */
export const UserDetails = Type.Object({
  name: Type.String(),
  api_key: Type.Object({ expiry: Type.String() }),
})
export type UserDetails = Static<typeof UserDetails>

export const UserParams = Type.Object({ user: Type.String() })

/** @example { "key": "Str0ngAdminKey-2024" } */
export const AdminApiKeyBody = Type.Object({ key: Type.String() })
export type AdminApiKeyBody = Static<typeof AdminApiKeyBody>
