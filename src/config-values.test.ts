// src/config-values.test.ts: value syntax of SVC_* variables, the problem-collecting reader, TOML
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parse } from 'smol-toml'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createReader,
  parseBoolean,
  parseDuration,
  parseExpiration,
  parseInteger,
  parseList,
  parseListenAddress,
  parseListOf,
  parseNumber,
  parseOneOf,
  readSecretFile,
  tomlToVariables,
} from './config-values.ts'

const value = <T>(parsed: { ok: true; value: T } | { ok: false; expected: string }) =>
  parsed.ok ? parsed.value : `not ${parsed.expected}`

describe('value parsers', () => {
  it.each([
    ['true', true],
    ['TRUE', true],
    [' 1 ', true],
    ['False', false],
    ['0', false],
  ])('reads boolean %j', (raw, expected) => {
    expect(value(parseBoolean(raw))).toBe(expected)
  })

  it.each(['yes', '2', '', 'truth'])('rejects boolean %j', (raw) => {
    expect(parseBoolean(raw).ok).toBe(false)
  })

  it('reads decimal integers within range and rejects the rest', () => {
    expect(value(parseInteger('42'))).toBe(42)
    expect(value(parseInteger('-3'))).toBe(-3)
    expect(value(parseInteger('12abc'))).toBe('not an integer')
    expect(value(parseInteger('1.5', { min: 0 }))).toBe('not an integer of at least 0')
    expect(value(parseInteger('-1', { min: 1, max: 9 }))).toBe('not an integer from 1 to 9')
    expect(value(parseInteger('0x10'))).toBe('not an integer')
    expect(value(parseInteger('99999999999999999999'))).toBe('not an integer')
  })

  it('reads decimal numbers with fractions', () => {
    expect(value(parseNumber('0.25', { min: 0 }))).toBe(0.25)
    expect(parseNumber('1e3').ok).toBe(false)
    expect(parseNumber('-1', { min: 0 }).ok).toBe(false)
  })

  it.each([
    ['30', 30_000],
    ['0.5', 500],
    ['0', 0],
    ['300ms', 300],
    ['2h45m', 9_900_000],
    ['1.5h', 5_400_000],
    ['1.1s', 1100],
    ['1m30s', 90_000],
    ['10us', 0.01],
    ['500ns', 0.0005],
  ])('reads duration %j as %d ms', (raw, ms) => {
    expect(value(parseDuration(raw))).toBe(ms)
  })

  it.each(['', '5 minutes', '-1s', '10x', 's', '1.2.3s', 'h1'])('rejects duration %j', (raw) => {
    expect(parseDuration(raw).ok).toBe(false)
  })

  it('rejects a zero duration where a positive one is needed', () => {
    expect(value(parseDuration('0s', { positive: true }))).toMatch(/^not a positive duration/)
  })

  it('splits lists on commas, trims and drops empty members', () => {
    expect(parseList(' a, b ,,c ,')).toEqual(['a', 'b', 'c'])
    expect(parseList('')).toEqual([])
  })

  it('accepts enum values case-sensitively', () => {
    expect(value(parseOneOf('warn', ['info', 'warn']))).toBe('warn')
    expect(value(parseOneOf('WARN', ['info', 'warn']))).toBe('not one of info, warn')
  })

  it('reads a list of allowed members, non-empty', () => {
    expect(value(parseListOf('control', ['data', 'control']))).toEqual(['control'])
    expect(parseListOf('data,other', ['data', 'control']).ok).toBe(false)
    expect(parseListOf(' , ', ['data', 'control']).ok).toBe(false)
  })

  it('reads expirations: seconds, or -1 / empty for never', () => {
    expect(value(parseExpiration('3600'))).toBe(3600)
    expect(value(parseExpiration('-1'))).toBeUndefined()
    expect(value(parseExpiration(''))).toBeUndefined()
    expect(parseExpiration('0').ok).toBe(false)
    expect(parseExpiration('-5').ok).toBe(false)
    expect(value(parseExpiration('3153600000'))).toBe(3_153_600_000)
    expect(parseExpiration('3153600001').ok).toBe(false)
  })

  it.each([
    ['0.0.0.0:8123', { host: '0.0.0.0', port: 8123 }],
    ['127.0.0.1:0', { host: '127.0.0.1', port: 0 }],
    ['localhost:65535', { host: 'localhost', port: 65535 }],
    ['[::1]:8123', { host: '::1', port: 8123 }],
    [':9000', { host: '0.0.0.0', port: 9000 }],
  ])('reads listen address %j', (raw, expected) => {
    expect(value(parseListenAddress(raw))).toEqual(expected)
  })

  it.each(['localhost', '8123', 'h:70000', '::1:80', 'h:-1', 'h:'])(
    'rejects listen address %j',
    (raw) => {
      expect(parseListenAddress(raw).ok).toBe(false)
    },
  )
})

