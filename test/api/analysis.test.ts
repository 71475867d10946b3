// test/api/analysis.test.ts: contains (and its detect alias) and locate: results, languages, limits, errors, access, audit
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ANALYSIS, analysisOf } from '../helpers/analysis.ts'
import { expectError } from '../helpers/collections.ts'
import { describeEngines } from '../helpers/engines.ts'
import { apiKeyOf, rolesToml, setIam } from '../helpers/iam.ts'
import { ok } from '../helpers/objects.ts'
import { startTestServer, type TestServer } from '../helpers/server.ts'

const TICKET =
  'Hi, my name is Laura Whitfield. Call me on +44 20 7946 0958 or mail laura.whitfield@gmail.com.'
const CLEAN = 'Order ORD-2024-118822 shipped; contact support@acme.com if it is late.'

describeEngines('analysis: contains and locate', (engine) => {
  let server: TestServer
  let api: ReturnType<typeof analysisOf>
  beforeAll(async () => {
    server = await startTestServer({ engine })
    api = analysisOf(server)
  })
  afterAll(() => server.close())

  it('answers one result per text: whether it has PII and which types, with scores', async () => {
    const body = await ok(api.contains({ text: [TICKET, CLEAN, ''] }))
    expect(body).toHaveLength(3)
    expect(body[0].pii).toBe(true)
    const types = body[0].labels.map((l: { type: string }) => l.type).sort()
    expect(types).toEqual(['EMAIL', 'NAME', 'PHONE'])
    for (const label of body[0].labels) expect(label.score).toBeGreaterThanOrEqual(0.5)
    expect(body.slice(1)).toEqual([
      { pii: false, labels: [] },
      { pii: false, labels: [] },
    ])
  })

  it('answers the same on the detect alias', async () => {
    const texts = { text: [TICKET, CLEAN] }
    expect(await ok(api.detect(texts))).toEqual(await ok(api.contains(texts)))
  })

  it('locates each entity by UTF-16 offsets into the text, also after astral characters', async () => {
    const text = `😀 mail: laura.whitfield@gmail.com, card 4111 1111 1111 1111`
    const body = await ok(api.locate({ text: [text] }))
    expect(body.detections[0].text).toBe(text)
    const spans = body.detections[0].entities.map(
      (e: { type: string; begin_offset: number; end_offset: number }) => [
        e.type,
        text.slice(e.begin_offset, e.end_offset),
      ],
    )
    expect(spans).toEqual([
      ['EMAIL', 'laura.whitfield@gmail.com'],
      ['CREDIT_DEBIT_NUMBER', '4111 1111 1111 1111'],
    ])
  })

  it('leaves look-alikes alone: role mailboxes, private IPs, failing check digits, masked values, ids, timestamps', async () => {
    const text = [
      'Write to info@example.com or noreply@shop.de.',
      'The service listens on 10.0.3.7:8080 and 127.0.0.1, netmask 255.255.255.0, version 1.2.3.4.',
      'Card 4111 1111 1111 1112 was refused; the saved one is **** **** **** 4242.',
      'IBAN DE89 3704 0044 0532 0130 01 fails its check; SSN 000-12-3456 was never issued.',
      'Request 3f0c2b1e-7d4a-4c1b-9f2e-8a6b5c4d3e2f failed at 2024-05-01T10:22:31Z, commit 9fceb02d0ae598e95dc970b74767f19372d61af8.',
      'The Chancellor Olaf Scholz visited Berlin; Acme Logistics GmbH opened an office in Madrid.',
    ]
    const body = await ok(api.contains({ text }))
    expect(body.map((r: { pii: boolean }) => r.pii)).toEqual(text.map(() => false))
  })

  it('finds the national identifiers of each language and the passport in context', async () => {
    const text = [
      'Mi DNI es 12345678Z y mi NIE X1234567L.',
      'Meine Steuer-ID lautet 65929970489.',
      'Mon numéro de sécurité sociale est le 1 85 05 78 006 084 91.',
      'NI number QQ123456C is an example, mine is AB123456C. NHS number 943 476 5919.',
      'Passport number 533380006.',
    ]
    const body = await ok(api.contains({ text }))
    const types = body.map((r: { labels: { type: string }[] }) =>
      r.labels.map((l) => l.type).sort(),
    )
    expect(types).toEqual([
      ['ES_NIF'],
      ['DE_TAX_ID'],
      ['FR_NIR'],
      ['UK_NATIONAL_HEALTH_SERVICE_NUMBER', 'UK_NATIONAL_INSURANCE_NUMBER'],
      ['PASSPORT_NUMBER'],
    ])
  })

  it('takes the language from the request (any case, with a region) and reads dates and phones by it', async () => {
    const es = await ok(
      api.contains({
        language: 'ES-es',
        text: ['Fecha de nacimiento: 03/04/1985, móvil 612 34 56 78'],
      }),
    )
    expect(es[0].labels.map((l: { type: string }) => l.type).sort()).toEqual([
      'DATE_OF_BIRTH',
      'PHONE',
    ])
    const de = await ok(
      api.contains({ language: 'de', text: ['Geboren am 3. März 1985 in Köln.'] }),
    )
    expect(de[0].labels.map((l: { type: string }) => l.type)).toEqual(['DATE_OF_BIRTH'])
  })

  it('refuses an unknown language with 400 ERR1012 naming the supported ones', async () => {
    const body = await expectError(
      await api.contains({ language: 'pt', text: ['x'] }),
      400,
      'ERR1012',
    )
    expect(body.context).toMatchObject({ field: 'language', supported: 'en,es,de,fr' })
  })

  it('refuses a body without text, with non-string items or a text that is not a list (400 ERR1012)', async () => {
    await expectError(await api.contains({ language: 'en' }), 400, 'ERR1012')
    await expectError(await api.contains({ text: ['ok', 7] }), 400, 'ERR1012')
    await expectError(await api.contains({ text: 'just one' }), 400, 'ERR1012')
    await expectError(await api.locate({ text: [null] }), 400, 'ERR1012')
  })

  it('answers 400 beyond 1,000 texts and 413 beyond 262,144 characters a text or 2 Mi a call', async () => {
    const many = await api.contains({ text: Array.from({ length: 1001 }, () => 'a') })
    expect((await expectError(many, 400, 'ERR1012')).context).toMatchObject({ max: '1000' })
    const long = await api.locate({ text: ['ok', 'x'.repeat(262_145)] })
    expect((await expectError(long, 413, 'ERR1012')).context).toMatchObject({ field: 'text[1]' })
    const total = await api.contains({ text: Array.from({ length: 9 }, () => 'y'.repeat(250_000)) })
    await expectError(total, 413, 'ERR1012')
    expect(await ok(api.contains({ text: [] }))).toEqual([])
  })

  it('finds entities anywhere in a 100 KB text, across its chunks', async () => {
    const filler = 'The build failed on step 3 of 7 and was retried. '.repeat(2100)
    const text = `${filler}Mail anna.kowalski@outlook.com now. ${filler.slice(0, 8190)}IBAN GB82 WEST 1234 5698 7654 32.`
    const body = await ok(api.locate({ text: [text] }))
    const found = body.detections[0].entities.map(
      (e: { begin_offset: number; end_offset: number }) => text.slice(e.begin_offset, e.end_offset),
    )
    expect(found).toEqual(['anna.kowalski@outlook.com', 'GB82 WEST 1234 5698 7654 32'])
  })

  it('never fails on hostile input: long digit runs, separators, markers, control characters', async () => {
    const text = [
      '1'.repeat(50_000),
      `${'1-'.repeat(20_000)}`,
      `${'a@'.repeat(20_000)}`,
      `${'[[EMAIL:'.repeat(5_000)}`,
      `${'Aaaa '.repeat(20_000)}`,
      '\u0000\u202e\ud800 +44 20 7946 0958',
      `http://${'a'.repeat(30_000)}`,
      `${'1.'.repeat(20_000)}`,
      `${'ab:'.repeat(20_000)}`,
    ]
    const body = await ok(api.locate({ text }))
    expect(body.detections).toHaveLength(text.length)
  })

  it('needs the reason (400 ERR1001) and the capability of each operation (403 ERR1007)', async () => {
    const res = await server.request('POST', `${ANALYSIS}/contains`, { body: { text: ['x'] } })
    await expectError(res, 400, 'ERR1001')
    await setIam(
      server,
      `${rolesToml({
        Detector: { capabilities: ['CapAnalysisDetect'] },
        Locator: { capabilities: ['CapAnalysisLocate'] },
      })}\n[policies]\n`,
    )
    const detector = analysisOf(server, await apiKeyOf(server, 'Detector'))
    const locator = analysisOf(server, await apiKeyOf(server, 'Locator'))
    await ok(detector.contains({ text: ['x'] }))
    await ok(detector.detect({ text: ['x'] }))
    await ok(locator.locate({ text: ['x'] }))
    await expectError(await detector.locate({ text: ['x'] }), 403, 'ERR1007')
    await expectError(await locator.contains({ text: ['x'] }), 403, 'ERR1007')
  })

  it('writes an audit record of each call, without the texts', async () => {
    await ok(api.contains({ text: [TICKET] }, '&custom_audit=scan-1'))
    const rows = await server.app.store.audit.list({ limit: 1000 })
    const records = rows.map((row) => JSON.parse(row.record))
    const event = records.find((r) => r.custom_audit === 'scan-1')
    expect(event).toMatchObject({ operation: 'analysis_contains', outcome: 'success', status: 200 })
    expect(JSON.stringify(records)).not.toContain('whitfield')
  })
})

describe('analysis switched off', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ env: { SVC_FEATURES_ANALYSIS: 'false' } })
  })
  afterAll(() => server.close())

  it('answers 405 ERR1003 on every analysis operation', async () => {
    const api = analysisOf(server)
    for (const res of [
      await api.contains({ text: ['x'] }),
      await api.detect({ text: ['x'] }),
      await api.locate({ text: ['x'] }),
      await api.protect('people', { text: ['x'] }),
      await api.reveal('people', { text: ['x'] }),
    ])
      expect((await expectError(res, 405, 'ERR1003')).context).toEqual({ feature: 'analysis' })
  })
})
