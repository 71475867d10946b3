// src/contract/errors.test.ts: the catalogue is well formed and docs/errors.md matches it
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { renderErrorsDoc } from '../../scripts/errors-doc-render.ts'
import { ERRORS } from './errors.ts'

const entries = Object.entries(ERRORS)

describe('error catalogue', () => {
  it('has well-formed codes, HTTP error statuses and titles that end with a full stop', () => {
    for (const [, entry] of entries) {
      expect(entry.code).toMatch(/^ERR\d{4}$/)
      expect(entry.status).toBeGreaterThanOrEqual(400)
      expect(entry.status).toBeLessThan(600)
      expect(entry.title).toMatch(/\.$/)
    }
  })

  it('gives each code one status, except the generic ERR1012 used by routing and size errors', () => {
    const statuses = new Map<string, Set<number>>()
    for (const [, { code, status }] of entries)
      statuses.set(code, (statuses.get(code) ?? new Set()).add(status))
    const mixed = [...statuses].filter(([, set]) => set.size > 1).map(([code]) => code)
    expect(mixed).toEqual(['ERR1012'])
  })

  it('keeps the spec statuses of the seed codes', () => {
    expect(ERRORS.internal).toMatchObject({ code: 'ERR1000', status: 500 })
    expect(ERRORS.unauthorized).toMatchObject({ code: 'ERR1005', status: 401 })
    expect(ERRORS.missingCapability).toMatchObject({ code: 'ERR1007', status: 403 })
    expect(ERRORS.timeout).toMatchObject({ code: 'ERR1009', status: 503 })
    expect(ERRORS.notInMemoryMode).toMatchObject({ code: 'ERR1026', status: 405 })
    expect(ERRORS.adminNotAllowed).toMatchObject({ code: 'ERR2021', status: 403 })
  })

  it('matches the generated docs/errors.md (run npm run docs:errors after changing it)', () => {
    const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8')
    expect(doc).toBe(renderErrorsDoc())
  })
})
