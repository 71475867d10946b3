// test/api/openapi.test.ts: the OpenAPI 3.1 document and the /docs reference page
import { Validator } from '@seriousme/openapi-schema-validator'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ERRORS } from '../../src/contract/errors.ts'
import { hasBrowser, launchBrowser } from '../helpers/browser.ts'
import { startTestServer, type TestServer } from '../helpers/server.ts'

type Operation = {
  operationId?: string
  summary?: string
  description?: string
  tags?: string[]
  security?: unknown[]
  responses: Record<
    string,
    { content?: Record<string, { examples?: Record<string, { value: unknown }> }> }
  >
}
type Document = { openapi: string; paths: Record<string, Record<string, Operation>> }

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete'])

describe('OpenAPI document', () => {
  let server: TestServer
  let document: Document
  let operations: [string, Operation][]
  beforeAll(async () => {
    server = await startTestServer()
    const res = await server.request('GET', '/openapi.json', { token: null })
    expect(res.status).toBe(200)
    document = await res.json()
    operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([method]) => METHODS.has(method))
        .map(([method, operation]): [string, Operation] => [
          `${method.toUpperCase()} ${path}`,
          operation,
        ]),
    )
  })
  afterAll(() => server.close())

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(document.openapi).toBe('3.1.0')
    const result = await new Validator().validate(structuredClone(document) as never)
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
  })

  it('gives every registered route an operationId, a summary, a description and a tag', async () => {
    await server.app.server.ready()
    // Every method of every route in Fastify's own table, less HEAD twins, CORS preflight and the
    // three hidden routes that serve the document and the page.
    const methods = server.app.server
      .printRoutes({ commonPrefix: false })
      .split('\n')
      .flatMap((line) => /\(([A-Z, ]+)\)$/.exec(line)?.[1]?.split(', ') ?? [])
      .filter((method) => method !== 'HEAD' && method !== 'OPTIONS')
    expect(operations.length).toBe(methods.length - 3)
    expect(operations.length).toBeGreaterThan(50)
    for (const [where, operation] of operations) {
      expect(operation.operationId, where).toMatch(/^[a-z][A-Za-z]*\.[a-z][A-Za-z]*$/)
      expect(operation.summary, where).toMatch(/\S/)
      expect(operation.description, where).toMatch(/\S/)
      expect(operation.tags?.length, where).toBe(1)
    }
    const ids = operations.map(([, operation]) => operation.operationId)
    expect(new Set(ids).size).toBe(ids.length)
  })

  it("uses the published client's names", () => {
    const ids = new Set(operations.map(([, operation]) => operation.operationId))
    for (const name of [
      'collections.listCollections',
      'collectionProperties.addCollectionProperty',
      'objects.getObjectById',
      'tokens.getByTransactionId',
      'crypto.hashObjects',
      'customDataTypes.listDataTypes',
      'iam.updateApiKeyExpiration',
      'system.getVaultVersion',
      'configVars.clearAllConfVars',
    ])
      expect(ids).toContain(name)
  })

  it('documents every error response with an example body in the error shape', () => {
    for (const [where, operation] of operations) {
      const statuses = Object.keys(operation.responses).filter((status) => status >= '400')
      if (operation.security?.length === 0) continue
      expect(statuses, where).toEqual(expect.arrayContaining(['401', '500']))
      for (const status of statuses) {
        const examples = operation.responses[status]?.content?.['application/json']?.examples
        expect(Object.keys(examples ?? {}).length, `${where} ${status}`).toBeGreaterThan(0)
        for (const [name, example] of Object.entries(examples ?? {})) {
          const entry = ERRORS[name as keyof typeof ERRORS]
          expect(String(entry.status)).toBe(status)
          expect(example.value).toEqual({
            error_code: entry.code,
            message: entry.title,
            context: expect.any(Object),
          })
        }
      }
    }
    const addObject = document.paths['/api/pvlt/1.0/data/collections/{collection}/objects']?.post
    expect(
      Object.keys(addObject?.responses['409']?.content?.['application/json']?.examples ?? {}),
    ).toEqual(['alreadyExists', 'uniqueValueUsed'])
    expect(addObject?.description).toContain('`CapDataWriter`')
  })

  it('needs no credential for health', () => {
    const health = document.paths['/api/pvlt/1.0/data/info/health']?.get
    expect(health?.security).toEqual([])
    expect(Object.keys(health?.responses ?? {})).toEqual(expect.arrayContaining(['200', '503']))
  })
})

describe('OpenAPI document switched off', () => {
  it('answers 404 for /openapi.json and /docs with SVC_FEATURES_DISABLE_DOCS=true', async () => {
    const server = await startTestServer({ env: { SVC_FEATURES_DISABLE_DOCS: 'true' } })
    try {
      for (const path of ['/openapi.json', '/docs', '/docs/static/index.css']) {
        const res = await server.request('GET', path, { token: null })
        expect(res.status, path).toBe(404)
        expect((await res.json()).error_code).toBe('ERR1012')
      }
    } finally {
      await server.close()
    }
  })
})

describe.runIf(hasBrowser())('API reference page in a browser', () => {
  let server: TestServer
  let browser: Browser
  beforeAll(async () => {
    server = await startTestServer()
    browser = await launchBrowser()
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  it('renders every operation from local assets only', async () => {
    const page = await browser.newPage()
    const requested: string[] = []
    page.on('request', (request) => requested.push(request.url()))
    await page.goto(`${server.baseUrl}/docs`)
    await page.locator('.opblock').first().waitFor({ timeout: 30_000 })
    expect(await page.locator('.opblock').count()).toBeGreaterThan(50)
    await expect(page.getByText('List collections').first().isVisible()).resolves.toBe(true)
    const { origin } = new URL(server.baseUrl)
    const offsite = requested.filter(
      (url) => !url.startsWith(`${origin}/`) && !url.startsWith('data:'),
    )
    expect(offsite).toEqual([])
    expect(requested).toContain(`${origin}/docs/json`)
  }, 60_000)
})
