// bench/pii/values.ts: the evaluation set's value makers: a seeded random source, checksummed identifiers and their look-alikes
// Every value is made here from the generator's own rules; nothing comes from a fake-data library.

export type Rng = () => number

/** mulberry32: a small seeded generator, so the set is the same on every run. */
export function seeded(seed: number): Rng {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** A list written as words separated by white space. */
export const words = (text: string): string[] => text.split(/\s+/).filter(Boolean)

export const int = (rng: Rng, min: number, max: number) => min + Math.floor(rng() * (max - min + 1))
export const pick = <T>(rng: Rng, list: readonly T[]): T =>
  list[Math.floor(rng() * list.length)] as T
export const chance = (rng: Rng, p: number) => rng() < p
export const digits = (rng: Rng, n: number) =>
  Array.from({ length: n }, () => String(int(rng, 0, 9))).join('')
export const pad = (n: number, width: number) => String(n).padStart(width, '0')

// ---- payment cards (ISO/IEC 7812 issuer prefixes, Luhn check digit) -------------------------

function luhnDigit(body: string): number {
  let sum = 0
  for (let i = 0; i < body.length; i++) {
    let d = Number(body[body.length - 1 - i])
    if (i % 2 === 0) {
      d *= 2
      if (d > 9) d -= 9
    }
    sum += d
  }
  return (10 - (sum % 10)) % 10
}

const CARD_PREFIXES = [
  { prefix: () => '4', length: 16 },
  { prefix: (rng: Rng) => String(int(rng, 51, 55)), length: 16 },
  { prefix: (rng: Rng) => String(int(rng, 2221, 2720)), length: 16 },
  { prefix: (rng: Rng) => pick(rng, ['34', '37']), length: 15 },
  { prefix: () => '6011', length: 16 },
  { prefix: (rng: Rng) => String(int(rng, 3528, 3589)), length: 16 },
] as const

function groupCard(number: string, sep: string): string {
  if (number.length === 15)
    return [number.slice(0, 4), number.slice(4, 10), number.slice(10)].join(sep)
  return number.match(/.{1,4}/g)?.join(sep) ?? number
}

export function cardNumber(rng: Rng, valid = true): string {
  const kind = pick(rng, CARD_PREFIXES)
  const prefix = kind.prefix(rng)
  const body = prefix + digits(rng, kind.length - prefix.length - 1)
  const check = luhnDigit(body)
  const last = valid ? check : (check + int(rng, 1, 9)) % 10
  return groupCard(body + String(last), pick(rng, [' ', ' ', '-', '']))
}

export function maskedCard(rng: Rng): string {
  const last = digits(rng, 4)
  return pick(rng, [
    `**** **** **** ${last}`,
    `XXXX-XXXX-XXXX-${last}`,
    `${pick(rng, ['4', '5'])}${digits(rng, 3)} ${digits(rng, 2)}** **** ${last}`,
    `ending in ${last}`,
    `•••• ${last}`,
  ])
}

// ---- US SSN (issuance rules: area not 000, 666 or 900-999; group not 00; serial not 0000) ----

export function ssn(rng: Rng, valid = true): string {
  let area = int(rng, 1, 899)
  if (area === 666) area = 667
  let group = int(rng, 1, 99)
  let serial = int(rng, 1, 9999)
  if (!valid) {
    const broken = int(rng, 0, 3)
    if (broken === 0) area = pick(rng, [0, 666, int(rng, 900, 999)])
    else if (broken === 1) group = 0
    else if (broken === 2) serial = 0
    else area = 0
  }
  const sep = pick(rng, ['-', '-', ' ', ''])
  return [pad(area, 3), pad(group, 2), pad(serial, 4)].join(sep)
}

export const maskedSsn = (rng: Rng) =>
  pick(rng, [`XXX-XX-${digits(rng, 4)}`, `***-**-${digits(rng, 4)}`, `xxx-xx-${digits(rng, 4)}`])

// ---- IBAN (ISO 13616, mod 97) ---------------------------------------------------------------

function mod97(numeric: string): number {
  let rest = 0
  for (const ch of numeric) rest = (rest * 10 + Number(ch)) % 97
  return rest
}

const toNumeric = (s: string) =>
  [...s].map((c) => (/[A-Z]/.test(c) ? String(c.charCodeAt(0) - 55) : c)).join('')

const BBAN: Record<string, (rng: Rng) => string> = {
  DE: (rng) => digits(rng, 18),
  ES: (rng) => digits(rng, 20),
  FR: (rng) => `${digits(rng, 10)}${digits(rng, 11)}${digits(rng, 2)}`,
  GB: (rng) => `${pick(rng, ['NWBK', 'BARC', 'LOYD', 'MIDL'])}${digits(rng, 14)}`,
  NL: (rng) => `${pick(rng, ['ABNA', 'INGB', 'RABO'])}${digits(rng, 10)}`,
  IT: (rng) => `${pick(rng, ['X', 'A', 'K'])}${digits(rng, 10)}${digits(rng, 12)}`,
  BE: (rng) => digits(rng, 12),
}

export function iban(rng: Rng, country: string, valid = true): string {
  const make = BBAN[country] ?? (BBAN.DE as (rng: Rng) => string)
  const bban = make(rng)
  const check = 98 - mod97(toNumeric(`${bban}${country}00`))
  const wrong = (check + int(rng, 1, 40)) % 97 || 11
  const raw = `${country}${pad(valid ? check : wrong, 2)}${bban}`
  return chance(rng, 0.6) ? (raw.match(/.{1,4}/g)?.join(' ') ?? raw) : raw
}

// ---- UK: National Insurance number and NHS number -------------------------------------------

const NINO_FIRST = 'ABCEGHJKLMNOPRSTWXYZ'
const NINO_SECOND = 'ABCEGHJKLMNPRSTWXYZ'
const NINO_BAD_PREFIXES = new Set(['BG', 'GB', 'NK', 'KN', 'TN', 'NT', 'ZZ'])

export function nino(rng: Rng, valid = true): string {
  let prefix = ''
  do prefix = pick(rng, [...NINO_FIRST]) + pick(rng, [...NINO_SECOND])
  while (NINO_BAD_PREFIXES.has(prefix))
  if (!valid) prefix = pick(rng, ['QQ', 'DF', 'BG', 'ZZ', 'GB'])
  const body = digits(rng, 6)
  const suffix = pick(rng, ['A', 'B', 'C', 'D'])
  return chance(rng, 0.5)
    ? `${prefix} ${body.slice(0, 2)} ${body.slice(2, 4)} ${body.slice(4)} ${suffix}`
    : `${prefix}${body}${suffix}`
}

export function nhsNumber(rng: Rng, valid = true): string {
  for (;;) {
    const body = digits(rng, 9)
    const sum = [...body].reduce((s, d, i) => s + Number(d) * (10 - i), 0)
    const check = 11 - (sum % 11)
    if (check === 10) continue
    const digit = check === 11 ? 0 : check
    const last = valid ? digit : (digit + int(rng, 1, 9)) % 10
    const n = `${body}${last}`
    return chance(rng, 0.6) ? `${n.slice(0, 3)} ${n.slice(3, 6)} ${n.slice(6)}` : n
  }
}

// ---- Spain: DNI/NIF and NIE (mod 23 control letter) ------------------------------------------

const DNI_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE'

export function dni(rng: Rng, valid = true): string {
  const n = int(rng, 1_000_000, 99_999_999)
  const letter = DNI_LETTERS[n % 23] as string
  const wrong = DNI_LETTERS[(n + int(rng, 1, 22)) % 23] as string
  return `${pad(n, 8)}${chance(rng, 0.2) ? '-' : ''}${valid ? letter : wrong}`
}

export function nie(rng: Rng, valid = true): string {
  const lead = int(rng, 0, 2)
  const n = int(rng, 0, 9_999_999)
  const letter = DNI_LETTERS[(lead * 10_000_000 + n) % 23] as string
  const wrong = DNI_LETTERS[(lead * 10_000_000 + n + int(rng, 1, 22)) % 23] as string
  return `${'XYZ'[lead]}${pad(n, 7)}${valid ? letter : wrong}`
}

// ---- France: NIR (numéro de sécurité sociale, key = 97 - n mod 97) --------------------------

export function nir(rng: Rng, valid = true): string {
  const sex = pick(rng, ['1', '2'])
  const year = pad(int(rng, 40, 99), 2)
  const month = pad(int(rng, 1, 12), 2)
  const dept = pad(int(rng, 1, 95), 2)
  const commune = pad(int(rng, 1, 990), 3)
  const order = pad(int(rng, 1, 999), 3)
  const body = `${sex}${year}${month}${dept}${commune}${order}`
  const key = 97 - mod97(body)
  const shownKey = pad(valid ? key : ((key + int(rng, 1, 50)) % 97) + 1, 2)
  return chance(rng, 0.6)
    ? `${sex} ${year} ${month} ${dept} ${commune} ${order} ${shownKey}`
    : `${body}${shownKey}`
}

// ---- Germany: Steuerliche Identifikationsnummer (ISO 7064 MOD 11,10) -------------------------

function mod1110(body: string): number {
  let product = 10
  for (const ch of body) {
    let sum = (Number(ch) + product) % 10
    if (sum === 0) sum = 10
    product = (sum * 2) % 11
  }
  const check = 11 - product
  return check === 10 ? 0 : check
}

export function germanTaxId(rng: Rng, valid = true): string {
  // The first ten digits: no leading zero, one digit twice (or thrice), the others once at most.
  for (;;) {
    const pool = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].sort(() => rng() - 0.5)
    const chosen = pool.slice(0, 9)
    const twice = chosen[int(rng, 0, 8)] as number
    const body = [...chosen, twice].sort(() => rng() - 0.5)
    if (body[0] === 0) continue
    const text = body.join('')
    const check = mod1110(text)
    const last = valid ? check : (check + int(rng, 1, 9)) % 10
    const id = `${text}${last}`
    return chance(rng, 0.3)
      ? `${id.slice(0, 2)} ${id.slice(2, 5)} ${id.slice(5, 8)} ${id.slice(8)}`
      : id
  }
}

