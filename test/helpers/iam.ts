// test/helpers/iam.ts: sets an IAM configuration and hands out users' API keys in API tests
import { API, type TestServer } from './server.ts'

/** Replaces the IAM configuration as Admin (or `token`); throws with the error body if refused. */
export async function setIam(server: TestServer, toml: string, token?: string): Promise<void> {
  const res = await server.request('POST', `${API}/ctl/iam/conf`, {
    token,
    headers: { 'content-type': 'application/toml' },
    body: toml,
  })
  if (res.status !== 200) throw new Error(`set IAM failed: ${res.status} ${await res.text()}`)
}

/** Regenerates a user's key as Admin and returns it. */
export async function apiKeyOf(server: TestServer, name: string): Promise<string> {
  const res = await server.request('POST', `${API}/ctl/iam/user/regen`, { body: { name } })
  if (res.status !== 200) throw new Error(`regen failed: ${res.status} ${await res.text()}`)
  return (await res.json()).api_key
}

/** One role per entry with the given capabilities and policies, and a user of the same name. */
export function rolesToml(
  roles: Record<string, { capabilities?: string[]; policies?: string[] }>,
): string {
  const list = (items: string[] = []) => `[${items.map((item) => JSON.stringify(item)).join(', ')}]`
  return Object.entries(roles)
    .map(
      ([name, role]) =>
        `[users.${name}]\nrole = "${name}"\n[roles.${name}]\ncapabilities = ${list(role.capabilities)}\npolicies = ${list(role.policies)}\n`,
    )
    .join('\n')
}
