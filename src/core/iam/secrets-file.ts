// src/core/iam/secrets-file.ts: secrets.toml of stateless nodes: users' API key hashes (spec config.md §5, §8; [kms] is config.ts's)
import { parse, TomlError } from 'smol-toml'
import type { IamRepo } from './store.ts'

export type KeyHash = Readonly<{ username: string; keyHash: Uint8Array }>

/** What a secrets file holds, or every problem found in it (each with line and column when TOML says). */
export type SecretsFile = Readonly<{ keys: readonly KeyHash[]; problems: readonly string[] }>

const HEX_SHA256 = /^[0-9a-f]{64}$/i

function parseToml(text: string): { value?: Record<string, unknown>; problem?: string } {
  try {
    return { value: parse(text) }
  } catch (error) {
    if (!(error instanceof TomlError)) throw error
    const what = error.message.split('\n')[0]?.replace(/^Invalid TOML document: /, '') ?? ''
    return { problem: `line ${error.line}, column ${error.column}: not valid TOML: ${what}.` }
  }
}

const isTable = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * `[users.<name>] api_key_sha256 = "<hex>"`: the SHA-256 of each user's API key (what
 * `printf %s "$KEY" | sha256sum` prints), so the file never holds a key itself.
 */
export function parseSecretsFile(text: string): SecretsFile {
  const { value, problem } = parseToml(text)
  if (value === undefined) return { keys: [], problems: [problem ?? 'not valid TOML.'] }
  const problems: string[] = []
  for (const section of Object.keys(value)) {
    // [kms] is configuration (config.ts reads it as SVC_KMS_*), checked there.
    if (section !== 'users' && section !== 'kms')
      problems.push(`unknown section [${section}]: expected [users.<name>].`)
  }
  const users = value.users ?? {}
  if (!isTable(users)) return { keys: [], problems: [...problems, '`users` must be a table.'] }
  const keys: KeyHash[] = []
  for (const [username, user] of Object.entries(users)) {
    const hash = isTable(user) ? user.api_key_sha256 : undefined
    const extra = isTable(user) ? Object.keys(user).filter((k) => k !== 'api_key_sha256') : []
    if (typeof hash !== 'string' || !HEX_SHA256.test(hash)) {
      problems.push(
        `[users.${username}]: api_key_sha256 must be the SHA-256 of the user's API key, 64 hexadecimal characters.`,
      )
    } else keys.push({ username, keyHash: new Uint8Array(Buffer.from(hash, 'hex')) })
    if (extra.length > 0)
      problems.push(`[users.${username}]: unknown key ${extra[0]}: expected only api_key_sha256.`)
  }
  return { keys, problems }
}

/** Stores the keys of users the IAM configuration has; the problems name the others. */
export async function installKeyHashes(
  repo: IamRepo,
  keys: readonly KeyHash[],
  isUser: (username: string) => boolean,
  now: number,
): Promise<string[]> {
  const problems: string[] = []
  for (const { username, keyHash } of keys) {
    if (!isUser(username)) {
      problems.push(`[users.${username}]: the IAM configuration has no user ${username}.`)
      continue
    }
    await repo.setApiKey({ username, keyHash, expiresAt: undefined, createdAt: now })
  }
  return problems
}
