// scripts/errors-doc-render.ts: renders the error catalogue as Markdown (shared by the script and its test)
import { ERRORS, type ErrorName } from '../src/contract/errors.ts'

export function renderErrorsDoc(): string {
  const names = (Object.keys(ERRORS) as ErrorName[]).sort((a, b) => {
    const [x, y] = [ERRORS[a], ERRORS[b]]
    return x.code.localeCompare(y.code) || x.status - y.status || a.localeCompare(b)
  })
  const rows = names.map((name) => {
    const { code, status, title } = ERRORS[name]
    return `| \`${code}\` | ${status} | \`${name}\` | ${title} |`
  })
  return [
    '# Error codes',
    '',
    'Generated from `src/contract/errors.ts` by `npm run docs:errors`; do not edit by hand.',
    '',
    'Every error response has the body `{ "error_code", "message", "context" }` (plus `error_url`',
    'when `SVC_SERVICE_ERROR_URL_BASE` is set). Codes are permanent: a code is never reused for',
    'another meaning. `ERR9xxx` codes are provisional numbers for conditions the reference API does',
    'not number (see the spec, `errors.md`).',
    '',
    'This holds for errors raised before a route runs too, always with `application/json`:',
    'malformed percent-encoding in the path (400), an over-long URL or path parameter (414), an',
    'unknown path (404) or method (405), a CORS preflight without `Origin` or',
    '`Access-Control-Request-Method` (400), an unsupported content type (400), a body over',
    '`SVC_SERVICE_BODY_LIMIT_BYTES` (413), malformed JSON, JSON with a `__proto__` key or nested',
    'more than 64 levels deep (400), and requests the HTTP parser refuses (unknown method, malformed',
    'or oversized headers: 400 or 431, after which the connection is closed).',
    '',
    '| Code | Status | Name in code | Meaning |',
    '|---|---|---|---|',
    ...rows,
    '',
  ].join('\n')
}
