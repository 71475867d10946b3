// test/helpers/crypto.ts: a collection for crypto tests, stored objects written through the store, and crypto calls
import { randomUUID } from 'node:crypto'
import type { App } from '../../src/app.ts'
import { sealObjects } from '../../src/core/values/sealing.ts'
import { API, type TestResponse, type TestServer } from './server.ts'

export const PEOPLE_SCHEMA = {
  name: 'people',
  type: 'PERSONS',
  properties: [
    { name: 'name', data_type_name: 'NAME' },
    { name: 'ssn', data_type_name: 'SSN', is_nullable: true },
    { name: 'email', data_type_name: 'EMAIL', is_nullable: true, is_encrypted: false },
    { name: 'card', data_type_name: 'CC_NUMBER', is_nullable: true },
    { name: 'photo', data_type_name: 'BLOB', is_nullable: true },
    { name: 'age', data_type_name: 'INTEGER', is_nullable: true },
    { name: 'notes', data_type_name: 'JSON', is_nullable: true },
  ],
}

export const DATA = `${API}/data/collections`
export const REASON = 'reason=AppFunctionality'

export async function addCollection(server: TestServer, body: unknown = PEOPLE_SCHEMA) {
  const res = await server.request('POST', `${API}/ctl/collections`, { body })
  if (res.status !== 200) throw new Error(`add collection failed: ${await res.text()}`)
}

export type CallOptions = {
  readonly query?: string
  readonly method?: string
  readonly token?: string
  readonly headers?: Record<string, string>
  readonly noReason?: boolean
}

/** Calls a crypto operation (`encrypt/objects`, `decrypt/objects`, …) with a JSON body. */
export function cryptoCall(
  server: TestServer,
  path: string,
  body: unknown,
  options: CallOptions = {},
): Promise<TestResponse> {
  const query = [options.noReason ? undefined : REASON, options.query].filter(Boolean).join('&')
  return server.request(options.method ?? 'POST', `${DATA}/${path}?${query}`, {
    body,
    token: options.token,
    headers: options.headers,
  })
}

/** Encrypts items as Admin and returns the ciphertexts; throws with the body on failure. */
export async function encryptAll(
  server: TestServer,
  collection: string,
  items: unknown[],
  query?: string,
): Promise<string[]> {
  const res = await cryptoCall(server, `${collection}/encrypt/objects`, items, { query })
  if (res.status !== 200) throw new Error(`encrypt failed: ${res.status} ${await res.text()}`)
  return (await res.json()).map((item: { ciphertext: string }) => item.ciphertext)
}

export type StoredObjectOptions = {
  readonly id?: string
  readonly tenantId?: string
  readonly expiresAt?: number
  /** Properties stored plain (the rest are sealed). */
  readonly plain?: readonly string[]
}

/**
 * Writes an object row through the store, sealing its values as the objects capability does
 * (the objects API is not on this branch).
 */
export async function storeObject(
  app: App,
  collection: string,
  values: Record<string, unknown>,
  options: StoredObjectOptions = {},
): Promise<string> {
  const id = options.id ?? randomUUID()
  const plain = new Set(options.plain ?? ['email'])
  const sealedValues = Object.fromEntries(Object.entries(values).filter(([k]) => !plain.has(k)))
  const fields = Object.fromEntries(Object.entries(values).filter(([k]) => plain.has(k)))
  const [sealed] = sealObjects(app.services.envelope, [
    { collection, objectId: id, values: sealedValues },
  ])
  const now = app.services.clock()
  await app.store.objects.insert([
    {
      collection,
      id,
      tenantId: options.tenantId,
      ownerId: undefined,
      ownerCollection: undefined,
      createdAt: now,
      modifiedAt: now,
      expiresAt: options.expiresAt,
      version: 1,
      fields: JSON.stringify(fields),
      sealed: JSON.stringify(sealed),
      digests: '{}',
    },
  ])
  return id
}
