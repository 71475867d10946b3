// src/core/data-types/email.ts: EMAIL and EMAIL_STRICT validation (WHATWG) and normalization (RFC 5322 address form)
import { type Check, invalid, valid } from './data-type.ts'

/** The HTML living standard's "valid e-mail address" expression. */
const WHATWG_EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/

/**
 * RFC 5322 §3.4.1: a local part that is not a dot-atom (leading, trailing or doubled dots) is
 * written as a quoted string. WHATWG local parts hold no `"` or `\`, so nothing needs escaping.
 */
function formatLocalPart(local: string): string {
  const isDotAtom = !local.startsWith('.') && !local.endsWith('.') && !local.includes('..')
  return isDotAtom ? local : `"${local}"`
}

/**
 * The address as an RFC 5322 `<local@domain>` without a display name, then without the angle
 * brackets (data-model §7.2): in practice, the address with a quoted local part when needed.
 */
export function checkEmail(text: string): Check {
  if (!WHATWG_EMAIL.test(text)) return invalid('an e-mail address is expected')
  const at = text.lastIndexOf('@')
  return valid(`${formatLocalPart(text.slice(0, at))}${text.slice(at)}`)
}

/** As EMAIL, then lower-cased with any `+tag` sub-address removed from the local part. */
export function checkEmailStrict(text: string): Check {
  if (!WHATWG_EMAIL.test(text)) return invalid('an e-mail address is expected')
  const lower = text.toLowerCase()
  const at = lower.lastIndexOf('@')
  const local = lower.slice(0, at)
  const plus = local.indexOf('+')
  const base = plus > 0 ? local.slice(0, plus) : local
  return valid(`${formatLocalPart(base)}${lower.slice(at)}`)
}
