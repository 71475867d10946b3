// test/architecture.test.ts: what each layer of src may import (ARCHITECTURE.md), and how large a file may grow
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
  | 'telemetry'

/** ARCHITECTURE.md, "Dependency rules": the other layers each layer may import. */
const MAY_IMPORT: Record<Layer, readonly Layer[]> = {
  contract: [],
  core: ['contract'],
  storage: ['core', 'contract'],
  sandbox: ['core'],
  http: ['core', 'contract'],
  root: ['config', 'core', 'storage', 'sandbox', 'http', 'telemetry'],
  // Types only (checked below): config produces the DatabaseOptions storage declares.
  config: ['storage'],
  cli: ['client', 'contract', 'root', 'config'],
  client: ['contract'],
  // Metrics (prom-client) and traces (OpenTelemetry): adapters the composition root loads only
  // when configured, fed through plain callbacks; they import nothing of the service.
  telemetry: [],
}

/** The packages each layer may load: a name (with its subpaths), or a prefix ending in : or /. */
const MAY_USE: Record<Layer, readonly string[]> = {
  contract: ['typebox'],
  // libphonenumber-js and ibantools: the PII recognizers' validators (ADR 0012).
  core: ['node:', 'typebox', '@noble/', 'jose', 'smol-toml', 'libphonenumber-js', 'ibantools'],
  storage: ['node:', 'kysely', 'pg'],
  // QuickJS in WebAssembly: the engine and its one build (ADR 0013).
  sandbox: ['node:', 'quickjs-emscripten-core', '@jitl/quickjs-wasmfile-release-sync'],
  http: ['node:', 'fastify', '@fastify/', 'typebox'],
  root: ['node:', 'fastify', 'selfsigned', 'pino', 'pino-pretty'],
  config: ['node:', 'smol-toml'],
  cli: ['node:'],
  client: ['typebox'],
  telemetry: ['node:', 'prom-client', '@opentelemetry/'],
}

/** Built-in modules only one layer may load, whatever its `node:` entry says. */
const OWNED_BUILTINS: Readonly<Record<string, Layer>> = { 'node:sqlite': 'storage' }

/** node:crypto names every layer may use; cipher, HMAC and comparison stay in core/crypto. */
const CRYPTO_ALLOWED = new Set(['randomUUID', 'randomBytes', 'randomInt'])

/** The modules of core/objects other core capabilities may import: its service, port and reader. */
const OBJECTS_PUBLIC = new Set(['objects.ts', 'store.ts', 'reader.ts'])

/** STYLE: files aim at 200 lines; past 400 they are split. */
const MAX_LINES = 400

function layerOf(file: string): Layer {
  const path = relative(SRC, file)
  const [top] = path.split('/')
  if (path.startsWith('app') || path === 'main.ts') return 'root'
  if (path.startsWith('config')) return 'config'
  return top as Layer
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return filesUnder(path)
    return path.endsWith('.ts') ? [path] : []
  })
}

type Import = { readonly specifier: string; readonly names: string; readonly isType: boolean }

const STATIC =
  /(?:import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"]([^'"]+)['"]|^import\s+['"]([^'"]+)['"]/gm
const CALLS = /(?:\bimport|\brequire|\bgetBuiltinModule)\(\s*['"]([^'"]+)['"]\s*\)/g
const CREATE_REQUIRE = /(?:\b(\w+)\s*=\s*)?createRequire\([^)]*\)(?:\(\s*['"]([^'"]+)['"]\s*\))?/g
/** A module started from its URL (a worker thread's entry): `new URL('./x.ts', import.meta.url)`. */
const MODULE_URL = /new URL\(\s*['"](\.{1,2}\/[^'"]+\.[tj]s)['"]\s*,\s*import\.meta\.url\s*\)/g

/**
 * Every module a file loads: static imports and re-exports, `import()`, `require()`,
 * `process.getBuiltinModule()`, loads through a function `createRequire` made (called at once or
 * kept under a name), and worker entries given as module URLs.
 */