describe('readSecretFile', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'strongroom-values-'))
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  it('returns the trimmed content, and refuses missing or empty files', async () => {
    await writeFile(join(dir, 'secret'), '  s3cret\n')
    await writeFile(join(dir, 'empty'), '\n')
    expect(value(readSecretFile(join(dir, 'secret')))).toBe('s3cret')
    expect(value(readSecretFile(join(dir, 'empty')))).toBe('not a file with a non-empty value')
    expect(value(readSecretFile(join(dir, 'missing')))).toBe('not a readable file (ENOENT)')
  })
})

describe('createReader', () => {
  const file = { values: { SVC_A: '2', SVC_B: '3', SVC_OLD: '4' }, where: ' (config.toml)' }

  it('takes the first source that sets a name, treating empty as unset', () => {
    const problems: string[] = []
    const read = createReader([{ values: { SVC_A: '1', SVC_B: ' ' }, where: '' }, file], problems)
    expect(read.int('SVC_A', 0)).toBe(1)
    expect(read.int('SVC_B', 0)).toBe(3)
    expect(read.int('SVC_C', 7)).toBe(7)
    expect(problems).toEqual([])
  })

  it('keeps an empty list as a value', () => {
    const read = createReader([{ values: { SVC_L: '' }, where: '' }], [])
    expect(read.list('SVC_L', ['*'])).toEqual([])
  })

  it('records a problem per bad value and returns the fallback', () => {
    const problems: string[] = []
    const read = createReader([{ values: { SVC_X: 'loud' }, where: ' (f)' }], problems)
    expect(read.oneOf('SVC_X', ['debug', 'info'], 'info')).toBe('info')
    expect(read.bool('SVC_X', true)).toBe(true)
    expect(problems).toEqual([
      'SVC_X (f): "loud" is not one of debug, info',
      'SVC_X (f): "loud" is not a boolean (true, false, 1 or 0)',
    ])
  })

  it('refuses two spellings of one setting in the same source, prefers an earlier source', () => {
    const problems: string[] = []
    const env = { values: { SVC_A: '9', SVC_OLD: '8' }, where: '' }
    expect(createReader([env, file], problems).int(['SVC_A', 'SVC_OLD'], 0)).toBe(0)
    expect(problems).toEqual(['SVC_A and SVC_OLD: set only one of them'])
    const onlyOld = { values: { SVC_OLD: '8' }, where: '' }
    expect(createReader([onlyOld, file], []).int(['SVC_A', 'SVC_OLD'], 0)).toBe(8)
  })
})

describe('tomlToVariables', () => {
  it('maps tables and keys to variable names, arrays to lists', () => {
    const table = parse(`devmode = true
[service]
max_page_size = 500
allow_origins = ["https://a.example", "https://b.example"]
timeout_seconds = 2.5
[db.gc]
retention_period = "48h"
`)
    expect(tomlToVariables(table, [])).toEqual({
      SVC_DEVMODE: 'true',
      SVC_SERVICE_MAX_PAGE_SIZE: '500',
      SVC_SERVICE_ALLOW_ORIGINS: 'https://a.example,https://b.example',
      SVC_SERVICE_TIMEOUT_SECONDS: '2.5',
      SVC_DB_GC_RETENTION_PERIOD: '48h',
    })
  })

  it('reports values that have no variable form', () => {
    const problems: string[] = []
    tomlToVariables(parse('[log]\nlevel = 1979-05-27\n'), problems)
    expect(problems).toEqual([
      'SVC_LOG_LEVEL (config.toml): unsupported value; use a string, number, boolean or array of them',
    ])
  })
})
