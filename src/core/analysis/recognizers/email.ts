// src/core/analysis/recognizers/email.ts: personal e-mail addresses (role and organisation mailboxes are not PII)
import type { Detection } from '../detector.ts'
import type { Recognizer } from '../recognizer.ts'

const LOCAL = /[A-Za-z0-9._%+-]/
const DOMAIN = /[A-Za-z0-9.-]/
const MAX_LOCAL = 64
const MAX_DOMAIN = 253

/** Mailboxes of a function, not a person (first part of the local part). */
const ROLES = new Set(
  `support info information noreply no-reply no_reply donotreply do-not-reply sales billing admin
  administrator help helpdesk hello hi team careers jobs privacy security orders order contact contacts
  webmaster postmaster hostmaster abuse marketing press media office service services customerservice
  customercare feedback enquiries inquiries hr accounts accounting finance legal compliance newsletter
  news notifications notification alerts alert mailer-daemon root it ops devops test shop store
  reservations reservation booking bookings events partners subscriptions returns invoices invoice
  payments payment mail email welcome community operations dpo gdpr ceo
  soporte contacto ventas facturacion atencionalcliente atencion clientes rrhh pedidos administracion
  informacion reservas prensa
  kontakt rechnung rechnungen bestellung bestellungen datenschutz presse kundenservice buchhaltung
  verwaltung vertrieb personal bewerbung anfrage zentrale empfang
  serviceclient commandes commande rh bonjour sav accueil compta comptabilite recrutement facturation
  clients reclamations`.split(/\s+/),
)

export function isRoleMailbox(local: string): boolean {
  const lower = local.toLowerCase()
  if (ROLES.has(lower)) return true
  const head = lower.split(/[._+-]/)[0] ?? ''
  return ROLES.has(head) || ROLES.has(lower.replace(/\d+$/, ''))
}

function spanAround(text: string, at: number): { begin: number; end: number } | undefined {
  let begin = at
  while (begin > 0 && at - begin < MAX_LOCAL && LOCAL.test(text[begin - 1] ?? '')) begin--
  let end = at + 1
  while (end < text.length && end - at < MAX_DOMAIN && DOMAIN.test(text[end] ?? '')) end++
  while (end > at + 1 && /[.-]/.test(text[end - 1] ?? '')) end--
  while (begin < at && /[.]/.test(text[begin] ?? '')) begin++
  if (begin === at || end === at + 1) return undefined
  const domain = text.slice(at + 1, end)
  if (!/\.[A-Za-z]{2,24}$/.test(domain) || domain.startsWith('.') || domain.includes('..'))
    return undefined
  return { begin, end }
}

/** Finds `@` and grows the address around it: linear, no regular expression over the whole text. */
export const recognizeEmails: Recognizer = ({ text }) => {
  const found: Detection[] = []
  for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', at + 1)) {
    const span = spanAround(text, at)
    if (span === undefined) continue
    const local = text.slice(span.begin, at)
    if (isRoleMailbox(local)) continue
    const value = text.slice(span.begin, span.end)
    found.push({ type: 'EMAIL', ...span, score: 0.9, normalized: value.toLowerCase() })
    at = span.end - 1
  }
  return found
}
