// src/http/json-body.ts: the JSON body parser: Fastify's (prototype-poisoning safe) behind a nesting limit
import type { FastifyInstance } from 'fastify'
import { VaultError } from '../core/errors.ts'

/**
 * The deepest nesting of arrays and objects a JSON body may have. Every body of the API needs far
 * fewer levels; the limit keeps recursive code (validation, query fingerprints, canonical JSON)
 * away from a stack overflow on a body nested thousands deep.
 */
export const MAX_JSON_DEPTH = 64

const OPEN_BRACE = 0x7b
const OPEN_BRACKET = 0x5b
const CLOSE_BRACE = 0x7d
const CLOSE_BRACKET = 0x5d
const QUOTE = 0x22
const BACKSLASH = 0x5c

/**
 * Whether `text` nests arrays and objects deeper than `limit`: one pass over the text, brackets
 * inside strings ignored. Malformed JSON is left to the parser.
 */
export function isNestedDeeper(text: string, limit: number): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === BACKSLASH) i++
      else if (c === QUOTE) inString = false
    } else if (c === QUOTE) inString = true
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > limit) return true
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--
  }
  return false
}

/** Replaces the `application/json` parser with Fastify's own behind the nesting limit. */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error')
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = body as string
    if (isNestedDeeper(text, MAX_JSON_DEPTH)) {
      done(
        new VaultError('invalidRequest', {
          message: `The request body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep; flatten it.`,
          context: { field: 'body' },
        }),
        undefined,
      )
      return
    }
    parse(req, text, done)
  })
}
