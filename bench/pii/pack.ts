// bench/pii/pack.ts: what a language pack provides, and the generator of values a template draws from
import { ascii, type Ent, ent, type Language, type Part, phone } from './build.ts'
import * as v from './values.ts'

export type Template = Readonly<{ id: string; make: (g: Gen) => Part[] }>

/** The vocabulary and templates of one language. Every list is written for this set. */
export type Pack = Readonly<{
  language: Language
  first: readonly string[]
  last: readonly string[]
  /** A full name as people of this language write it (e.g. two surnames in Spanish). */
  fullName: (g: Gen) => string
  address: (g: Gen) => string
  cities: readonly string[]
  companies: readonly string[]
  products: readonly string[]
  /** Public figures with the role they act in. */
  figures: readonly (readonly [string, string])[]
  months: readonly string[]
  dob: (g: Gen, d: v.DateParts) => string
  date: (g: Gen, d: v.DateParts) => string
  mailDomains: readonly string[]
  roleMailboxes: readonly string[]
  phoneCountries: readonly string[]
  passportCountry: 'US' | 'GB' | 'DE' | 'FR' | 'ES'
  nationalIds: readonly ((g: Gen, valid: boolean) => Ent | string)[]
  pii: readonly Template[]
  clean: readonly Template[]
  /** Frames for long documents: the opening and closing lines around several sentences. */
  frames: readonly Template[]
}>

export type Gen = ReturnType<typeof generator>

export function generator(rng: v.Rng, pack: () => Pack) {
  const p = pack
  const pick = <T>(list: readonly T[]) => v.pick(rng, list)
  const g = {
    rng,
    pick,
    int: (min: number, max: number) => v.int(rng, min, max),
    chance: (x: number) => v.chance(rng, x),
    first: () => pick(p().first),
    last: () => pick(p().last),
    fullNameText: (): string => p().fullName(g),
    name: (): Ent => ent('NAME', p().fullName(g)),
    firstName: () => ent('NAME', pick(p().first)),
    personalEmail(first: string = g.first(), last: string = g.last()): Ent {
      const f = ascii(first)
      const l = ascii(last)
      const local = pick([
        `${f}.${l}`,
        `${f}${l}`,
        `${f[0]}${l}`,
        `${f}.${l}${v.int(rng, 1, 99)}`,
        `${f}_${l}`,
        `${l}.${f}`,
        `${f}${v.int(rng, 70, 99)}`,
      ])
      return ent('EMAIL', `${local}@${pick(p().mailDomains)}`)
    },
    workEmail(first: string = g.first(), last: string = g.last()): Ent {
      const company = ascii(pick(p().companies).split(' ')[0] ?? 'acme')
      return ent(
        'EMAIL',
        `${ascii(first)}.${ascii(last)}@${company}.${pick(['com', 'de', 'es', 'fr', 'co.uk', 'io'])}`,
      )
    },
    email: (): Ent => (v.chance(rng, 0.75) ? g.personalEmail() : g.workEmail()),
    roleEmail: () => {
      const company = ascii(pick(p().companies).split(' ')[0] ?? 'acme')
      return `${pick(p().roleMailboxes)}@${company}.${pick(['com', 'de', 'es', 'fr', 'io', 'org'])}`
    },
    phone: (country = pick(p().phoneCountries)) => ent('PHONE', phone(rng, country)),
    address: (): Ent => ent('ADDRESS', p().address(g)),
    city: () => pick(p().cities),
    company: () => pick(p().companies),
    product: () => pick(p().products),
    figure: () => pick(p().figures),
    dob: (): Ent => ent('DATE_OF_BIRTH', p().dob(g, v.birthDate(rng))),
    date: (): string => p().date(g, v.recentDate(rng)),
    card: () => ent('CREDIT_DEBIT_NUMBER', v.cardNumber(rng)),
    badCard: () => v.cardNumber(rng, false),
    maskedCard: () => v.maskedCard(rng),
    ssn: () => ent('SSN', v.ssn(rng)),
    badSsn: () => v.ssn(rng, false),
    maskedSsn: () => v.maskedSsn(rng),
    iban: (country = pick(['DE', 'ES', 'FR', 'GB', 'NL', 'IT', 'BE'])) =>
      ent('INTERNATIONAL_BANK_ACCOUNT_NUMBER', v.iban(rng, country)),
    badIban: (country = pick(['DE', 'ES', 'FR', 'GB', 'NL'])) => v.iban(rng, country, false),
    ip: () => ent('IP_ADDRESS', v.chance(rng, 0.75) ? v.publicIpv4(rng) : v.publicIpv6(rng)),
    privateIp: () => v.privateIp(rng),
    version: () => v.version(rng),
    uuid: () => v.uuid(rng),
    sha: () => v.hex(rng, pick([32, 40, 64])),
    orderId: () => v.orderId(rng),
    timestamp: () => v.timestamp(rng),
    passport: () => ent('PASSPORT_NUMBER', v.passport(rng, p().passportCountry)),
    nationalId: (valid = true): Ent | string => pick(p().nationalIds)(g, valid),
    profileUrl(first: string = g.first(), last: string = g.last()): Ent {
      const slug = `${ascii(first)}-${ascii(last)}`
      return ent(
        'URL',
        pick([
          `https://www.linkedin.com/in/${slug}-${v.hex(rng, 6)}`,
          `https://www.facebook.com/${ascii(first)}.${ascii(last)}`,
          `https://github.com/${ascii(first)}${ascii(last)}`,
          `https://twitter.com/${ascii(first)}_${ascii(last)}`,
          `https://www.instagram.com/${ascii(first)}.${ascii(last)}${v.int(rng, 1, 99)}/`,
          `https://app.${ascii(pick(p().companies).split(' ')[0] ?? 'acme')}.com/reset?email=${ascii(first)}.${ascii(last)}%40${pick(p().mailDomains)}`,
          `https://portal.${ascii(pick(p().companies).split(' ')[0] ?? 'acme')}.com/users/${ascii(first)}.${ascii(last)}/profile`,
        ]),
      )
    },
    plainUrl: () =>
      pick([
        `https://docs.${ascii(pick(p().companies).split(' ')[0] ?? 'acme')}.com/guide/setup`,
        `https://status.${ascii(pick(p().companies).split(' ')[0] ?? 'acme')}.io`,
        `https://www.${ascii(pick(p().companies).split(' ')[0] ?? 'acme')}.com/products/${v.int(rng, 100, 999)}`,
        `https://github.com/${ascii(pick(p().companies).split(' ')[0] ?? 'acme')}/api/issues/${v.int(rng, 10, 9999)}`,
        `http://localhost:${v.int(rng, 3000, 9000)}/health`,
        `https://cdn.example.net/assets/${v.hex(rng, 8)}.js`,
      ]),
  }
  return g
}
