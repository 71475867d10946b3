// test/helpers/stateless.ts: stateless nodes (SVC_BACKING_STORE=none) started from a configuration directory
import { createHash } from 'node:crypto'
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type App, createApp } from '../../src/app.ts'
import { ADMIN_KEY, fetchJson, type TestResponse, testConfig } from './server.ts'

export type StatelessNode = {
  readonly app: App
  readonly base: string
  request(method: string, path: string, body?: unknown, key?: string): Promise<TestResponse>
  close(): Promise<void>
}

/** Writes `files` (name → text) into a new configuration directory and answers its path. */
export async function configDir(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'strongroom-stateless-'))
  for (const [name, text] of Object.entries(files)) {
    const path = join(dir, name)
    if (name.endsWith('/')) await mkdir(path, { recursive: true })
    else await writeFile(path, text)
  }
  return dir
}

export const sha256Hex = (key: string) => createHash('sha256').update(key).digest('hex')

/** The API key of user App, whose SHA-256 is in the secrets file of FILES. */
export const APP_KEY = 'app-key-from-the-secrets-file'

/** Two collections, a user with encrypt/decrypt/hash rights, and that user's key hash. */
export const FILES: Record<string, string> = {
  'collections.pvschema': `
people PERSONS (
  name NAME,
  email EMAIL NULL UNIQUE,
  photo BLOB NULL,
);
notes DATA (
  text STRING,
);
`,
  'iam.toml': `
[users.App]
role = "App"
[roles.App]
capabilities = ["CapCryptoEncrypter", "CapCryptoDecrypter", "CapCryptoHasher", "CapIAMReader"]
policies = ["AllowAll"]
[policies.AllowAll]
policy_type = "allow"
operations = ["*"]
reasons = ["*"]
resources = ["*"]
`,
  'secrets.toml': `
[users.App]
api_key_sha256 = "${sha256Hex(APP_KEY)}"
`,
}

/** The configuration of a stateless node reading `dir`; audit records go to a file in it. */
export function statelessConfig(dir: string, env: Record<string, string> = {}) {
  return testConfig({
    SVC_BACKING_STORE: 'none',
    SVC_CONFIG_DIR: dir,
    SVC_LOG_AUDIT_SINK: 'file',
    SVC_LOG_AUDIT_FILE: join(dir, 'audit.log'),
    ...env,
  })
}

export async function startStatelessNode(
  dir: string,
  env: Record<string, string> = {},
): Promise<StatelessNode> {
  const app = await createApp(statelessConfig(dir, env), { isLogSilent: true })
  const base = await app.listen()
  return {
    app,
    base,
    request(method, path, body, key = ADMIN_KEY) {
      const headers: Record<string, string> = { authorization: `Bearer ${key}` }
      let payload: RequestInit['body']
      if (body instanceof Uint8Array) payload = body as RequestInit['body']
      else if (body !== undefined) {
        headers['content-type'] = 'application/json'
        payload = JSON.stringify(body)
      }
      return fetchJson(`${base}${path}`, { method, headers, body: payload })
    },
    close: () => app.close(),
  }
}
