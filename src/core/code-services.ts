// src/core/code-services.ts: the services that run customer code: bundles and actions (part of the composition root)
import { actionsReferrer, createActionsService } from './actions/actions.ts'
import { createDestinationCheck } from './actions/destinations.ts'
import type { Outbound } from './actions/outbound.ts'
import type { AuditService } from './audit/audit.ts'
import { type BundleReferrer, createBundlesService } from './bundles/bundles.ts'
import type { BundleRegistry } from './bundles/registry.ts'
import type { Sandbox } from './bundles/sandbox.ts'
import type { ControlCache } from './cache.ts'
import type { CollectionsService } from './collections/collections.ts'
import type { CryptoService } from './crypto-api/crypto-api.ts'
import type { TypeRegistry } from './data-types/registry.ts'
import type { IamService } from './iam/iam.ts'
import type { ObjectsService } from './objects/objects.ts'
import type { Store } from './store.ts'
import type { TokensService } from './tokens/tokens.ts'

/** Settings of bundles and actions, taken from the configuration by app.ts. */
export type CodeSettings = Readonly<{
  /** SVC_FEATURES_DISABLE_JAVASCRIPT. */
  isJavascriptDisabled: boolean
  /** SVC_SERVICE_ACTIONS_HTTP_CALL_ROLE. */
  httpCallRole: string
  /** SVC_SERVICE_ALLOWED_HTTP_DESTINATIONS and SVC_SERVICE_ALLOWED_PCI_HTTP_DESTINATIONS. */
  allowedHttpDestinations: readonly string[]
  allowedPciHttpDestinations: readonly string[]
  /** Cap on an http_call response body (SVC_SANDBOX_MAX_RESULT_BYTES). */
  maxResponseBytes: number
  /** SVC_SERVICE_UPDATE_SCHEMA_ON_START: apply types.toml at every start, not only the first. */
  reloadTypesFileOnStart: boolean
}>

export type CodeDeps = Readonly<{
  store: Store
  cache: ControlCache
  audit: AuditService
  iam: IamService
  collections: CollectionsService
  types: TypeRegistry
  objects: ObjectsService
  tokens: TokensService
  crypto: CryptoService
  sandbox: Sandbox
  outbound: Outbound
  settings: CodeSettings
  /** What else references bundles (custom data types) and may block deleting one. */
  referrers?: readonly BundleReferrer[]
  /** The bundles as data operations see them, shared with the custom type functions. */
  registry?: BundleRegistry
}>

export function createCodeServices(deps: CodeDeps) {
  const { settings } = deps
  const bundles = createBundlesService({
    ...deps,
    isJavascriptDisabled: settings.isJavascriptDisabled,
    referrers: [actionsReferrer, ...(deps.referrers ?? [])],
  })
  deps.cache.register('bundles', bundles.load)
  const actions = createActionsService({
    ...deps,
    bundles,
    destinations: createDestinationCheck(settings.allowedHttpDestinations),
    pciDestinations: createDestinationCheck(settings.allowedPciHttpDestinations),
    role: settings.httpCallRole,
    maxResponseBytes: settings.maxResponseBytes,
  })
  deps.cache.register('actions', actions.load)
  return { bundles, actions, sandbox: deps.sandbox }
}
