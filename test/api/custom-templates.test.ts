// test/api/custom-templates.test.ts: custom token ID templates `fptemplate: "<bundle>.<function>"` (tokens.md §5)
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addBundle, ok } from '../helpers/bundles.ts'
import { expectError } from '../helpers/collections.ts'
import { describeEngines } from '../helpers/engines.ts'
import { addCollection } from '../helpers/objects.ts'
import { startTestServer, type TestServer } from '../helpers/server.ts'
import { tokensOf } from '../helpers/tokens.ts'

const TEMPLATES = `
exports.ticket = {
  type: 'fptemplate',
  handler: (context, object, seed) => 'T-' + object.ssn.slice(-4) + '-' + seed.slice(0, 12),
}
exports.constant = { type: 'fptemplate', handler: () => 'ALWAYS_THE_SAME' }
exports.spaces = { type: 'fptemplate', handler: () => 'has spaces' }
exports.number = { type: 'fptemplate', handler: () => 42 }
exports.empty = { type: 'fptemplate', handler: () => '' }
exports.long = { type: 'fptemplate', handler: () => 'x'.repeat(129) }
exports.throws = { type: 'fptemplate', handler: () => { throw new Error('no') } }
exports.spin = { type: 'fptemplate', handler: () => { for (;;) {} } }
exports.whoami = {
  type: 'fptemplate',
  handler: (context, object, seed) => [context.user, context.collection, seed.length].join('_'),
}
exports.mask = { type: 'transformer', handler: (c, o, v) => v }
`

describeEngines('custom token ID templates', (engine) => {
  let server: TestServer
  let tokens: ReturnType<typeof tokensOf>
  beforeAll(async () => {
    server = await startTestServer({ engine })
    await addBundle(server, 'ids', TEMPLATES)
    await addCollection(server, {
      name: 'people',
      type: 'PERSONS',
      properties: [{ name: 'ssn', data_type_name: 'SSN' }],
    })
    tokens = tokensOf(server, 'people')
  })
  afterAll(() => server.close())

  const item = (fptemplate: string, ssn = '123-45-6789', type = 'randomized') => ({
    type,
    object: { fields: { ssn } },
    fptemplate,
  })

  it('generates IDs through the function, with the tokenized values and a random seed', async () => {
    const made = await ok(tokens.tokenize([item('ids.ticket'), item('ids.ticket', '111-22-3333')]))
    expect(made[0].token_id).toMatch(/^T-6789-[0-9a-f]{12}$/)
    expect(made[1].token_id).toMatch(/^T-3333-[0-9a-f]{12}$/)
    const [found] = await ok(tokens.detokenize(`token_ids=${made[0].token_id}`))
    expect(found.fields).toEqual({ ssn: '123-45-6789' })
  })

  it('passes the context and a 32-character hex seed', async () => {
    const [made] = await ok(tokens.tokenize([item('ids.whoami')]))
    expect(made.token_id).toBe('Admin_people_32')
  })

  it('derives deterministic IDs from a keyed seed: same values, same ID', async () => {
    const first = await ok(tokens.tokenize([item('ids.ticket', '222-33-4444', 'deterministic')]))
    const again = await ok(tokens.tokenize([item('ids.ticket', '222-33-4444', 'deterministic')]))
    expect(again[0].token_id).toBe(first[0].token_id)
    expect(first[0].token_id).toMatch(/^T-4444-[0-9a-f]{12}$/)
  })

  it('retries a collision a bounded number of times, then answers 409 with nothing written', async () => {
    await ok(tokens.tokenize([item('ids.constant')]))
    const before = await ok(tokens.count())
    const body = await expectError(await tokens.tokenize([item('ids.constant')]), 409, 'ERR9001')
    expect(body.message).toMatch(/ids\.constant .*5 attempts/)
    expect(await ok(tokens.count())).toEqual(before)
  })

  it('refuses IDs that break the token_id rules, naming bundle and function', async () => {
    for (const fn of ['spaces', 'number', 'empty', 'long']) {
      const body = await expectError(await tokens.tokenize([item(`ids.${fn}`)]), 400, 'ERR1012')
      expect(body.message).toContain(`ids.${fn}`)
      expect(body.context).toEqual({ field: '[0].fptemplate', bundle: 'ids', function: fn })
    }
  })

  it('fails cleanly when the function throws (400) or never returns (503)', async () => {
    await expectError(await tokens.tokenize([item('ids.throws')]), 400, 'ERR9008')
    await expectError(await tokens.tokenize([item('ids.spin')]), 503, 'ERR1009')
  })

  it('refuses an unknown function (404), another function type (400), a bad name (400)', async () => {
    await expectError(await tokens.tokenize([item('ids.nope')]), 404, 'ERR1004')
    await expectError(await tokens.tokenize([item('nope.ticket')]), 404, 'ERR1004')
    const wrong = await expectError(await tokens.tokenize([item('ids.mask')]), 400, 'ERR1012')
    expect(wrong.message).toMatch(/transformer, not an fptemplate/)
    await expectError(await tokens.tokenize([item('ids.a.b')]), 400, 'ERR1012')
    const given = { ...item('ids.ticket'), token_id: 'mine' }
    await expectError(await tokens.tokenize([given]), 400, 'ERR1012')
  })

  it('rotates through the template too', async () => {
    const [made] = await ok(tokens.tokenize([item('ids.ticket', '333-44-5555')]))
    const rotated = await ok(tokens.rotate(`token_ids=${made.token_id}`))
    const next = rotated[made.token_id]
    expect(next).toMatch(/^T-5555-[0-9a-f]{12}$/)
    expect(next).not.toBe(made.token_id)
  })
})

describe('custom token ID templates with JavaScript disabled', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ env: { SVC_FEATURES_DISABLE_JAVASCRIPT: 'true' } })
    await addCollection(server, {
      name: 'people',
      type: 'PERSONS',
      properties: [{ name: 'ssn', data_type_name: 'SSN' }],
    })
  })
  afterAll(() => server.close())

  it('refuses a custom template with 405 ERR1003', async () => {
    const res = await tokensOf(server, 'people').tokenize([
      { type: 'randomized', object: { fields: { ssn: '123-45-6789' } }, fptemplate: 'ids.ticket' },
    ])
    await expectError(res, 405, 'ERR1003')
  })
})
