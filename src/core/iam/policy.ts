// src/core/iam/policy.ts: policies, their operations, resource strings and `*` patterns (spec iam.md §3–4)

/** Policy operations a data call is checked for. */
export const POLICY_OPERATIONS = [
  'read',
  'write',
  'delete',
  'search',
  'tokenize',
  'detokenize',
  'encrypt',
  'decrypt',
  'hash',
  'invoke',
  'stats',
] as const

export type PolicyOperation = (typeof POLICY_OPERATIONS)[number]

/** Operations older configurations may list: accepted, and never match anything. */
export const LEGACY_POLICY_OPERATIONS: readonly string[] = ['invalidate_token']

/** A compiled policy: `*` entries are kept as `*`; resources are matchers. */
export type Policy = Readonly<{
  name: string
  isAllow: boolean
  operations: ReadonlySet<string>
  reasons: ReadonlySet<string>
  resources: readonly ResourcePattern[]
}>

export type ResourcePattern = Readonly<{ text: string; regex: RegExp }>

/** `*` matches any run of characters (also `/` and `.`); everything else is literal and case-sensitive. */
export function compilePattern(text: string): ResourcePattern {
  const body = text
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\/]/g, '\\$&'))
    .join('.*')
  return { text, regex: new RegExp(`^${body}$`, 's') }
}

export function matchesAny(pattern: ResourcePattern, resources: readonly string[]): boolean {
  return resources.some((resource) => pattern.regex.test(resource))
}

// A name slot holds a collection, property, type or action name, optionally `.transformer`.
const NAME_SLOT = /^[A-Za-z0-9_*]+(\.[A-Za-z0-9_*]+)?$/
const NAME = 'name'
const SHAPES: readonly (readonly string[])[] = [
  [NAME],
  [NAME, 'properties', NAME],
  [NAME, 'types', NAME],
  [NAME, 'tokens'],
  ['actions', NAME],
]

function fitsSlot(segment: string, slot: string): boolean {
  if (slot === NAME) return NAME_SLOT.test(segment)
  return compilePattern(segment).regex.test(slot)
}

/** Whether pattern segments fit a shape; a bare `*` segment may stand for several segments. */
function fits(segments: readonly string[], shape: readonly string[]): boolean {
  const [segment, ...rest] = segments
  if (segment === undefined) return shape.length === 0
  if (shape.length === 0) return false
  if (segment === '*') {
    for (let taken = 1; taken <= shape.length; taken++) {
      if (fits(rest, shape.slice(taken))) return true
    }
    return false
  }
  return fitsSlot(segment, shape[0] as string) && fits(rest, shape.slice(1))
}

/**
 * Whether a policy resource parses as one of the resource forms of iam.md §4 (optionally under
 * `archived/`), where `*` may stand in for any part.
 */
export function isValidResourcePattern(text: string): boolean {
  if (text === '*') return true
  const segments = text.split('/')
  if (segments.some((segment) => segment === '')) return false
  const shapes = [...SHAPES, ...SHAPES.map((shape) => ['archived', ...shape])]
  return shapes.some((shape) => fits(segments, shape))
}

/** What a property check names: the raw property, or one of its transformation bindings. */
export type PropertyRef = Readonly<{
  collection: string
  property: string
  /** The property's data type name, e.g. `SSN`. */
  type: string
  transformer?: string
  isArchived?: boolean
}>

function archivedIf(isArchived: boolean | undefined, resources: string[]): string[] {
  return isArchived ? resources.map((resource) => `archived/${resource}`) : resources
}

/**
 * The two resource strings of a property check (`c/properties/p`, `c/types/T`), or of a
 * transformed read (`c/properties/p.t`, `c/types/T.t`), never both.
 */
export function propertyResources(ref: PropertyRef): string[] {
  const suffix = ref.transformer ? `.${ref.transformer}` : ''
  return archivedIf(ref.isArchived, [
    `${ref.collection}/properties/${ref.property}${suffix}`,
    `${ref.collection}/types/${ref.type}${suffix}`,
  ])
}

/** The resource of token metadata operations (search, update metadata, delete, rotate, import). */
export function tokensResource(collection: string, isArchived = false): string[] {
  return archivedIf(isArchived, [`${collection}/tokens`])
}

/** The resource of collection-level `stats` (counts). */
export function collectionResource(collection: string): string[] {
  return [collection]
}

/** The resource of reading or invoking an action. */
export function actionResource(action: string): string[] {
  return [`actions/${action}`]
}
