// src/core/iam/capabilities.ts: capability names (spec iam.md §2) and how a role's list grants them
import { ownValue } from '../own.ts'

export const CAPABILITIES = [
  'CapCollectionsReader',
  'CapCollectionsWriter',
  'CapTypesReader',
  'CapTypesWriter',
  'CapCodeReader',
  'CapCodeWriter',
  'CapActionReader',
  'CapActionWriter',
  'CapActionInvoker',
  'CapIAMReader',
  'CapIAMWriter',
  'CapDataReader',
  'CapDataWriter',
  'CapDataCreator',
  'CapDataUpdater',
  'CapDataDeleter',
  'CapDataSearcher',
  'CapObjectsReader',
  'CapObjectsLister',
  'CapObjectsWriter',
  'CapObjectsCreator',
  'CapObjectsUpdater',
  'CapObjectsDeleter',
  'CapTokensWriter',
  'CapTokensReader',
  'CapTokensDetokenizer',
  'CapTransactionIdReader',
  'CapTokensExporter',
  'CapTokensImporter',
  'CapCryptoEncrypter',
  'CapCryptoDecrypter',
  'CapCryptoHasher',
  'CapAnalysisDetect',
  'CapAnalysisLocate',
  'CapConfvarReader',
  'CapConfvarWriter',
  'CapClusterInfoReader',
  'CapInfoReader',
  'CapKMSReader',
  'CapKMSWriter',
  'CapExportKeyReader',
  'CapSystemGCRunner',
  'CapErrorWriter',
  'CapSystem',
] as const

export type Capability = (typeof CAPABILITIES)[number]

/** Older plural spellings accepted in IAM files, mapped to the canonical names. */
export const CAPABILITY_ALIASES: Readonly<Record<string, Capability>> = {
  CapActionsReader: 'CapActionReader',
  CapActionsWriter: 'CapActionWriter',
  CapActionsInvoker: 'CapActionInvoker',
}

/** The canonical capability for a name from a configuration, or undefined when unknown. */
export function toCapability(name: string): Capability | undefined {
  if ((CAPABILITIES as readonly string[]).includes(name)) return name as Capability
  return ownValue(CAPABILITY_ALIASES, name)
}

/**
 * The capabilities a role's list grants: `*` grants every capability except CapSystem, which
 * only the built-in Admin role holds.
 */
export function grantedCapabilities(names: readonly string[]): ReadonlySet<Capability> {
  if (names.includes('*')) return new Set(CAPABILITIES.filter((cap) => cap !== 'CapSystem'))
  const granted = new Set<Capability>()
  for (const name of names) {
    const capability = toCapability(name)
    if (capability !== undefined) granted.add(capability)
  }
  return granted
}
