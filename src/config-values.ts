// src/config-values.ts: parsers for the SVC_* value syntax and the reader that collects problems
import { readFileSync } from 'node:fs'
import type { TomlTable, TomlValue } from 'smol-toml'

/** Outcome of parsing one raw value; `expected` completes "… is not <expected>". */
export type Parsed<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly expected: string }
export type Parse<T> = (raw: string, name: string) => Parsed<T>
export type Range = { readonly min?: number; readonly max?: number }
export type ListenAddress = { readonly host: string; readonly port: number }

/** One place values come from: the environment, or the variables derived from config.toml. */
export type Source = {
  readonly values: Readonly<Record<string, string | undefined>>
  /** Appended to the variable name in problems, e.g. ' (config.toml)'. */
  readonly where: string
}

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value })
const notA = (expected: string): Parsed<never> => ({ ok: false, expected })

export function parseBoolean(raw: string): Parsed<boolean> {
  const value = raw.trim().toLowerCase()
  if (value === 'true' || value === '1') return ok(true)
  if (value === 'false' || value === '0') return ok(false)
  return notA('a boolean (true, false, 1 or 0)')
}

function describeRange(kind: string, range: Range): string {
  const { min, max } = range
  if (min !== undefined && max !== undefined) return `${kind} from ${min} to ${max}`
  if (min !== undefined) return `${kind} of at least ${min}`
  if (max !== undefined) return `${kind} of at most ${max}`
  return kind
}

const inRange = (n: number, { min, max }: Range) =>
  (min === undefined || n >= min) && (max === undefined || n <= max)

export function parseInteger(raw: string, range: Range = {}): Parsed<number> {
  const text = raw.trim()
  const n = Number(text)
  if (/^-?\d+$/.test(text) && Number.isSafeInteger(n) && inRange(n, range)) return ok(n)
  return notA(describeRange('an integer', range))
}

const DECIMAL = String.raw`(?:\d+\.?\d*|\.\d+)`
const NUMBER_RE = new RegExp(`^-?${DECIMAL}$`)

/** A decimal number, fractions allowed (e.g. SVC_SERVICE_TIMEOUT_SECONDS). */
export function parseNumber(raw: string, range: Range = {}): Parsed<number> {
  const text = raw.trim()
  const n = Number(text)
  if (NUMBER_RE.test(text) && inRange(n, range)) return ok(n)
  return notA(describeRange('a number', range))
}

const UNIT_MS: Readonly<Record<string, number>> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
}
const UNITS = '(ns|us|µs|ms|s|m|h)'
const SECONDS_RE = new RegExp(`^${DECIMAL}$`)
const GO_DURATION_RE = new RegExp(`^(?:${DECIMAL}${UNITS})+$`)
const GO_PART_RE = new RegExp(`(${DECIMAL})${UNITS}`, 'g')

// Rounded to whole nanoseconds so that "1.1s" is 1100 ms, not 1100.0000000000002.
const roundMs = (ms: number) => Math.round(ms * 1e6) / 1e6

function durationMs(text: string): number | undefined {
  if (SECONDS_RE.test(text)) return roundMs(Number(text) * 1000)
  if (!GO_DURATION_RE.test(text)) return undefined
  let total = 0
  for (const [, amount, unit] of text.matchAll(GO_PART_RE)) {
    total += Number(amount) * (UNIT_MS[unit ?? ''] ?? Number.NaN)
  }
  return roundMs(total)
}

/** A duration in milliseconds: seconds ("30", "0.5") or Go syntax ("300ms", "2h45m"). */
export function parseDuration(raw: string, options: { positive?: boolean } = {}): Parsed<number> {
  const ms = durationMs(raw.trim())
  if (ms !== undefined && Number.isFinite(ms) && (!options.positive || ms > 0)) return ok(ms)
  const kind = options.positive ? 'a positive duration' : 'a duration'
  return notA(`${kind} (seconds such as 30 or 0.5, or with units ns us ms s m h such as 2h45m)`)
}