// ---- passports (in context only) -------------------------------------------------------------

const LETTERS = 'ABCDEFGHJKLMNPRSTUVWXYZ'
const letters = (rng: Rng, n: number) =>
  Array.from({ length: n }, () => pick(rng, [...LETTERS])).join('')

export function passport(rng: Rng, country: 'US' | 'GB' | 'DE' | 'FR' | 'ES'): string {
  switch (country) {
    case 'US':
      return `${pick(rng, ['5', '4', '6', 'A'])}${digits(rng, 8)}`
    case 'GB':
      return digits(rng, 9)
    case 'DE':
      return `${pick(rng, ['C', 'F', 'G', 'H', 'J', 'K'])}${letters(rng, 1)}${digits(rng, 2)}${letters(rng, 2)}${digits(rng, 3)}`
    case 'FR':
      return `${digits(rng, 2)}${letters(rng, 2)}${digits(rng, 5)}`
    case 'ES':
      return `${letters(rng, 3)}${digits(rng, 6)}`
  }
}

// ---- network ---------------------------------------------------------------------------------

export function publicIpv4(rng: Rng): string {
  for (;;) {
    const a = int(rng, 1, 223)
    const b = int(rng, 0, 255)
    if (a === 10 || a === 127 || a === 0 || a >= 224) continue
    if (a === 172 && b >= 16 && b <= 31) continue
    if (a === 192 && b === 168) continue
    if (a === 169 && b === 254) continue
    if (a === 100 && b >= 64 && b <= 127) continue
    if (a === 192 || a === 198 || a === 203) continue
    return `${a}.${b}.${int(rng, 0, 255)}.${int(rng, 1, 254)}`
  }
}

