// bench/pii/structured.ts: language-neutral shapes of the set: JSON and CSV rows, log lines, bare values
import { type Ent, type Language, type Part, t } from './build.ts'
import type { Gen, Template } from './pack.ts'

type Keys = Readonly<
  Record<
    'name' | 'email' | 'phone' | 'address' | 'dob' | 'customer' | 'city' | 'status' | 'note',
    string
  >
>

const KEYS: Record<Language, Keys> = {
  en: {
    name: 'name',
    email: 'email',
    phone: 'phone',
    address: 'address',
    dob: 'date_of_birth',
    customer: 'customer',
    city: 'city',
    status: 'status',
    note: 'note',
  },
  es: {
    name: 'nombre',
    email: 'correo',
    phone: 'telefono',
    address: 'direccion',
    dob: 'fecha_nacimiento',
    customer: 'cliente',
    city: 'ciudad',
    status: 'estado',
    note: 'nota',
  },
  de: {
    name: 'name',
    email: 'email',
    phone: 'telefon',
    address: 'adresse',
    dob: 'geburtsdatum',
    customer: 'kunde',
    city: 'stadt',
    status: 'status',
    note: 'notiz',
  },
  fr: {
    name: 'nom',
    email: 'courriel',
    phone: 'telephone',
    address: 'adresse',
    dob: 'date_naissance',
    customer: 'client',
    city: 'ville',
    status: 'statut',
    note: 'remarque',
  },
}

/** A JSON string literal of an entity, the label on the characters between the quotes. */
const quoted = (e: Ent | string): Part[] => ['"', e, '"']
const json = (pairs: readonly (readonly [string, Part | number])[]): Part[] => {
  const parts: Part[] = ['{']
  pairs.forEach(([key, value], i) => {
    parts.push(`${i ? ',' : ''}"${key}":`)
    if (typeof value === 'number') parts.push(String(value))
    else parts.push(...quoted(value))
  })
  parts.push('}')
  return parts
}

export function structuredPii(lang: Language): Template[] {
  const k = KEYS[lang]
  return [
    {
      id: 'json-customer',
      make: (g: Gen) =>
        json([
          ['id', g.int(1000, 99999)],
          [k.name, g.name()],
          [k.email, g.email()],
          [k.phone, g.phone()],
          [k.status, 'active'],
        ]),
    },
    {
      id: 'json-shipping',
      make: (g: Gen) =>
        json([
          ['order_id', g.orderId()],
          [k.customer, g.name()],
          [k.address, g.address()],
          ['created_at', g.timestamp()],
        ]),
    },
    {
      id: 'json-kyc',
      make: (g: Gen) =>
        json([
          ['ref', g.uuid()],
          [k.dob, g.dob()],
          ['document', g.nationalId()],
          ['iban', g.iban()],
        ]),
    },
    {
      id: 'csv-people',
      make: (g: Gen) =>
        t`id,${k.name},${k.email},${k.city}\n${g.int(1, 9999)},${g.name()},${g.email()},${g.city()}\n${g.int(1, 9999)},${g.name()},${g.email()},${g.city()}`,
    },
    {
      id: 'csv-payments',
      make: (g: Gen) =>
        t`${g.timestamp()};${g.orderId()};${g.card()};${g.int(5, 999)}.${g.int(10, 99)};EUR`,
    },
    {
      id: 'log-login',
      make: (g: Gen) =>
        t`${g.timestamp()} INFO auth: login ok user=${g.email()} ip=${g.ip()} req=${g.uuid()}`,
    },
    {
      id: 'log-signup',
      make: (g: Gen) =>
        t`[${g.timestamp()}] WARN signup: duplicate account for ${g.email()} (phone ${g.phone()})`,
    },
    {
      id: 'log-access',
      make: (g: Gen) =>
        t`${g.ip()} - - [${g.timestamp()}] "GET /api/v2/orders/${g.int(100, 99999)} HTTP/1.1" 200 ${g.int(200, 9000)}`,
    },
    { id: 'bare-email', make: (g: Gen) => [g.personalEmail()] },
    { id: 'bare-phone', make: (g: Gen) => [g.phone()] },
    { id: 'bare-card', make: (g: Gen) => [g.card()] },
    { id: 'bare-name', make: (g: Gen) => t`${k.name}: ${g.name()}` },
    { id: 'bare-id', make: (g: Gen) => [g.nationalId()] },
    { id: 'bare-iban', make: (g: Gen) => [g.iban()] },
  ]
}

export function structuredClean(lang: Language): Template[] {
  const k = KEYS[lang]
  return [
    {
      id: 'json-order',
      make: (g: Gen) =>
        json([
          ['order_id', g.orderId()],
          ['sku', `${g.pick(['SKU', 'ART', 'REF'])}-${g.int(10000, 99999)}`],
          ['qty', g.int(1, 50)],
          [k.status, g.pick(['shipped', 'pending', 'cancelled'])],
          ['updated_at', g.timestamp()],
        ]),
    },
    {
      id: 'json-device',
      make: (g: Gen) =>
        json([
          ['device_id', g.uuid()],
          ['firmware', g.version()],
          ['ip', g.privateIp()],
          [k.city, g.city()],
        ]),
    },
    {
      id: 'json-company',
      make: (g: Gen) =>
        json([
          ['vendor', g.company()],
          ['contact', g.roleEmail()],
          ['product', g.product()],
          ['checksum', g.sha()],
        ]),
    },
    {
      id: 'csv-stock',
      make: (g: Gen) =>
        t`sku,product,qty,${k.city}\n${g.int(10000, 99999)},${g.product()},${g.int(1, 900)},${g.city()}\n${g.int(10000, 99999)},${g.product()},${g.int(1, 900)},${g.city()}`,
    },
    {
      id: 'csv-payments-masked',
      make: (g: Gen) =>
        t`${g.timestamp()};${g.orderId()};${g.maskedCard()};${g.int(5, 999)}.${g.int(10, 99)};EUR`,
    },
    {
      id: 'log-health',
      make: (g: Gen) =>
        t`${g.timestamp()} INFO worker-${g.int(1, 9)} heartbeat ok host=${g.privateIp()} build=${g.version()} req=${g.uuid()}`,
    },
    {
      id: 'log-error',
      make: (g: Gen) =>
        t`${g.timestamp()} ERROR payment: gateway timeout after ${g.int(100, 30000)}ms order=${g.orderId()} trace=${g.sha()}`,
    },
    {
      id: 'log-access-internal',
      make: (g: Gen) =>
        t`${g.privateIp()} - - [${g.timestamp()}] "POST /internal/metrics HTTP/1.1" 204 0 "${g.plainUrl()}"`,
    },
    { id: 'bare-role', make: (g: Gen) => [g.roleEmail()] },
    { id: 'bare-version', make: (g: Gen) => [g.version()] },
    { id: 'bare-order', make: (g: Gen) => [g.orderId()] },
    { id: 'bare-city', make: (g: Gen) => [g.city()] },
    { id: 'bare-uuid', make: (g: Gen) => [g.uuid()] },
    { id: 'bare-badid', make: (g: Gen) => [String(g.nationalId(false))] },
    { id: 'bare-company', make: (g: Gen) => [g.company()] },
    { id: 'bare-ts', make: (g: Gen) => [g.timestamp()] },
  ]
}