/** Comma-separated, trimmed, empty members dropped. */
export function parseList(raw: string): string[] {
  return raw
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')
}

export function parseOneOf<T extends string>(raw: string, allowed: readonly T[]): Parsed<T> {
  const found = allowed.find((option) => option === raw.trim())
  return found === undefined ? notA(`one of ${allowed.join(', ')}`) : ok(found)
}

/** A non-empty list whose members all come from `allowed`, without duplicates. */
export function parseListOf<T extends string>(raw: string, allowed: readonly T[]): Parsed<T[]> {
  const picked = allowed.filter((option) => parseList(raw).includes(option))
  const unknown = parseList(raw).filter((item) => !(allowed as readonly string[]).includes(item))
  if (picked.length > 0 && unknown.length === 0) return ok(picked)
  return notA(`a non-empty comma-separated list of ${allowed.join(', ')}`)
}

/** Seconds until expiry; `-1` or empty means never (undefined). */
/** Default lifetimes up to 100 years: expiries are stored as microseconds and end in 2255. */
const MAX_EXPIRATION_SECS = 3_153_600_000

export function parseExpiration(raw: string): Parsed<number | undefined> {
  const text = raw.trim()
  if (text === '' || text === '-1') return ok(undefined)
  const seconds = parseInteger(text, { min: 1, max: MAX_EXPIRATION_SECS })
  return seconds.ok
    ? seconds
    : notA(`a number of seconds from 1 to ${MAX_EXPIRATION_SECS} (100 years), or -1 for never`)
}

/** `host:port`, `[ipv6]:port`, or `:port` for all interfaces; port 0 asks for an ephemeral one. */
export function parseListenAddress(raw: string): Parsed<ListenAddress> {
  const match = /^(?:\[([^\]]+)\]|([^:[\]]*)):(\d{1,5})$/.exec(raw.trim())
  const port = Number(match?.[3])
  if (match && port <= 65535) return ok({ host: match[1] ?? (match[2] || '0.0.0.0'), port })
  return notA('host:port (such as 0.0.0.0:8123, [::1]:8123 or :8123) with a port from 0 to 65535')
}

/** The trimmed content of a secret file (`…_FILE` variables). */
export function readSecretFile(file: string): Parsed<string> {
  try {
    const content = readFileSync(file.trim(), 'utf8').trim()
    return content === '' ? notA('a file with a non-empty value') : ok(content)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown error'
    return notA(`a readable file (${code})`)
  }
}

type Names = string | readonly string[]

/**
 * Reads variables from the sources in order (the first source that sets a variable wins) and
 * records a problem instead of throwing, so every bad value is reported at once. `names` holds a
 * variable and its alternative spellings (alias, `…_FILE`); setting two of them in one source is
 * a problem. An empty value counts as unset, except where `keepEmpty` says it is meaningful.
 */
export function createReader(
  sources: readonly Source[],
  problems: string[],
  warnings: string[] = [],
) {
  const find = finder(sources, problems)

  function value<T>(names: Names, parse: Parse<T>, fallback: T, keepEmpty = false): T {
    const found = find(typeof names === 'string' ? [names] : names, keepEmpty)
    if (found === undefined) return fallback
    const parsed = parse(found.raw, found.name)
    if (parsed.ok) return parsed.value
    problems.push(`${found.label}: ${JSON.stringify(found.raw.trim())} is not ${parsed.expected}`)
    return fallback
  }

  /**
   * A setting accepted only for compatibility (config.md §2.6): it changes nothing here, so a
   * value we do not know is a warning for the log, never a failed start.
   */
  function compat<T>(name: string, parse: Parse<T>, fallback: T): T {
    const found = find([name], false)
    if (found === undefined) return fallback
    const parsed = parse(found.raw, found.name)
    if (parsed.ok) return parsed.value
    warnings.push(
      `${found.label}: ${JSON.stringify(found.raw.trim())} is not ${parsed.expected}; the setting is accepted for compatibility only and ignored`,
    )
    return fallback
  }

  return {
    ...typedReaders(value),
    value,
    compat,
    problem: (message: string) => void problems.push(message),
    isSet: (name: string) => find([name], false) !== undefined,
  }
}

