// bench/pii/build.ts: turns template parts into a labelled text, and the value makers a template calls
import { type CountryCode, parsePhoneNumberFromString } from 'libphonenumber-js/max'
import * as v from './values.ts'

export type EntityType =
  | 'NAME'
  | 'EMAIL'
  | 'PHONE'
  | 'ADDRESS'
  | 'CREDIT_DEBIT_NUMBER'
  | 'SSN'
  | 'INTERNATIONAL_BANK_ACCOUNT_NUMBER'
  | 'IP_ADDRESS'
  | 'URL'
  | 'DATE_OF_BIRTH'
  | 'PASSPORT_NUMBER'
  | 'UK_NATIONAL_INSURANCE_NUMBER'
  | 'UK_NATIONAL_HEALTH_SERVICE_NUMBER'
  | 'ES_NIF'
  | 'FR_NIR'
  | 'DE_TAX_ID'

export type Entity = Readonly<{ type: EntityType; begin: number; end: number }>
export type Labelled = Readonly<{ text: string; entities: readonly Entity[] }>
export type Ent = Readonly<{ type: EntityType; text: string }>
export type Part = string | Ent
export type Language = 'en' | 'es' | 'de' | 'fr'

export function build(parts: readonly Part[]): Labelled {
  let text = ''
  const entities: Entity[] = []
  for (const part of parts) {
    if (typeof part === 'string') text += part
    else {
      entities.push({ type: part.type, begin: text.length, end: text.length + part.text.length })
      text += part.text
    }
  }
  return { text, entities }
}

/** A tagged template: `t\`Hi ${name}\`` keeps each interpolated entity as a labelled part. */
export function t(strings: TemplateStringsArray, ...values: readonly (Part | number)[]): Part[] {
  const parts: Part[] = []
  strings.forEach((s, i) => {
    parts.push(s)
    const value = values[i]
    if (value !== undefined) parts.push(typeof value === 'number' ? String(value) : value)
  })
  return parts
}

export const ent = (type: EntityType, text: string): Ent => ({ type, text })

/** Strips accents for e-mail local parts and URL slugs. */
export const ascii = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ß/g, 'ss')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '')

const PHONE_SHAPES: Record<string, (rng: v.Rng) => string> = {
  US: (rng) =>
    `${v.pick(rng, ['212', '415', '312', '617', '206', '303', '512', '702', '404', '305', '646', '818'])}${v.int(rng, 2, 9)}${v.digits(rng, 6)}`,
  GB: (rng) =>
    v.pick(rng, [
      `7${v.pick(rng, ['4', '5', '7', '8', '9'])}${v.digits(rng, 8)}`,
      `20${v.pick(rng, ['7', '8', '3'])}${v.digits(rng, 7)}`,
      `161${v.int(rng, 2, 9)}${v.digits(rng, 6)}`,
    ]),
  DE: (rng) =>
    v.pick(rng, [
      `15${v.pick(rng, ['1', '2', '7', '9'])}${v.digits(rng, 8)}`,
      `17${v.digits(rng, 1)}${v.digits(rng, 7)}`,
      `30${v.int(rng, 2, 9)}${v.digits(rng, 7)}`,
      `89${v.int(rng, 2, 9)}${v.digits(rng, 6)}`,
      `40${v.int(rng, 2, 9)}${v.digits(rng, 7)}`,
    ]),
  FR: (rng) => `${v.pick(rng, ['6', '7', '1', '4', '5'])}${v.digits(rng, 8)}`,
  ES: (rng) => `${v.pick(rng, ['6', '7', '91', '93', '96'])}${v.digits(rng, 7)}`.slice(0, 9),
  IN: (rng) => `${v.int(rng, 7, 9)}${v.digits(rng, 9)}`,
  AU: (rng) => v.pick(rng, [`4${v.digits(rng, 8)}`, `2${v.int(rng, 8, 9)}${v.digits(rng, 7)}`]),
  BR: (rng) => `${v.pick(rng, ['11', '21', '31', '41'])}9${v.digits(rng, 8)}`,
}

/** A phone number valid for `country`, in one of its international or national spellings. */
export function phone(rng: v.Rng, country: string): string {
  for (;;) {
    const nsn = (PHONE_SHAPES[country] ?? (PHONE_SHAPES.US as (r: v.Rng) => string))(rng)
    const parsed = parsePhoneNumberFromString(nsn, country as CountryCode)
    if (!parsed?.isValid()) continue
    const intl = parsed.formatInternational()
    const national = parsed.formatNational()
    return v.pick(rng, [
      intl,
      intl,
      national,
      national,
      parsed.number,
      intl.replace(/ /g, '-'),
      national.replace(/ /g, '.'),
      country === 'US'
        ? `${parsed.nationalNumber.slice(0, 3)}-${parsed.nationalNumber.slice(3, 6)}-${parsed.nationalNumber.slice(6)}`
        : national,
    ])
  }
}

export type DateStyle = (d: v.DateParts, rng: v.Rng) => string
