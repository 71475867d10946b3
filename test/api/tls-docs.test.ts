// test/api/tls-docs.test.ts: HTTPS (self-signed and from files) and the served OpenAPI document
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { request as httpsRequest } from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { generate } from 'selfsigned'
import { afterAll, describe, expect, it } from 'vitest'
import { API, startTestServer } from '../helpers/server.ts'

const dir = await mkdtemp(join(tmpdir(), 'strongroom-tls-'))
afterAll(() => rm(dir, { recursive: true, force: true }))

/** GET over HTTPS accepting the test's own certificate; resolves to status, body and peer cert. */
function httpsGet(
  url: string,
): Promise<{ status: number; body: string; subject: string; validTo: string }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(url, { rejectUnauthorized: false }, (res) => {
      let body = ''
      const cert = (res.socket as import('node:tls').TLSSocket).getPeerCertificate()
      res.on('data', (chunk) => (body += chunk))
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body,
          subject: String(cert.subject?.CN ?? ''),
          validTo: cert.valid_to,
        }),
      )
    })
    req.on('error', reject)
    req.end()
  })
}

describe('HTTPS', () => {
  it('serves HTTPS with a generated certificate valid for 24 hours', async () => {
    const server = await startTestServer({ env: { SVC_TLS_SELFSIGNED: 'true' } })
    expect(server.baseUrl).toMatch(/^https:\/\//)
    const res = await httpsGet(`${server.baseUrl}${API}/data/info/health`)
    expect(res.status).toBe(200)
    expect(JSON.parse(res.body)).toEqual({ status: 'pass' })
    const hours = (Date.parse(res.validTo) - Date.now()) / 3_600_000
    expect(hours).toBeGreaterThan(23)
    expect(hours).toBeLessThanOrEqual(24)
    await server.close()
  })

  it('serves HTTPS with the certificate and key files configured', async () => {
    const pems = await generate([{ name: 'commonName', value: 'vault.test' }], {
      keySize: 2048,
      algorithm: 'sha256',
    })
    await writeFile(join(dir, 'cert.pem'), pems.cert)
    await writeFile(join(dir, 'key.pem'), pems.private)
    const server = await startTestServer({
      env: {
        SVC_TLS_ENABLE: 'true',
        SVC_TLS_CERT_FILE: join(dir, 'cert.pem'),
        SVC_TLS_KEY_FILE: join(dir, 'key.pem'),
      },
    })
    const res = await httpsGet(`${server.baseUrl}${API}/ctl/info/health`)
    expect(res.status).toBe(200)
    expect(res.subject).toBe('vault.test')
    await server.close()
  })
})

describe('OpenAPI document', () => {
  it('is served without a credential and lists the operations with their schemas', async () => {
    const server = await startTestServer()
    const res = await server.request('GET', '/openapi.json', { token: null })
    expect(res.status).toBe(200)
    const doc = await res.json()
    expect(doc.openapi).toMatch(/^3\./)
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([`${API}/system/info/version`, `${API}/data/info/health`]),
    )
    expect(doc.paths[`${API}/system/confvar/{name}`].post.requestBody).toBeDefined()
    expect(doc.paths[`${API}/data/info/health`]).toEqual({
      get: expect.objectContaining({
        responses: expect.objectContaining(
          Object.fromEntries(
            ['200', '503'].map((status) => [
              status,
              {
                description: 'Default Response',
                content: {
                  'application/json': {
                    schema: {
                      type: 'object',
                      required: ['status'],
                      properties: {
                        status: {
                          anyOf: [
                            { type: 'string', enum: ['pass'] },
                            { type: 'string', enum: ['fail'] },
                          ],
                        },
                      },
                    },
                  },
                },
              },
            ]),
          ),
        ),
      }),
    })
    // Neither the document itself, nor CORS preflights, nor the HEAD twins of GET routes.
    expect(doc.paths['/openapi.json']).toBeUndefined()
    const methods = Object.values(doc.paths).flatMap((path) => Object.keys(path as object))
    expect(methods).not.toContain('head')
    expect(methods).not.toContain('options')
    // Generated once, on the first request, then served as is.
    const again = await server.request('GET', '/openapi.json', { token: null })
    expect(await again.json()).toEqual(doc)
    await server.close()
  })

  it('is not served with SVC_FEATURES_DISABLE_DOCS=true', async () => {
    const server = await startTestServer({ env: { SVC_FEATURES_DISABLE_DOCS: 'true' } })
    expect((await server.request('GET', '/openapi.json', { token: null })).status).toBe(404)
    await server.close()
  })
})

describe('export KMS status', () => {
  it('reports the export KMS too when one is configured', async () => {
    const server = await startTestServer({ env: { SVC_KMS_EXPORT_SEED: 'export-seed' } })
    const body = await (await server.request('GET', `${API}/system/info/kms`)).json()
    expect(body).toEqual({
      kms: { status: 'pass', type: 'LOCAL' },
      kms_export: { status: 'pass', type: 'LOCAL' },
    })
    await server.close()
  })
})