function importsOf(text: string): Import[] {
  const found: Import[] = []
  for (const match of text.matchAll(STATIC)) {
    const specifier = match[3] ?? match[4] ?? ''
    found.push({ specifier, names: match[2] ?? '', isType: match[1] !== undefined })
  }
  for (const match of text.matchAll(CALLS))
    found.push({ specifier: match[1] ?? '', names: '', isType: false })
  for (const match of text.matchAll(CREATE_REQUIRE)) {
    const [, name, loaded] = match
    if (loaded !== undefined) found.push({ specifier: loaded, names: '', isType: false })
    if (name === undefined || name === 'require') continue
    for (const call of text.matchAll(new RegExp(`\\b${name}\\(\\s*['"]([^'"]+)['"]\\s*\\)`, 'g')))
      found.push({ specifier: call[1] ?? '', names: '', isType: false })
  }
  for (const match of text.matchAll(MODULE_URL))
    found.push({ specifier: match[1] ?? '', names: '', isType: false })
  return found
}

const isAllowedPackage = (layer: Layer, specifier: string) =>
  OWNED_BUILTINS[specifier] === undefined
    ? MAY_USE[layer].some((entry) =>
        /[:/]$/.test(entry)
          ? specifier.startsWith(entry)
          : specifier === entry || specifier.startsWith(`${entry}/`),
      )
    : OWNED_BUILTINS[specifier] === layer

const all = filesUnder(SRC)
/** Production code: the import rules bind it; tests beside it may also import test/helpers. */
const files = all.filter((file) => !file.endsWith('.test.ts'))
const edges = files.flatMap((file) =>
  importsOf(readFileSync(file, 'utf8')).map((edge) => ({ file, from: layerOf(file), ...edge })),
)
const local = edges
  .filter((edge) => edge.specifier.startsWith('.'))
  .map((edge) => {
    const target = resolve(edge.file, '..', edge.specifier)
    return { ...edge, target, to: layerOf(target) }
  })
const describeEdge = (edge: { file: string; specifier: string }) =>
  `${relative(SRC, edge.file)} imports ${edge.specifier}`