export function publicIpv6(rng: Rng): string {
  const hex = () => int(rng, 0, 0xffff).toString(16)
  const head = pick(rng, ['2a02', '2001:4860', '2a01', '2600', '2a00', '2406'])
  const parts = head.split(':').length
  const rest = Array.from({ length: 8 - parts }, hex)
  if (chance(rng, 0.5)) {
    const at = int(rng, 1, 3)
    return `${head}:${rest.slice(0, at).join(':')}::${rest.slice(at + 2).join(':')}`
  }
  return `${head}:${rest.join(':')}`
}

export function privateIp(rng: Rng): string {
  return pick(rng, [
    `10.${int(rng, 0, 255)}.${int(rng, 0, 255)}.${int(rng, 1, 254)}`,
    `192.168.${int(rng, 0, 10)}.${int(rng, 1, 254)}`,
    `172.${int(rng, 16, 31)}.${int(rng, 0, 255)}.${int(rng, 1, 254)}`,
    '127.0.0.1',
    '0.0.0.0',
    '::1',
    `fe80::${int(rng, 0, 0xffff).toString(16)}:${int(rng, 0, 0xffff).toString(16)}`,
    '255.255.255.0',
    '255.255.0.0',
    `169.254.${int(rng, 0, 255)}.${int(rng, 1, 254)}`,
  ])
}

