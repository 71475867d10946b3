// test/architecture.test.ts: fails on any import edge the STYLE.md dependency table forbids
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const SRC = resolve(import.meta.dirname, '../src')

type Layer =
  | 'contract'
  | 'core'
  | 'storage'
  | 'sandbox'
  | 'http'
  | 'root'
  | 'config'
  | 'cli'
  | 'client'
  | 'telemetry'

/** STYLE.md §3: the layers each layer must never import. */
const FORBIDDEN: Record<Layer, readonly Layer[]> = {
  contract: ['core', 'storage', 'sandbox', 'http', 'root', 'config', 'cli', 'client', 'telemetry'],
  core: ['http', 'storage', 'sandbox', 'cli', 'client', 'config', 'root', 'telemetry'],
  storage: ['http', 'sandbox', 'cli', 'client', 'config', 'root', 'telemetry'],
  sandbox: ['http', 'storage', 'cli', 'client', 'config', 'root', 'contract', 'telemetry'],
  http: ['storage', 'sandbox', 'cli', 'client', 'config', 'root', 'telemetry'],
  root: ['cli', 'client'],
  config: ['contract', 'core', 'storage', 'sandbox', 'http', 'root', 'cli', 'client', 'telemetry'],
  cli: ['core', 'storage', 'http', 'sandbox', 'telemetry'],
  client: ['core', 'storage', 'sandbox', 'http', 'root', 'config', 'cli', 'telemetry'],
  // Metrics (prom-client) and traces (OpenTelemetry): adapters the composition root loads only
  // when configured, fed through plain callbacks; they import nothing of the service.
  telemetry: ['contract', 'core', 'storage', 'sandbox', 'http', 'root', 'config', 'cli', 'client'],
}

/** Packages (and node: modules) a layer may not use, whatever the layer table says. */
const FORBIDDEN_PACKAGES: Record<Layer, RegExp | undefined> = {
  contract: /^(?!typebox(\/|$))/,
  core: /^(fastify|@fastify\/|kysely|pg|node:sqlite|quickjs-emscripten|prom-client|@opentelemetry\/)/,
  storage: /^(fastify|@fastify\/|quickjs-emscripten|prom-client|@opentelemetry\/)/,
  sandbox: /^(fastify|@fastify\/|kysely|pg|node:sqlite|prom-client|@opentelemetry\/)/,
  http: /^(kysely|pg|node:sqlite|quickjs-emscripten|prom-client|@opentelemetry\/)/,
  root: /^(prom-client|@opentelemetry\/)/,
  config:
    /^(fastify|@fastify\/|kysely|pg|node:sqlite|quickjs-emscripten|prom-client|@opentelemetry\/)/,
  cli: /^(fastify|@fastify\/|kysely|pg|node:sqlite|quickjs-emscripten|prom-client|@opentelemetry\/)/,
  client: /^(?!typebox(\/|$))/,
  telemetry: /^(fastify|@fastify\/|kysely|pg|node:sqlite|quickjs-emscripten)/,
}

/** node:crypto names every layer may use; cipher, HMAC and comparison stay in core/crypto. */
const CRYPTO_ALLOWED = new Set(['randomUUID', 'randomBytes', 'randomInt'])

function layerOf(file: string): Layer {
  const path = relative(SRC, file)
  const [top] = path.split('/')
  if (path.startsWith('app') || path === 'main.ts') return 'root'
  if (path.startsWith('config')) return 'config'
  return top as Layer
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return path.endsWith('.ts') && !path.endsWith('.test.ts') ? [path] : []
  })
}

type Import = { readonly specifier: string; readonly names: string }

function importsOf(text: string): Import[] {
  const found: Import[] = []
  const pattern =
    /(?:import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"]([^'"]+)['"]|(?:\bimport|\brequire|\bgetBuiltinModule)\(\s*['"]([^'"]+)['"]\s*\)/g
  for (const match of text.matchAll(pattern)) {
    found.push({ specifier: match[3] ?? match[4] ?? '', names: match[2] ?? '' })
  }
  return found
}

const files = sourceFiles(SRC)

describe('architecture', () => {
  it('finds the source tree', () => {
    expect(files.length).toBeGreaterThan(20)
  })

  it('has no import edge that STYLE.md forbids', () => {
    const violations: string[] = []
    for (const file of files) {
      const from = layerOf(file)
      for (const { specifier } of importsOf(readFileSync(file, 'utf8'))) {
        if (specifier.startsWith('.')) {
          const target = layerOf(resolve(file, '..', specifier))
          if (target !== from && FORBIDDEN[from].includes(target)) {
            violations.push(`${relative(SRC, file)} (${from}) imports ${specifier} (${target})`)
          }
        } else if (FORBIDDEN_PACKAGES[from]?.test(specifier)) {
          violations.push(`${relative(SRC, file)} (${from}) imports package ${specifier}`)
        }
      }
    }
    expect(violations).toEqual([])
  })

  it('keeps cipher, HMAC and comparison functions of node:crypto inside core/crypto', () => {
    const violations: string[] = []
    for (const file of files) {
      if (relative(SRC, file).startsWith('core/crypto/')) continue
      for (const { specifier, names } of importsOf(readFileSync(file, 'utf8'))) {
        if (specifier !== 'node:crypto' && specifier !== 'crypto') continue
        const used = names
          .replace(/[{}\s]/g, '')
          .split(',')
          .filter(Boolean)
        const bad = used.filter((name) => !CRYPTO_ALLOWED.has(name.replace(/^type/, '')))
        if (bad.length > 0)
          violations.push(`${relative(SRC, file)} imports ${bad.join(', ')} from node:crypto`)
      }
    }
    expect(violations).toEqual([])
  })

  it('takes Kysely values only from src/storage/kysely.ts, so one copy of Kysely loads', () => {
    const violations: string[] = []
    for (const file of files) {
      if (relative(SRC, file) === 'storage/kysely.ts') continue
      const text = readFileSync(file, 'utf8')
      for (const match of text.matchAll(/import\s+(type\s+)?[^'";]*?from\s*['"]kysely['"]/g))
        if (match[1] === undefined) violations.push(relative(SRC, file))
    }
    expect(violations).toEqual([])
  })

  it('reads process.env only in src/config.ts', () => {
    const readers = files.filter((file) => /process\.env/.test(readFileSync(file, 'utf8')))
    expect(
      readers.map((file) => relative(SRC, file)).filter((path) => path !== 'config.ts'),
    ).toEqual([])
  })

  it('detects a forbidden edge (the checker itself works)', () => {
    expect(importsOf("import { x } from '../storage/sql-store.ts'")).toEqual([
      { specifier: '../storage/sql-store.ts', names: '{ x }' },
    ])
    expect(importsOf("const pg = require('pg')")).toEqual([{ specifier: 'pg', names: '' }])
    expect(importsOf("process.getBuiltinModule('node:sqlite')")).toEqual([
      { specifier: 'node:sqlite', names: '' },
    ])
    expect(FORBIDDEN[layerOf(join(SRC, 'core/objects/objects.ts'))]).toContain('storage')
    expect(FORBIDDEN_PACKAGES.contract?.test('kysely')).toBe(true)
    expect(FORBIDDEN_PACKAGES.contract?.test('typebox')).toBe(false)
    expect(FORBIDDEN_PACKAGES.core?.test('prom-client')).toBe(true)
    expect(FORBIDDEN_PACKAGES.http?.test('@opentelemetry/api')).toBe(true)
  })
})
