// src/core/actions/template.ts: http_call templates: `{{ .var }}`, `{{ .var.prop }}`, pipelines `{{ .var | fn }}`

import { VaultError } from '../errors.ts'
import { ownValue } from '../own.ts'

type Action = Readonly<{ variable: string; path: readonly string[]; functions: readonly string[] }>

/** A parsed template: literal text and actions, alternating. */
export type Template = readonly (string | Action)[]

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/

/** The pipeline functions (data-model §10.2). */
const FUNCTIONS: Readonly<Record<string, (text: string) => string>> = {
  escape_quotes: (text) => escapeQuotes(text),
}

/** `"` and `\` escaped, so a value can sit inside a JSON string. */
function escapeQuotes(text: string): string {
  return text.replace(/["\\]/g, (c) => `\\${c}`)
}

function invalidTemplate(field: string, why: string): VaultError {
  return new VaultError('invalidRequest', {
    message: `The ${field} template is invalid: ${why}.`,
    context: { field },
  })
}

function parseAction(field: string, inner: string): Action {
  const [head = '', ...pipes] = inner.split('|').map((part) => part.trim())
  if (!head.startsWith('.'))
    throw invalidTemplate(field, 'an action must start with a variable, as in {{ .name }}')
  const [variable = '', ...path] = head.slice(1).split('.')
  for (const name of [variable, ...path]) {
    if (!IDENTIFIER.test(name))
      throw invalidTemplate(
        field,
        `${JSON.stringify(head.slice(0, 60))} is not a variable reference`,
      )
  }
  for (const fn of pipes) {
    if (!Object.hasOwn(FUNCTIONS, fn)) {
      throw invalidTemplate(
        field,
        `the function ${JSON.stringify(fn.slice(0, 60))} is unknown (known: ${Object.keys(FUNCTIONS).join(', ')})`,
      )
    }
  }
  return { variable, path, functions: pipes }
}

/** Parses a template; 400 ERR1012 naming the field for an unclosed action, syntax or function. */
export function parseTemplate(field: string, text: string): Template {
  const parts: (string | Action)[] = []
  let rest = text
  for (;;) {
    const open = rest.indexOf('{{')
    if (open < 0) break
    const close = rest.indexOf('}}', open + 2)
    if (close < 0) throw invalidTemplate(field, 'an action {{ is not closed with }}')
    if (open > 0) parts.push(rest.slice(0, open))
    parts.push(parseAction(field, rest.slice(open + 2, close)))
    rest = rest.slice(close + 2)
  }
  if (rest !== '') parts.push(rest)
  return parts
}

/** The variables a template refers to. */
export function variablesOf(template: Template): string[] {
  return template.flatMap((part) => (typeof part === 'string' ? [] : [part.variable]))
}

function lookup(field: string, action: Action, variables: Readonly<Record<string, unknown>>) {
  let value = ownValue(variables, action.variable)
  for (const name of action.path) {
    const isObject = value !== null && typeof value === 'object' && !Array.isArray(value)
    if (!isObject || !Object.hasOwn(value as object, name)) {
      throw invalidTemplate(field, `the variable ${action.variable} has no property ${name}`)
    }
    value = (value as Record<string, unknown>)[name]
  }
  return value
}

/**
 * Renders a template. A string value is escaped (`"` and `\`) when printed as it is; other
 * values print as JSON; a pipeline's functions get the unescaped text and their result is
 * printed as computed (data-model §10.2).
 */
export function renderTemplate(
  field: string,
  template: Template,
  variables: Readonly<Record<string, unknown>>,
): string {
  let out = ''
  for (const part of template) {
    if (typeof part === 'string') {
      out += part
      continue
    }
    const value = lookup(field, part, variables)
    const text = typeof value === 'string' ? value : JSON.stringify(value ?? null)
    if (part.functions.length === 0) {
      out += typeof value === 'string' ? escapeQuotes(text) : text
      continue
    }
    out += part.functions.reduce(
      (current, fn) => (FUNCTIONS[fn] as (t: string) => string)(current),
      text,
    )
  }
  return out
}