export const version = (rng: Rng) =>
  pick(rng, [
    `${int(rng, 1, 12)}.${int(rng, 0, 30)}.${int(rng, 0, 99)}`,
    `${int(rng, 1, 4)}.${int(rng, 0, 9)}.${int(rng, 0, 9)}.${int(rng, 0, 9999)}`,
    `v${int(rng, 1, 9)}.${int(rng, 0, 20)}.${int(rng, 0, 40)}`,
    `10.0.${int(rng, 10000, 22631)}.${int(rng, 1, 3000)}`,
  ])

// ---- things, not people ------------------------------------------------------------------------

const HEX = '0123456789abcdef'
export const hex = (rng: Rng, n: number) =>
  Array.from({ length: n }, () => HEX[int(rng, 0, 15)]).join('')
export const uuid = (rng: Rng) =>
  `${hex(rng, 8)}-${hex(rng, 4)}-4${hex(rng, 3)}-${pick(rng, ['8', '9', 'a', 'b'])}${hex(rng, 3)}-${hex(rng, 12)}`

export const orderId = (rng: Rng) =>
  pick(rng, [
    `ORD-${int(rng, 2019, 2025)}-${digits(rng, 6)}`,
    `#${digits(rng, 7)}`,
    `${letters(rng, 2)}-${digits(rng, 8)}`,
    `INV${digits(rng, 9)}`,
    digits(rng, int(rng, 9, 16)),
    `TCK-${digits(rng, 5)}`,
    `PO ${digits(rng, 10)}`,
  ])

export function timestamp(rng: Rng): string {
  const y = int(rng, 2018, 2025)
  const mo = pad(int(rng, 1, 12), 2)
  const d = pad(int(rng, 1, 28), 2)
  const t = `${pad(int(rng, 0, 23), 2)}:${pad(int(rng, 0, 59), 2)}:${pad(int(rng, 0, 59), 2)}`
  return pick(rng, [
    `${y}-${mo}-${d}T${t}Z`,
    `${y}-${mo}-${d} ${t}`,
    `${y}-${mo}-${d}T${t}.${digits(rng, 3)}+01:00`,
    `${d}/${mo}/${y} ${t}`,
    String(int(rng, 1_500_000_000, 1_760_000_000)),
  ])
}

export type DateParts = Readonly<{ y: number; m: number; d: number }>

export const birthDate = (rng: Rng): DateParts => ({
  y: int(rng, 1938, 2006),
  m: int(rng, 1, 12),
  d: int(rng, 1, 28),
})
export const recentDate = (rng: Rng): DateParts => ({
  y: int(rng, 2019, 2026),
  m: int(rng, 1, 12),
  d: int(rng, 1, 28),
})
