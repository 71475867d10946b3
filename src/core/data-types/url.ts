// src/core/data-types/url.ts: URL validation (absolute or host-relative) and normalization (scheme, host, default port)
import { ownValue } from '../own.ts'
import { type Check, invalid, valid } from './data-type.ts'

const DEFAULT_PORTS: Readonly<Record<string, string>> = {
  http: '80',
  https: '443',
  ws: '80',
  wss: '443',
  ftp: '21',
}

/** `example.com/path`, `localhost:8080/x`: a host name with a dot (or localhost), then a path. */
const HOST_RELATIVE = /^([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*)(:\d{1,5})?([/?#][\s\S]*)?$/

const WITH_AUTHORITY =
  /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\/([^/?#]*@)?(\[[^\]]*\]|[^/?#:]*)(?::(\d*))?([\s\S]*)$/

function normalizeHostRelative(match: RegExpExecArray): string {
  const [, host = '', port = '', rest = ''] = match
  return `${host.toLowerCase()}${port}${rest}`
}

/** Scheme and host lower-cased; the scheme's default port (or an empty port) removed. */
function normalizeAbsolute(text: string): string {
  const match = WITH_AUTHORITY.exec(text)
  if (match === null) {
    const colon = text.indexOf(':')
    return text.slice(0, colon).toLowerCase() + text.slice(colon)
  }
  const [, rawScheme = '', userinfo = '', host = '', port = '', rest = ''] = match
  const scheme = rawScheme.toLowerCase()
  const keepPort = port !== '' && ownValue(DEFAULT_PORTS, scheme) !== port
  return `${scheme}://${userinfo}${host.toLowerCase()}${keepPort ? `:${port}` : ''}${rest}`
}

export function checkUrl(text: string): Check {
  if (text === '' || /\s/.test(text)) return invalid('a URL is expected')
  const relative = HOST_RELATIVE.exec(text)
  const host = relative?.[1]?.toLowerCase()
  if (relative && host && (host.includes('.') || host === 'localhost')) {
    if (URL.canParse(`http://${text}`)) return valid(normalizeHostRelative(relative))
  }
  if (/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(text) && URL.canParse(text)) {
    return valid(normalizeAbsolute(text))
  }
  return invalid('an absolute or host-relative URL is expected')
}
