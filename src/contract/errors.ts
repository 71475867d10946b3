// src/contract/errors.ts: the error catalogue; codes are public and permanent (see spec/errors.md)
import type { Static } from 'typebox'
import { Type } from './schema.ts'

export type ErrorDefinition = Readonly<{ code: string; status: number; title: string }>

/**
 * Every error the service can answer, by name. Core throws `new VaultError('collectionNotFound')`;
 * the HTTP layer turns the name into status and `error_code`.
 * @example ERRORS.collectionNotFound // { code: 'ERR1004', status: 404, title: '…' }
 */
export const ERRORS = {
  internal: { code: 'ERR1000', status: 500, title: 'An unexpected error occurred.' },
  reasonMissing: { code: 'ERR1001', status: 400, title: 'The access reason is missing.' },
  reasonInvalid: { code: 'ERR1002', status: 400, title: 'The access reason is invalid.' },
  featureDisabled: { code: 'ERR1003', status: 405, title: 'The feature is disabled.' },
  collectionNotFound: { code: 'ERR1004', status: 404, title: 'The collection is not found.' },
  bundleNotFound: { code: 'ERR1004', status: 404, title: 'The bundle is not found.' },
  dataTypeNotFound: { code: 'ERR1004', status: 404, title: 'The data type is not found.' },
  actionNotFound: { code: 'ERR1004', status: 404, title: 'The action is not found.' },
  unauthorized: { code: 'ERR1005', status: 401, title: 'The request is unauthorized.' },
  policyDenied: {
    code: 'ERR1006',
    status: 403,
    title: 'The request is forbidden due to a policy violation.',
  },
  missingCapability: {
    code: 'ERR1007',
    status: 403,
    title: 'The request is forbidden: the role is missing a required capability.',
  },
  collectionNameInvalid: { code: 'ERR1008', status: 400, title: 'The collection name is invalid.' },
  timeout: { code: 'ERR1009', status: 503, title: 'The operation timed out.' },
  databaseUnavailable: { code: 'ERR1010', status: 503, title: 'The database cannot be reached.' },
  auditUnavailable: {
    code: 'ERR1014',
    status: 503,
    title: 'The audit record of the call could not be written.',
  },
  userDisabled: { code: 'ERR1011', status: 401, title: 'The user is disabled.' },
  invalidRequest: {
    code: 'ERR1012',
    status: 400,
    title: 'The request does not conform to the API schema.',
  },
  routeNotFound: { code: 'ERR1012', status: 404, title: 'The requested path does not exist.' },
  methodNotAllowed: {
    code: 'ERR1012',
    status: 405,
    title: 'The method is not allowed on this path.',
  },
  payloadTooLarge: { code: 'ERR1012', status: 413, title: 'The request body is too large.' },
  urlTooLong: { code: 'ERR1012', status: 414, title: 'The request URL is too long.' },
  notInMemoryMode: {
    code: 'ERR1026',
    status: 405,
    title: 'The operation is not allowed in in-memory mode.',
  },
  gone: { code: 'ERR1033', status: 410, title: 'The resource is no longer available.' },
  notImplementedStateless: {
    code: 'ERR2001',
    status: 501,
    title: 'The operation is not implemented in stateless mode.',
  },
  adminNotAllowed: {
    code: 'ERR2021',
    status: 403,
    title: 'The operation is not allowed for the Admin user.',
  },
  invalidPropertyValue: { code: 'ERR3002', status: 400, title: 'A property value is invalid.' },
  invalidTokenizeValues: { code: 'ERR3003', status: 404, title: 'One or more values are invalid.' },
  propertyNotFound: { code: 'ERR3004', status: 404, title: 'The property is not found.' },
  objectNotFound: { code: 'ERR3005', status: 404, title: 'One or more objects were not found.' },
  tokenNotFound: { code: 'ERR3009', status: 404, title: 'No token matched the request.' },
  userNotFound: { code: 'ERR9007', status: 404, title: 'The user is not found.' },
  transactionIdNotFound: {
    code: 'ERR3009',
    status: 404,
    title: 'The transaction ID is not found.',
  },
  tokenIdsNotFound: {
    code: 'ERR3087',
    status: 404,
    title: 'One or more token IDs were not found.',
  },
  concurrentUpdate: {
    code: 'ERR3218',
    status: 409,
    title: 'Concurrent conflicting updates to the same object.',
  },
  encryptedObjectArchived: {
    code: 'ERR3233',
    status: 400,
    title: 'The encrypted object is archived.',
  },
  substringIndexNotReady: {
    code: 'ERR3274',
    status: 503,
    title: 'The substring index is not ready yet; retry later.',
  },
  alreadyExists: { code: 'ERR9001', status: 409, title: 'The entity already exists.' },
  uniqueValueUsed: {
    code: 'ERR9002',
    status: 409,
    title: 'A unique property value is already used by an active object.',
  },
  transactionIdUsed: {
    code: 'ERR9003',
    status: 409,
    title: 'The transaction ID is already used in this collection.',
  },
  tenantTagUsed: {
    code: 'ERR9004',
    status: 409,
    title: 'A tag that must be unique within the tenant is already used.',
  },
  inUse: { code: 'ERR9005', status: 409, title: 'The entity is in use.' },
  confvarNotFound: {
    code: 'ERR9006',
    status: 404,
    title: 'The configuration variable is not found.',
  },
  functionFailed: {
    code: 'ERR9008',
    status: 400,
    title: 'A bundle function failed: it threw, broke a limit or returned an invalid value.',
  },
} as const satisfies Record<string, ErrorDefinition>

export type ErrorName = keyof typeof ERRORS

/**
 * The one error body of the API.
 * @example { "error_code": "ERR1004", "message": "The collection is not found.", "context": { "collection": "people" } }
 */
export const ErrorBody = Type.Object({
  error_code: Type.String(),
  message: Type.String(),
  context: Type.Record(Type.String(), Type.String()),
  error_url: Type.Optional(Type.String()),
})
export type ErrorBody = Static<typeof ErrorBody>
