// src/core/iam/operations.test.ts: the operation → capability table checked against the spec, written from it
import { describe, expect, it } from 'vitest'
import { CAPABILITIES, grantedCapabilities, toCapability } from './capabilities.ts'
import { meetsRequirement, OPERATIONS, type Requirement } from './operations.ts'

const DATA_WRITE = ['CapDataWriter', 'CapObjectsWriter']

/**
 * Transcribed from spec endpoints.md (cap of every operation) and iam.md §2: `any:` one of them
 * suffices, `all:` every one is needed.
 */
const SPEC: Record<string, string> = {
  data_health: 'public',
  control_health: 'public',
  // Readiness (project addition, issue 18): no credential, like health.
  data_ready: 'public',
  control_ready: 'public',
  get_version: 'authenticated',
  get_cluster_info: 'any:CapClusterInfoReader',
  get_configuration: 'any:CapInfoReader',
  get_license: 'any:CapInfoReader',
  set_license: 'admin',
  get_kms_status: 'any:CapKMSReader',
  rotate_keys: 'any:CapKMSWriter',
  get_rotation_status: 'any:CapKMSReader',
  get_export_key: 'any:CapExportKeyReader',
  garbage_collection: 'any:CapSystemGCRunner',
  trigger_error: 'any:CapErrorWriter',
  clear_confvars: 'any:CapConfvarWriter',
  get_confvar: 'any:CapConfvarReader',
  set_confvar: 'any:CapConfvarWriter',
  list_collections: 'any:CapCollectionsReader',
  add_collection: 'any:CapCollectionsWriter',
  get_collection: 'any:CapCollectionsReader',
  update_collection: 'any:CapCollectionsWriter',
  delete_collection: 'any:CapCollectionsWriter',
  list_properties: 'any:CapCollectionsReader',
  add_property: 'any:CapCollectionsWriter',
  get_property: 'any:CapCollectionsReader',
  update_property: 'any:CapCollectionsWriter',
  delete_property: 'any:CapCollectionsWriter',
  add_object: `any:${[...DATA_WRITE, 'CapDataCreator', 'CapObjectsCreator'].join('|')}`,
  add_objects: `any:${[...DATA_WRITE, 'CapDataCreator', 'CapObjectsCreator'].join('|')}`,
  get_object: 'any:CapDataReader|CapObjectsReader|CapObjectsLister',
  list_objects: 'any:CapDataReader|CapObjectsLister',
  search_objects: 'any:CapDataSearcher',
  update_object: `any:${[...DATA_WRITE, 'CapDataUpdater', 'CapObjectsUpdater'].join('|')}`,
  update_objects: `any:${[...DATA_WRITE, 'CapDataUpdater', 'CapObjectsUpdater'].join('|')}`,
  delete_object: `any:${[...DATA_WRITE, 'CapDataDeleter', 'CapObjectsDeleter'].join('|')}`,
  delete_objects: `any:${[...DATA_WRITE, 'CapDataDeleter', 'CapObjectsDeleter'].join('|')}`,
  count_objects: 'any:CapDataReader',
  tokenize: 'any:CapTokensWriter',
  detokenize: 'any:CapTokensDetokenizer',
  search_tokens: 'any:CapTokensReader',
  update_tokens: 'any:CapTokensWriter',
  delete_tokens: 'any:CapTokensWriter',
  rotate_tokens: 'any:CapTokensWriter',
  get_transaction_id: 'any:CapTransactionIdReader|CapDataReader',
  count_tokens: 'any:CapTokensReader|CapDataReader',
  export_tokens: 'any:CapTokensExporter',
  import_tokens: 'any:CapTokensImporter',
  encrypt: 'any:CapCryptoEncrypter',
  update_encrypted: 'all:CapCryptoEncrypter&CapCryptoDecrypter',
  decrypt: 'any:CapCryptoDecrypter',
  encrypt_blob: 'any:CapCryptoEncrypter',
  decrypt_blob: 'any:CapCryptoDecrypter',
  hash_objects: 'any:CapCryptoHasher',
  list_types: 'any:CapTypesReader',
  add_type: 'any:CapTypesWriter',
  get_type: 'any:CapTypesReader',
  update_type: 'any:CapTypesWriter',
  delete_type: 'any:CapTypesWriter',
  list_bundles: 'any:CapCodeReader',
  add_bundle: 'any:CapCodeWriter',
  get_bundle: 'any:CapCodeReader',
  update_bundle: 'any:CapCodeWriter',
  delete_bundle: 'any:CapCodeWriter',
  list_actions: 'any:CapActionReader',
  add_action: 'any:CapActionWriter',
  get_action: 'any:CapActionReader',
  delete_action: 'any:CapActionWriter',
  invoke_action: 'any:CapActionInvoker',
  invoke_http_call: 'any:CapActionInvoker',
  get_iam_conf: 'any:CapIAMReader',
  set_iam_conf: 'any:CapIAMWriter',
  regenerate_user_api_key: 'any:CapIAMWriter',
  update_user_api_key_expiration: 'any:CapIAMWriter',
  get_user: 'any:CapIAMReader',
  set_admin_api_key: 'admin',
  analysis_contains: 'any:CapAnalysisDetect',
  analysis_locate: 'any:CapAnalysisLocate',
  analysis_protect: 'all:CapAnalysisLocate&CapTokensWriter',
  analysis_reveal: 'any:CapTokensDetokenizer',
}