/** Finds the first source that sets one of `names`; two of them in one source is a problem. */
function finder(sources: readonly Source[], problems: string[]) {
  return (names: readonly string[], keepEmpty: boolean) => {
    for (const { values, where } of sources) {
      const given = names.filter((name) => {
        const raw = values[name]
        return raw !== undefined && (keepEmpty || raw.trim() !== '')
      })
      if (given.length > 1) {
        problems.push(`${given.join(' and ')}${where}: set only one of them`)
        return undefined
      }
      const name = given[0]
      if (name !== undefined) return { name, raw: values[name] ?? '', label: `${name}${where}` }
    }
    return undefined
  }
}

type ReadValue = <T>(names: Names, parse: Parse<T>, fallback: T, keepEmpty?: boolean) => T

function typedReaders(value: ReadValue) {
  return {
    string: (names: Names, fallback: string) => value(names, (raw) => ok(raw.trim()), fallback),
    /** A secret, given directly (taken as is) or as `<name>_FILE` (trimmed file content). */
    secret: (name: string, fallback: string) =>
      value(
        [name, `${name}_FILE`],
        (raw, given) => (given === name ? ok(raw) : readSecretFile(raw)),
        fallback,
      ),
    bool: (names: Names, fallback: boolean) => value(names, parseBoolean, fallback),
    int: (names: Names, fallback: number, range: Range = {}) =>
      value(names, (raw) => parseInteger(raw, range), fallback),
    number: (names: Names, fallback: number, range: Range = {}) =>
      value(names, (raw) => parseNumber(raw, range), fallback),
    duration: (names: Names, fallbackMs: number, options: { positive?: boolean } = {}) =>
      value(names, (raw) => parseDuration(raw, options), fallbackMs),
    oneOf: <T extends string>(names: Names, allowed: readonly T[], fallback: T): T =>
      value(names, (raw) => parseOneOf(raw, allowed), fallback),
    list: (names: Names, fallback: readonly string[]): readonly string[] =>
      value(names, (raw) => ok(parseList(raw)), fallback, true),
    listOf: <T extends string>(names: Names, allowed: readonly T[], fallback: readonly T[]) =>
      value<readonly T[]>(names, (raw) => parseListOf(raw, allowed), fallback, true),
    expiration: (name: string) => value(name, parseExpiration, undefined, true),
    address: (name: string, fallback: ListenAddress) => value(name, parseListenAddress, fallback),
  }
}

export type Reader = ReturnType<typeof createReader>

function tomlScalar(value: TomlValue): string | undefined {
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') {
    return String(value)
  }
  if (!Array.isArray(value)) return undefined
  const items = value.map(tomlScalar)
  return items.every((item) => item !== undefined) ? items.join(',') : undefined
}

const isTable = (value: TomlValue): value is TomlTable =>
  typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date)

/**
 * Turns a parsed config.toml into variables: `[db.gc] retention_period` becomes
 * `SVC_DB_GC_RETENTION_PERIOD`, top-level `devmode` becomes `SVC_DEVMODE`. Arrays become lists.
 */
export function tomlToVariables(
  table: TomlTable,
  problems: string[],
  prefix = 'SVC',
): Record<string, string> {
  const variables: Record<string, string> = {}
  for (const [key, value] of Object.entries(table)) {
    const name = `${prefix}_${key.toUpperCase()}`
    if (isTable(value)) {
      Object.assign(variables, tomlToVariables(value, problems, name))
      continue
    }
    const text = tomlScalar(value)
    if (text === undefined)
      problems.push(
        `${name} (config.toml): unsupported value; use a string, number, boolean or array of them`,
      )
    else variables[name] = text
  }
  return variables
}
