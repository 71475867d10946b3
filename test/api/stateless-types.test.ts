// test/api/stateless-types.test.ts: a stateless node takes its custom types and bundles from types.toml and bundles/
import { rm } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SSN_HELPERS } from '../helpers/bundles.ts'
import { expectError } from '../helpers/collections.ts'
import { API } from '../helpers/server.ts'
import {
  APP_KEY,
  configDir,
  FILES,
  type StatelessNode,
  startStatelessNode,
} from '../helpers/stateless.ts'

const ENCRYPT = `${API}/data/collections/staff/encrypt/objects?reason=AppFunctionality`

const TYPES_FILES: Record<string, string> = {
  ...FILES,
  'collections.pvschema': `${FILES['collections.pvschema']}
staff PERSONS (
  ssn STRING_SSN,
);
`,
  'types.toml': `
[bundles.string_ssn]
description = "SSN helpers"
file = "string_ssn.js"

[types.STRING_SSN]
base_type_name = "STRING"
description = "Relaxed SSN"
validator = "string_ssn.validate"
normalizer = "string_ssn.normalize"
transformers = ["string_ssn.mask"]
`,
  'bundles/': '',
  'bundles/string_ssn.js': SSN_HELPERS,
}

describe('stateless mode with custom types from files', () => {
  let dir: string
  let node: StatelessNode
  beforeAll(async () => {
    dir = await configDir(TYPES_FILES)
    node = await startStatelessNode(dir)
  })
  afterAll(async () => {
    await node?.close()
    await rm(dir, { recursive: true, force: true })
  })

  it('serves the custom type and runs its validator and normalizer on encrypt', async () => {
    const type = await node.request('GET', `${API}/ctl/types/STRING_SSN`)
    expect(type.status).toBe(200)
    expect(await type.json()).toMatchObject({ name: 'STRING_SSN', base_type_name: 'STRING' })

    const encrypted = await node.request(
      'POST',
      ENCRYPT,
      [{ object: { fields: { ssn: '123-45-6789' } } }],
      APP_KEY,
    )
    expect(encrypted.status, await encrypted.clone().text()).toBe(200)
    const [{ ciphertext }] = (await encrypted.json()) as [{ ciphertext: string }]
    const decrypted = await node.request(
      'POST',
      `${API}/data/collections/staff/decrypt/objects?reason=AppFunctionality`,
      [{ encrypted_object: { ciphertext } }],
      APP_KEY,
    )
    expect(decrypted.status, await decrypted.clone().text()).toBe(200)
    expect(await decrypted.json()).toMatchObject([{ fields: { ssn: '123456789' } }])

    const refused = await node.request(
      'POST',
      ENCRYPT,
      [{ object: { fields: { ssn: 'not an ssn' } } }],
      APP_KEY,
    )
    await expectError(refused, 400, 'ERR3002')
  })

  it('refuses to change the types of its files', async () => {
    const res = await node.request('DELETE', `${API}/ctl/types/STRING_SSN`)
    await expectError(res, 501, 'ERR2001')
  })
})