function describeRequirement(requirement: Requirement): string {
  switch (requirement.kind) {
    case 'anyOf':
      return `any:${[...requirement.capabilities].sort().join('|')}`
    case 'allOf':
      return `all:${[...requirement.capabilities].sort().join('&')}`
    default:
      return requirement.kind
  }
}

function normalize(text: string): string {
  const [kind, list] = text.split(':')
  if (list === undefined) return text
  const separator = kind === 'any' ? '|' : '&'
  return `${kind}:${list.split(separator).sort().join(separator)}`
}

describe('operation → capability table', () => {
  it('lists exactly the operations of the spec', () => {
    expect(Object.keys(OPERATIONS).sort()).toEqual(Object.keys(SPEC).sort())
  })

  it.each(Object.entries(SPEC))('%s needs %s', (operation, expected) => {
    const requirement = OPERATIONS[operation as keyof typeof OPERATIONS]
    expect(describeRequirement(requirement)).toBe(normalize(expected))
  })

  it('lets a caller read its own user without CapIAMReader', () => {
    expect(OPERATIONS.get_user).toMatchObject({ isSelfAllowed: true })
  })

  it('lets CapSystem (Admin) pass every operation, and nobody else pass admin ones', () => {
    for (const requirement of Object.values(OPERATIONS)) {
      expect(meetsRequirement(requirement, new Set(['CapSystem']), false)).toBe(true)
    }
    expect(meetsRequirement(OPERATIONS.set_admin_api_key, grantedCapabilities(['*']), false)).toBe(
      false,
    )
  })
})

describe('capabilities', () => {
  it('are the names of spec iam.md §2', () => {
    const spec = new Set(
      Object.values(SPEC)
        .filter((text) => text.includes(':'))
        .flatMap((text) => (text.split(':')[1] as string).split(/[|&]/)),
    )
    for (const name of spec) expect(CAPABILITIES).toContain(name)
    expect(CAPABILITIES).toContain('CapSystem')
    expect(new Set([...CAPABILITIES].filter((cap) => !spec.has(cap)))).toEqual(
      new Set(['CapSystem']),
    )
  })

  it('grant everything but CapSystem with "*"', () => {
    const all = grantedCapabilities(['*'])
    expect(all.has('CapSystem')).toBe(false)
    expect(all.size).toBe(CAPABILITIES.length - 1)
  })

  it('accept the plural action spellings', () => {
    expect(toCapability('CapActionsReader')).toBe('CapActionReader')
    expect(toCapability('CapActionsInvoker')).toBe('CapActionInvoker')
    expect(toCapability('CapNope')).toBeUndefined()
    expect([...grantedCapabilities(['CapActionsWriter', 'CapNope'])]).toEqual(['CapActionWriter'])
  })
})
