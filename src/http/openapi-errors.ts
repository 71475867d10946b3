// src/http/openapi-errors.ts: the one place that turns a route's error names into documented OpenAPI responses
import { ERRORS, type ErrorName } from '../contract/errors.ts'
import { DATA_OPERATIONS, OPERATIONS, type Operation } from '../core/iam/operations.ts'

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The errors this route answers beyond the ones every route of its kind shares (credentials,
     * capability, reason, schema, timeout, 500): names from contract/errors.ts. Only the OpenAPI
     * document reads them; `documentedErrors` adds the shared ones.
     */
    errors?: readonly ErrorName[]
  }
}

/** What the renderer needs of a route: its operation, config flags and which inputs it validates. */
export type DocumentedRoute = Readonly<{
  operation?: Operation
  errors?: readonly ErrorName[]
  isTimeoutExempt?: boolean
  hasInput: boolean
}>

/** Illustrative `context` members for the errors whose context the spec names (errors.md). */
const EXAMPLE_CONTEXT: Partial<Record<ErrorName, Record<string, string>>> = {
  reasonMissing: { reason: '' },
  reasonInvalid: { reason: 'Other' },
  collectionNotFound: { collection: 'people' },
  collectionNameInvalid: { collection: '1people' },
  propertyNotFound: { property: 'nickname' },
  invalidPropertyValue: { property: 'email' },
  objectNotFound: { ids: '8d0f1c1e-8b6c-4ec3-a7f4-3b1ad8a0ad4e' },
  tokenIdsNotFound: { token_ids: 'f3b0c6a2-5d1e-4c8b-9a7f-2e6d4b1c0a9e' },
  missingCapability: { username: 'webapp' },
  policyDenied: { username: 'webapp' },
  invalidRequest: { field: 'page_size' },
  dataTypeNotFound: { type: 'STRING_SSN' },
  userNotFound: { username: 'webapp' },
  confvarNotFound: { name: 'log_levels' },
  bundleNotFound: { bundle: 'ssn_helpers' },
  actionNotFound: { action: 'notify' },
  functionFailed: { bundle: 'ssn_helpers', function: 'mask' },
}

/**
 * What a stateless node (config.md §8) always serves; every other operation, and any request
 * naming a stored object (`object.id`, `read_object` identifiers), may answer 501 `ERR2001`.
 */
const STATELESS_SERVED: ReadonlySet<Operation> = new Set<Operation>([
  'data_health',
  'control_health',
  'get_version',
  'get_configuration',
  'get_license',
  'get_kms_status',
  'get_confvar',
  'set_confvar',
  'clear_confvars',
  'trigger_error',
  'list_collections',
  'get_collection',
  'list_properties',
  'get_property',
  'list_types',
  'get_type',
  'list_bundles',
  'get_bundle',
  'list_actions',
  'get_action',
  'get_iam_conf',
  'get_user',
  'update_encrypted',
  'decrypt',
  'encrypt_blob',
  'decrypt_blob',
  'analysis_contains',
  'analysis_locate',
])

/** The errors every route of a kind answers, derived from its operation's requirement. */
function sharedErrors(route: DocumentedRoute): ErrorName[] {
  const { operation } = route
  if (operation === undefined) return []
  const requirement = OPERATIONS[operation]
  if (requirement.kind === 'public') return ['internal']
  const names: ErrorName[] = ['unauthorized']
  if (requirement.kind === 'admin') names.push('adminNotAllowed')
  if (requirement.kind === 'anyOf' || requirement.kind === 'allOf') names.push('missingCapability')
  if (DATA_OPERATIONS.has(operation)) names.push('reasonMissing', 'reasonInvalid', 'policyDenied')
  if (route.hasInput) names.push('invalidRequest')
  names.push('internal')
  if (!STATELESS_SERVED.has(operation)) names.push('notImplementedStateless')
  if (!route.isTimeoutExempt) names.push('timeout')
  return names
}

/** Every error the route documents, shared ones first, each name once. */
export function documentedErrors(route: DocumentedRoute): ErrorName[] {
  return [...new Set([...sharedErrors(route), ...(route.errors ?? [])])]
}

type ResponseObject = {
  description: string
  content: Record<string, { schema: unknown; examples: Record<string, unknown> }>
}

/**
 * OpenAPI responses keyed by status: the spec's error body (`#/components/schemas/ErrorBody`)
 * with one example per error name, and a description listing the codes.
 */
export function errorResponses(route: DocumentedRoute): Record<string, ResponseObject> {
  const responses: Record<string, ResponseObject> = {}
  for (const name of documentedErrors(route)) {
    const { code, status, title } = ERRORS[name]
    const examples: Record<string, unknown> =
      responses[String(status)]?.content['application/json']?.examples ?? {}
    const previous = responses[String(status)]?.description
    responses[String(status)] = {
      description: `${previous ? `${previous}\n` : ''}- \`${code}\` ${title}`,
      content: {
        'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' }, examples },
      },
    }
    examples[name] = {
      summary: `${code}: ${title}`,
      value: { error_code: code, message: title, context: EXAMPLE_CONTEXT[name] ?? {} },
    }
  }
  return responses
}

/** The credential the operation needs, as a sentence for its description. */
export function describeRequirement(operation: Operation | undefined): string {
  if (operation === undefined) return ''
  const requirement = OPERATIONS[operation]
  switch (requirement.kind) {
    case 'public':
      return 'No credential needed.'
    case 'authenticated':
      return 'Any valid credential.'
    case 'admin':
      return 'Only the built-in Admin user.'
    case 'anyOf':
      return `Capability: ${requirement.capabilities.map((cap) => `\`${cap}\``).join(' or ')}${requirement.isSelfAllowed ? ' (none needed for oneself)' : ''}.`
    case 'allOf':
      return `Capabilities: ${requirement.capabilities.map((cap) => `\`${cap}\``).join(' and ')}.`
  }
}
