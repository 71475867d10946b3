// test/api/tracing.test.ts: OpenTelemetry spans exported over OTLP/HTTP to a tiny receiver on loopback
import { randomUUID } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { describeEngines } from '../helpers/engines.ts'
import { addCollection, addObject, objectsOf, PEOPLE } from '../helpers/objects.ts'
import { API, startTestServer, type TestServer } from '../helpers/server.ts'

type Attribute = { key: string; value: { stringValue?: string; intValue?: number | string } }
type ExportedSpan = {
  traceId: string
  spanId: string
  parentSpanId?: string
  name: string
  kind: number
  attributes: Attribute[]
}

const SECRET_NAME = 'Ottoline Traceworthy'
const SSN = '321-54-9876'
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736'
const PARENT_ID = '00f067aa0ba902b7'
const SERVER = 2
const CLIENT = 3

/** A minimal OTLP/HTTP traces receiver: keeps every JSON body it is sent. */
async function startReceiver(): Promise<{ server: Server; url: string; bodies: string[] }> {
  const bodies: string[] = []
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk) => (body += chunk))
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/traces') bodies.push(body)
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
  })
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready))
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bodies }
}

function spansOf(bodies: readonly string[]): ExportedSpan[] {
  return bodies.flatMap((body) =>
    JSON.parse(body).resourceSpans.flatMap(
      (resource: { scopeSpans: { spans: ExportedSpan[] }[] }) =>
        resource.scopeSpans.flatMap((scope) => scope.spans),
    ),
  )
}

const attribute = (span: ExportedSpan | undefined, key: string) => {
  const value = span?.attributes.find((entry) => entry.key === key)?.value
  return value?.stringValue ?? (value?.intValue === undefined ? undefined : Number(value.intValue))
}

describeEngines('traces', (engine) => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  let server: TestServer
  let spans: ExportedSpan[]
  let exported: string

  beforeAll(async () => {
    receiver = await startReceiver()
    server = await startTestServer({
      engine,
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: 'vault-test' },
    })
    await addCollection(server, PEOPLE)
    const people = objectsOf(server, 'people')
    const id = await addObject(people, { name: SECRET_NAME, ssn: SSN })
    const read = await people.get(id, 'options=unsafe', {
      headers: { traceparent: `00-${TRACE_ID}-${PARENT_ID}-01` },
    })
    expect(read.status).toBe(200)
    expect((await people.get(randomUUID())).status).toBe(404)
    // Closing the node flushes the spans still queued.
    await server.close()
    exported = receiver.bodies.join('\n')
    spans = spansOf(receiver.bodies)
  })
  afterAll(() => new Promise((done) => receiver.server.close(done)))

  it('exports a server span per call, named by route, with its operation and status', () => {
    const add = spans.find(
      (span) => attribute(span, 'strongroom.operation') === 'objects.addObject',
    )
    expect(add).toMatchObject({
      kind: SERVER,
      name: `POST ${API}/data/collections/:collection/objects`,
    })
    expect(attribute(add, 'http.response.status_code')).toBe(200)
    expect(attribute(add, 'http.route')).toBe(`${API}/data/collections/:collection/objects`)
    expect(exported).toContain('"vault-test"')
  })

  it('puts each database statement under its call, as text without values', () => {
    const add = spans.find(
      (span) => attribute(span, 'strongroom.operation') === 'objects.addObject',
    )
    const statements = spans.filter(
      (span) => span.parentSpanId === add?.spanId && attribute(span, 'db.query.text') !== undefined,
    )
    expect(statements.length).toBeGreaterThan(0)
    for (const statement of statements) {
      expect(statement.kind).toBe(CLIENT)
      expect(statement.traceId).toBe(add?.traceId)
      expect(attribute(statement, 'db.system.name')).toBe(
        engine === 'postgres' ? 'postgresql' : 'sqlite',
      )
    }
    expect(
      statements.some((span) =>
        /\bINSERT INTO objects\b/.test(String(attribute(span, 'db.query.text'))),
      ),
    ).toBe(true)
  })

  it('continues the caller’s W3C trace', () => {
    const read = spans.find(
      (span) =>
        attribute(span, 'strongroom.operation') === 'objects.getObjectById' &&
        span.traceId === TRACE_ID,
    )
    expect(read?.parentSpanId).toBe(PARENT_ID)
  })

  it('traces KMS calls', () => {
    expect(spans.some((span) => span.name === 'kms.wrap' || span.name === 'kms.unwrap')).toBe(true)
  })

  it('never exports a value, a key or a credential', () => {
    expect(spans.length).toBeGreaterThan(5)
    for (const secret of [SECRET_NAME, SSN, 'pvaultauth', 'strongroom-dev-seed'])
      expect(exported).not.toContain(secret)
  })
})

describe('traces sampled out', () => {
  it('exports nothing with OTEL_TRACES_SAMPLER=always_off', async () => {
    const receiver = await startReceiver()
    try {
      const server = await startTestServer({
        env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_TRACES_SAMPLER: 'always_off' },
      })
      expect((await server.request('GET', `${API}/system/info/version`)).status).toBe(200)
      await server.close()
      expect(spansOf(receiver.bodies)).toEqual([])
    } finally {
      await new Promise((done) => receiver.server.close(done))
    }
  })
})
