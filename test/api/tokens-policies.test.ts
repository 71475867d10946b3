// test/api/tokens-policies.test.ts: tokenize, detokenize and read policies and tenant rules on the token routes
import { afterAll, beforeAll, expect, it } from 'vitest'
import { expectError } from '../helpers/collections.ts'
import { describeEngines } from '../helpers/engines.ts'
import { apiKeyOf, setIam } from '../helpers/iam.ts'
import { addCollection, ok } from '../helpers/objects.ts'
import { startTestServer, type TestServer } from '../helpers/server.ts'
import { CARDS, tokensOf } from '../helpers/tokens.ts'

const policy = (name: string, type: string, operations: string[], resources: string[]) =>
  `[policies.${name}]\npolicy_type = "${type}"\noperations = ${JSON.stringify(operations)}\nreasons = ["*"]\nresources = ${JSON.stringify(resources)}\n`

const PEOPLE = {
  name: 'people',
  type: 'PERSONS',
  properties: [{ name: 'ssn', data_type_name: 'SSN' }],
}

const TOKENS = ['CapTokensWriter', 'CapTokensDetokenizer', 'CapTokensReader']

const CONFIG = `
[users.Full]
role = "Full"
[users.NoTokenize]
role = "NoTokenize"
[users.NoDetokenize]
role = "NoDetokenize"
[users.NoRead]
role = "NoRead"
[users.Masked]
role = "Masked"
[roles.Masked]
capabilities = ${JSON.stringify(TOKENS)}
policies = ["MaskOnly"]
${policy('MaskOnly', 'allow', ['detokenize', 'read'], ['people/properties/ssn.mask'])}
[roles.Full]
capabilities = ${JSON.stringify(TOKENS)}
policies = ["All"]
[roles.NoTokenize]
capabilities = ${JSON.stringify(TOKENS)}
policies = ["All", "DenyTokenizeCard"]
[roles.NoDetokenize]
capabilities = ${JSON.stringify(TOKENS)}
policies = ["All", "DenyDetokenizeCard"]
[roles.NoRead]
capabilities = ${JSON.stringify(TOKENS)}
policies = ["TokenizeAll", "DetokenizeAll"]
${policy('All', 'allow', ['*'], ['*'])}
${policy('TokenizeAll', 'allow', ['tokenize'], ['*'])}
${policy('DetokenizeAll', 'allow', ['detokenize'], ['*'])}
${policy('DenyTokenizeCard', 'deny', ['tokenize'], ['cards/properties/card'])}
${policy('DenyDetokenizeCard', 'deny', ['detokenize'], ['cards/properties/card'])}
`

describeEngines('tokens policies', (engine) => {
  let server: TestServer
  const keys: Record<string, string> = {}
  beforeAll(async () => {
    server = await startTestServer({ engine })
    await addCollection(server, CARDS)
    await setIam(server, CONFIG)
    await addCollection(server, PEOPLE)
    for (const name of ['Full', 'NoTokenize', 'NoDetokenize', 'NoRead', 'Masked'])
      keys[name] = await apiKeyOf(server, name)
  })
  afterAll(() => server.close())

  const as = (user: string) => {
    const headers = { authorization: `Bearer ${keys[user]}` }
    const api = tokensOf(server, 'cards')
    return {
      tokenize: (body: unknown, tenant?: string) =>
        server.request(
          'POST',
          `/api/pvlt/1.0/data/collections/cards/tokens?reason=AppFunctionality`,
          {
            body,
            token: keys[user],
            headers: tenant ? { 'x-tenant-id': tenant } : undefined,
          },
        ),
      detokenize: (query: string, tenant?: string) =>
        server.request(
          'GET',
          `/api/pvlt/1.0/data/collections/cards/tokens?reason=AppFunctionality&${query}`,
          {
            token: keys[user],
            headers: tenant ? { 'x-tenant-id': tenant } : undefined,
          },
        ),
      api,
      headers,
    }
  }
  const card = { type: 'randomized', object: { fields: { card: '4111111111111111', name: 'Ann' } } }
  const name = { type: 'randomized', object: { fields: { name: 'Bob' } } }

  it('answers 403 ERR1006 to a role without tokenize on a property', async () => {
    await expectError(await as('NoTokenize').tokenize([card]), 403, 'ERR1006')
    expect((await as('NoTokenize').tokenize([name])).status).toBe(200)
  })

  it('answers 403 ERR1006 to a role without detokenize or read on a returned property', async () => {
    const [token] = await ok(as('Full').tokenize([card]))
    const query = `token_ids=${token.token_id}`
    expect((await as('Full').detokenize(query)).status).toBe(200)
    await expectError(await as('NoDetokenize').detokenize(query), 403, 'ERR1006')
    expect(await ok(as('NoDetokenize').detokenize(`${query}&props=name`))).toEqual([
      { token_id: token.token_id, fields: { name: 'Ann' } },
    ])
    await expectError(await as('NoRead').detokenize(query), 403, 'ERR1006')
  })

  it('answers 403 ERR1006 to detokenize by token_ids outside the tenant of the request', async () => {
    const [token] = await ok(as('Full').tokenize([name], 't1'))
    const query = `token_ids=${token.token_id}`
    expect(await ok(as('Full').detokenize(query, 't1'))).toEqual([
      { token_id: token.token_id, fields: { name: 'Bob' } },
    ])
    await expectError(await as('Full').detokenize(query, 't2'), 403, 'ERR1006')
  })

  it('applies built-in transformers in props, checking policies on the transformation binding', async () => {
    const people = tokensOf(server, 'people')
    const [token] = await ok(
      people.tokenize([{ type: 'randomized', object: { fields: { ssn: '123-45-6789' } } }]),
    )
    const path = `/api/pvlt/1.0/data/collections/people/tokens?reason=AppFunctionality&token_ids=${token.token_id}`
    const masked = { token_id: token.token_id, fields: { 'ssn.mask': '***-**-6789' } }
    expect(await ok(server.request('GET', `${path}&props=ssn.mask`))).toEqual([masked])
    expect(
      await ok(server.request('GET', `${path}&props=ssn.mask`, { token: keys.Masked })),
    ).toEqual([masked])
    await expectError(
      await server.request('GET', `${path}&props=ssn`, { token: keys.Masked }),
      403,
      'ERR1006',
    )
    await expectError(await server.request('GET', `${path}&props=ssn.nope`), 404, 'ERR3004')
  })
})