describe('architecture', () => {
  it('finds the source tree and its imports', () => {
    expect(files.length).toBeGreaterThan(20)
    expect(local.length).toBeGreaterThan(100)
  })

  it('has only import edges ARCHITECTURE.md allows between layers', () => {
    const violations = local
      .filter((edge) => edge.to !== edge.from && !MAY_IMPORT[edge.from].includes(edge.to))
      .map((edge) => `${describeEdge(edge)} (${edge.from} → ${edge.to})`)
    expect(violations).toEqual([])
  })

  it('lets config import only types from storage', () => {
    const violations = local
      .filter((edge) => edge.from === 'config' && edge.to === 'storage' && !edge.isType)
      .map(describeEdge)
    expect(violations).toEqual([])
  })

  it('uses only the packages each layer may use', () => {
    const violations = edges
      .filter((edge) => !edge.specifier.startsWith('.'))
      .filter((edge) => !isAllowedPackage(edge.from, edge.specifier))
      .map((edge) => `${describeEdge(edge)} (${edge.from})`)
    expect(violations).toEqual([])
  })

  it('keeps cipher, HMAC and comparison functions of node:crypto inside core/crypto', () => {
    const violations = edges
      .filter((edge) => edge.specifier === 'node:crypto' || edge.specifier === 'crypto')
      .filter((edge) => !relative(SRC, edge.file).startsWith('core/crypto/'))
      .filter((edge) =>
        edge.names
          .replace(/[{}\s]/g, '')
          .split(',')
          .some((name) => name !== '' && !CRYPTO_ALLOWED.has(name.replace(/^type/, ''))),
      )
      .map(describeEdge)
    expect(violations).toEqual([])
  })

  it('keeps the internals of core/objects from other capabilities (they use its service, port and reader)', () => {
    const objects = join(SRC, 'core/objects/')
    const violations = local
      .filter((edge) => edge.from === 'core' && edge.target.startsWith(objects))
      .filter((edge) => !edge.file.startsWith(objects))
      .filter((edge) => relative(SRC, edge.file) !== 'core/services.ts')
      .filter((edge) => !OBJECTS_PUBLIC.has(relative(objects, edge.target)))
      .map(describeEdge)
    expect(violations).toEqual([])
  })

  it('leaves engine differences to the dialect objects: repositories name no engine', () => {
    const repos = files.filter((file) => relative(SRC, file).startsWith('storage/repos/'))
    const violations = repos.filter((file) =>
      /['"](sqlite|postgres)['"]|dialect\.name/.test(readFileSync(file, 'utf8')),
    )
    expect(repos.length).toBeGreaterThan(5)
    expect(violations.map((file) => relative(SRC, file))).toEqual([])
  })

  it('takes Kysely values only from src/storage/kysely.ts, so one copy of Kysely loads', () => {
    const violations = edges
      .filter((edge) => edge.specifier === 'kysely' && !edge.isType)
      .filter((edge) => relative(SRC, edge.file) !== 'storage/kysely.ts')
      .map(describeEdge)
    expect(violations).toEqual([])
  })

  it('reads process.env only in src/config.ts', () => {
    const readers = files.filter((file) => /process\.env/.test(readFileSync(file, 'utf8')))
    expect(
      readers.map((file) => relative(SRC, file)).filter((path) => path !== 'config.ts'),
    ).toEqual([])
  })

  it(`has no file over ${MAX_LINES} lines`, () => {
    const long = all
      .map((file) => ({ file: relative(SRC, file), lines: readFileSync(file, 'utf8').split('\n') }))
      .filter(({ lines }) => lines.length - (lines.at(-1) === '' ? 1 : 0) > MAX_LINES)
      .map(({ file, lines }) => `${file}: ${lines.length} lines`)
    expect(long).toEqual([])
  })

  it('finds every kind of load (the checker itself works)', () => {
    const specifiers = (text: string) => importsOf(text).map((found) => found.specifier)
    expect(importsOf("import type { x } from '../storage/sql-store.ts'")).toEqual([
      { specifier: '../storage/sql-store.ts', names: '{ x }', isType: true },
    ])
    expect(specifiers("export { y } from './y.ts'\nimport './side.ts'")).toEqual([
      './y.ts',
      './side.ts',
    ])
    expect(specifiers("const pg = require('pg')\nawait import('fastify')")).toEqual([
      'pg',
      'fastify',
    ])
    expect(specifiers("process.getBuiltinModule('node:sqlite')")).toEqual(['node:sqlite'])
    expect(specifiers("const k = createRequire(import.meta.url)('kysely')")).toEqual(['kysely'])
    expect(
      specifiers("const load = createRequire(import.meta.url)\nconst p = load('pg/lib')"),
    ).toEqual(['pg/lib'])
    expect(specifiers("new Worker(new URL('./seal-worker.ts', import.meta.url))")).toEqual([
      './seal-worker.ts',
    ])
    expect(isAllowedPackage('core', 'kysely')).toBe(false)
    expect(isAllowedPackage('core', 'node:sqlite')).toBe(false)
    expect(isAllowedPackage('storage', 'node:sqlite')).toBe(true)
    expect(isAllowedPackage('contract', 'typebox/schema')).toBe(true)
    expect(isAllowedPackage('contract', 'typeboxer')).toBe(false)
    expect(isAllowedPackage('core', 'prom-client')).toBe(false)
    expect(isAllowedPackage('http', '@opentelemetry/api')).toBe(false)
    expect(MAY_IMPORT[layerOf(join(SRC, 'core/objects/objects.ts'))]).not.toContain('storage')
  })
})
