// src/core/analysis/limits.ts: what one analysis call may carry, and the checks of a request's texts and options
import { VaultError } from '../errors.ts'
import { LANGUAGES, type Language } from './detector.ts'
import { ENTITY_TYPES, type EntityType, toEntityType } from './entity-types.ts'

/** Texts per call (the bulk limit of the other data operations). */
export const MAX_TEXTS = 1000
/** Characters (UTF-16 code units) per text. */
export const MAX_TEXT_LENGTH = 262_144
/** Characters of all texts of one call. */
export const MAX_TOTAL_LENGTH = 2_097_152

/** 400 for too many texts, 413 for a text or a call above the character limits. */
export function checkTexts(texts: readonly string[]): void {
  if (texts.length > MAX_TEXTS)
    throw new VaultError('invalidRequest', {
      message: `A call may analyse at most ${MAX_TEXTS} texts; split the texts over several calls.`,
      context: { field: 'text', max: String(MAX_TEXTS) },
    })
  let total = 0
  for (const [index, text] of texts.entries()) {
    total += text.length
    if (text.length > MAX_TEXT_LENGTH)
      throw new VaultError('payloadTooLarge', {
        message: `Each text may have at most ${MAX_TEXT_LENGTH} characters; shorten or split text ${index}.`,
        context: { field: `text[${index}]`, max: String(MAX_TEXT_LENGTH) },
      })
  }
  if (total > MAX_TOTAL_LENGTH)
    throw new VaultError('payloadTooLarge', {
      message: `The texts of one call may have at most ${MAX_TOTAL_LENGTH} characters in all; send fewer texts per call.`,
      context: { field: 'text', max: String(MAX_TOTAL_LENGTH) },
    })
}

/** The request's language (`es`, `ES`, `es-MX`…), or undefined (detected per text); 400 naming the supported ones. */
export function languageOf(value: string | undefined): Language | undefined {
  if (value === undefined) return undefined
  const match = /^([a-z]{2})(?:[-_][a-z0-9]{2,8})?$/i.exec(value.trim())
  const language = match?.[1]?.toLowerCase()
  if (language !== undefined && (LANGUAGES as readonly string[]).includes(language))
    return language as Language
  throw new VaultError('invalidRequest', {
    message: `The language is not supported; use one of ${LANGUAGES.join(', ')}.`,
    context: { field: 'language', supported: LANGUAGES.join(',') },
  })
}

/** An entity type named by a client (synonyms accepted); 400 naming the supported ones. */
export function entityTypeOf(name: string, field: string): EntityType {
  const type = toEntityType(name)
  if (type !== undefined) return type
  throw new VaultError('invalidRequest', {
    message: `The entity type in ${field} is not supported; use one of ${ENTITY_TYPES.join(', ')}.`,
    context: { field, supported: ENTITY_TYPES.join(',') },
  })
}
