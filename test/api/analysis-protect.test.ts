// test/api/analysis-protect.test.ts: protect and reveal: tokens through the tokens service, properties, policies, audit
import { afterAll, beforeAll, expect, it } from 'vitest'
import { analysisOf } from '../helpers/analysis.ts'
import { expectError } from '../helpers/collections.ts'
import { describeEngines } from '../helpers/engines.ts'
import { apiKeyOf, setIam } from '../helpers/iam.ts'
import { addCollection, ok } from '../helpers/objects.ts'
import { API, type Json, startTestServer, type TestServer } from '../helpers/server.ts'

const SUPPORT = {
  name: 'support_pii',
  type: 'PERSONS',
  properties: [
    { name: 'email', data_type_name: 'EMAIL' },
    { name: 'phone', data_type_name: 'PHONE_NUMBER' },
    { name: 'name', data_type_name: 'NAME' },
    { name: 'card', data_type_name: 'CC_NUMBER' },
    { name: 'iban_text', data_type_name: 'STRING', is_nullable: true },
    { name: 'ssn', data_type_name: 'SSN', is_nullable: true },
  ],
}

const TICKET =
  'Hi, my name is Laura Whitfield. Call me on +44 20 7946 0958 or mail laura.whitfield@gmail.com; refund IBAN GB82 WEST 1234 5698 7654 32.'
const FOLLOW_UP =
  'Laura again (laura.whitfield@gmail.com): card 4111 1111 1111 1111 was charged twice.'

const policy = (name: string, type: string, operations: string[], resources: string[]) =>
  `[policies.${name}]\npolicy_type = "${type}"\noperations = ${JSON.stringify(operations)}\nreasons = ["*"]\nresources = ${JSON.stringify(resources)}\n`

const role = (name: string, capabilities: string[], policies: string[]) =>
  `[users.${name}]\nrole = "${name}"\n[roles.${name}]\ncapabilities = ${JSON.stringify(capabilities)}\npolicies = ${JSON.stringify(policies)}\n`

const IAM = [
  role('Writer', ['CapAnalysisLocate', 'CapTokensWriter', 'CapTokensReader'], ['All']),
  role('NoEmailTokenize', ['CapAnalysisLocate', 'CapTokensWriter'], ['All', 'DenyEmailTokenize']),
  role('LocateOnly', ['CapAnalysisLocate'], ['All']),
  role('Agent', ['CapTokensDetokenizer'], ['MaskedEmail']),
  role('Auditor', ['CapTokensDetokenizer'], ['All']),
  policy('All', 'allow', ['*'], ['*']),
  policy('DenyEmailTokenize', 'deny', ['tokenize'], ['support_pii/properties/email']),
  policy('MaskedEmail', 'allow', ['detokenize', 'read'], ['support_pii/properties/email.mask']),
].join('\n')

type Replacement = {
  type: string
  property: string
  token_id: string
  begin_offset: number
  end_offset: number
}

describeEngines('analysis: protect and reveal', (engine) => {
  let server: TestServer
  type User = 'Admin' | 'Writer' | 'NoEmailTokenize' | 'LocateOnly' | 'Agent' | 'Auditor'
  const api = {} as Record<User, ReturnType<typeof analysisOf>>
  beforeAll(async () => {
    server = await startTestServer({ engine })
    await addCollection(server, SUPPORT)
    await setIam(server, IAM)
    api.Admin = analysisOf(server)
    for (const name of ['Writer', 'NoEmailTokenize', 'LocateOnly', 'Agent', 'Auditor'] as const)
      api[name] = analysisOf(server, await apiKeyOf(server, name))
  })
  afterAll(() => server.close())

  const tokenCount = async () =>
    (
      await ok(
        server.request(
          'GET',
          `${API}/data/collections/support_pii/count/tokens?reason=AppFunctionality`,
        ),
      )
    ).total
  const detokenize = async (tokenId: string) =>
    (
      await ok(
        server.request(
          'GET',
          `${API}/data/collections/support_pii/tokens?reason=AppFunctionality&token_ids=${tokenId}`,
        ),
      )
    )[0].fields

  it('replaces each entity with a marker of a token made in the collection; equal values share a token', async () => {
    const body = await ok(
      api.Writer.protect('support_pii', {
        text: [TICKET, FOLLOW_UP],
        props: { INTERNATIONAL_BANK_ACCOUNT_NUMBER: 'iban_text' },
      }),
    )
    const [ticket, followUp] = body as Json[]
    expect(ticket.text).toMatch(
      /^Hi, my name is \[\[NAME:[0-9a-f-]{36}\]\]\. Call me on \[\[PHONE:[0-9a-f-]{36}\]\] or mail \[\[EMAIL:[0-9a-f-]{36}\]\]; refund IBAN \[\[INTERNATIONAL_BANK_ACCOUNT_NUMBER:[0-9a-f-]{36}\]\]\.$/,
    )
    const byType = (r: Replacement[]): Json => Object.fromEntries(r.map((x) => [x.type, x]))
    const first = byType(ticket.replacements)
    const second = byType(followUp.replacements)
    expect(Object.keys(first).sort()).toEqual([
      'EMAIL',
      'INTERNATIONAL_BANK_ACCOUNT_NUMBER',
      'NAME',
      'PHONE',
    ])
    expect(first.EMAIL).toMatchObject({ property: 'email' })
    expect(TICKET.slice(first.EMAIL.begin_offset, first.EMAIL.end_offset)).toBe(
      'laura.whitfield@gmail.com',
    )
    expect(second.EMAIL.token_id).toBe(first.EMAIL.token_id)
    expect(second.CREDIT_DEBIT_NUMBER).toMatchObject({ property: 'card' })
    expect(ticket.skipped).toEqual([])
    // The tokens hold the values in their properties' normal form.
    expect(await detokenize(first.PHONE.token_id)).toEqual({ phone: '+442079460958' })
    expect(await detokenize(second.CREDIT_DEBIT_NUMBER.token_id)).toEqual({
      card: '4111111111111111',
    })
    expect(await detokenize(first.INTERNATIONAL_BANK_ACCOUNT_NUMBER.token_id)).toEqual({
      iban_text: 'GB82WEST12345698765432',
    })
  })

  it('skips and reports an entity type without a property, and a value its property refuses', async () => {
    const [noProperty] = await ok(
      api.Writer.protect('support_pii', { text: ['IBAN GB82 WEST 1234 5698 7654 32'] }),
    )
    expect(noProperty.text).toBe('IBAN GB82 WEST 1234 5698 7654 32')
    expect(noProperty.skipped).toEqual([
      {
        type: 'INTERNATIONAL_BANK_ACCOUNT_NUMBER',
        begin_offset: 5,
        end_offset: 32,
        reason: 'no_property',
      },
    ])
    const [refused] = await ok(
      api.Writer.protect('support_pii', {
        text: ['Call +44 20 7946 0958'],
        props: { PHONE_NUMBER: 'ssn' },
      }),
    )
    expect(refused).toEqual({
      text: 'Call +44 20 7946 0958',
      replacements: [],
      skipped: [{ type: 'PHONE', begin_offset: 5, end_offset: 21, reason: 'invalid_value' }],
    })
  })

  it('replaces only the requested types (Presidio names accepted) and makes pci tokens on request', async () => {
    const [only] = await ok(
      api.Writer.protect(
        'support_pii',
        { text: [TICKET], types: ['EMAIL_ADDRESS'] },
        '&token_type=pci',
      ),
    )
    expect(only.replacements.map((r: Replacement) => r.type)).toEqual(['EMAIL'])
    expect(only.text).toContain('Laura Whitfield')
    expect(only.text).not.toContain('laura.whitfield@gmail.com')
    const [again] = await ok(
      api.Writer.protect('support_pii', { text: [FOLLOW_UP], types: ['EMAIL'] }, '&token_type=pci'),
    )
    expect(again.replacements[0].token_id).toBe(only.replacements[0].token_id)
  })

  it('refuses bad options: unknown entity type, property, collection, token type (nothing tokenized)', async () => {
    const before = await tokenCount()
    const writer = api.Writer
    const unknownType = await expectError(
      await writer.protect('support_pii', { text: [TICKET], types: ['SHOE_SIZE'] }),
      400,
      'ERR1012',
    )
    expect(unknownType.context).toMatchObject({ field: 'types' })
    await expectError(
      await writer.protect('support_pii', { text: [TICKET], props: { SHOE_SIZE: 'email' } }),
      400,
      'ERR1012',
    )
    const noProperty = await expectError(
      await writer.protect('support_pii', { text: [TICKET], props: { EMAIL: 'mail' } }),
      404,
      'ERR3004',
    )
    expect(noProperty.context).toMatchObject({ property: 'mail' })
    await expectError(await writer.protect('nowhere', { text: [TICKET] }), 404, 'ERR1004')
    // The request's shape is checked before the collection is looked up (errors.md precedence).
    await expectError(
      await writer.protect('nowhere', { text: [TICKET], language: 'pt' }),
      400,
      'ERR1012',
    )
    await expectError(
      await writer.protect('support_pii', { text: [TICKET] }, '&token_type=randomized'),
      400,
      'ERR1012',
    )
    await expectError(await writer.protect('support_pii', { text: [TICKET, 3] }), 400, 'ERR1012')
    const noCollection = await server.request(
      'POST',
      `${API}/data/analysis/protect?reason=AppFunctionality`,
      {
        body: { text: [TICKET] },
      },
    )
    await expectError(noCollection, 400, 'ERR1012')
    expect(await tokenCount()).toBe(before)
  })

  it('answers 403 ERR1006 when a policy refuses one property, and tokenizes nothing', async () => {
    const before = await tokenCount()
    const res = await api.NoEmailTokenize.protect('support_pii', { text: [TICKET] })
    await expectError(res, 403, 'ERR1006')
    expect(await tokenCount()).toBe(before)
  })

  it('needs CapAnalysisLocate and CapTokensWriter (403 ERR1007)', async () => {
    await expectError(
      await api.LocateOnly.protect('support_pii', { text: [TICKET] }),
      403,
      'ERR1007',
    )
    await expectError(await api.Agent.protect('support_pii', { text: [TICKET] }), 403, 'ERR1007')
  })

  it('reveals values to a caller who may see them, and masked e-mails only to the masked-only agent', async () => {
    const [stored] = await ok(api.Writer.protect('support_pii', { text: [TICKET] }))
    const [full] = await ok(api.Auditor.reveal('support_pii', { text: [stored.text] }))
    expect(full).toEqual({
      text: 'Hi, my name is Laura Whitfield. Call me on +442079460958 or mail laura.whitfield@gmail.com; refund IBAN GB82 WEST 1234 5698 7654 32.',
      revealed: 3,
      withheld: 0,
    })
    const [masked] = await ok(
      api.Agent.reveal('support_pii', {
        text: [stored.text],
        transformations: { EMAIL_ADDRESS: 'email.mask' },
      }),
    )
    expect(masked.revealed).toBe(1)
    expect(masked.withheld).toBe(2)
    expect(masked.text).toMatch(/mail l\*+@gmail\.com;/)
    expect(masked.text).toMatch(/\[\[NAME:[0-9a-f-]{36}\]\]/)
    const [bareTransformer] = await ok(
      api.Agent.reveal('support_pii', { text: [stored.text], transformations: { EMAIL: 'mask' } }),
    )
    expect(bareTransformer.text).toBe(masked.text)
    const [nothing] = await ok(api.Agent.reveal('support_pii', { text: [stored.text] }))
    expect(nothing).toEqual({ text: stored.text, revealed: 0, withheld: 3 })
  })

  it('keeps unknown tokens and text that only looks like a marker as they are', async () => {
    const text =
      'See [[EMAIL:00000000-0000-4000-8000-000000000000]] and [[NOTE:abc]] and [[EMAIL:]].'
    expect(await ok(api.Auditor.reveal('support_pii', { text: [text, ''] }))).toEqual([
      { text, revealed: 0, withheld: 1 },
      { text: '', revealed: 0, withheld: 0 },
    ])
  })

  it('refuses reveal for an unknown collection (404), transformation type (400) or without CapTokensDetokenizer (403)', async () => {
    await expectError(await api.Auditor.reveal('nowhere', { text: ['x'] }), 404, 'ERR1004')
    await expectError(
      await api.Auditor.reveal('support_pii', {
        text: ['x'],
        transformations: { SHOE: 'mask' },
      }),
      400,
      'ERR1012',
    )
    await expectError(await api.Writer.reveal('support_pii', { text: ['x'] }), 403, 'ERR1007')
    await expectError(await api.Auditor.reveal('support_pii', { text: [1] }), 400, 'ERR1012')
  })

  it('audits protect and reveal with the collection and properties, never the values', async () => {
    const [stored] = await ok(
      api.Writer.protect('support_pii', { text: [TICKET] }, '&custom_audit=protect-1'),
    )
    await ok(api.Auditor.reveal('support_pii', { text: [stored.text] }))
    const rows = await server.app.store.audit.list({ limit: 1000 })
    const records = rows.map((row) => JSON.parse(row.record))
    const protectEvent = records.find((r) => r.custom_audit === 'protect-1')
    expect(protectEvent).toMatchObject({
      operation: 'analysis_protect',
      collection: 'support_pii',
      status: 200,
    })
    expect([...protectEvent.properties].sort()).toEqual(['email', 'name', 'phone'])
    const revealEvent = records.filter((r) => r.operation === 'analysis_reveal').at(-1)
    expect(revealEvent).toMatchObject({ collection: 'support_pii', status: 200 })
    // Without the random ids and hashes, which may hold any run of hex digits ("7946").
    const RANDOM = new Set(['event_id', 'request_id', 'node', 'hash', 'prev_hash'])
    const named = JSON.stringify(records, (key, value) => (RANDOM.has(key) ? undefined : value))
    expect(named).not.toMatch(/whitfield|7946/i)
  })
})
