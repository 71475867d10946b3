// src/app-stateless.ts: stateless mode at start: the in-memory store filled from the configuration files, then sealed
import { readFile, stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { readTypesFile } from './app-types-file.ts'
import { type Config, ConfigError } from './config.ts'
import { installDerivedKeys } from './core/crypto/keyring.ts'
import type { Kms } from './core/crypto/kms.ts'
import { applyTypesFile } from './core/data-types/types-file.ts'
import { isVaultError } from './core/errors.ts'
import { parseSecretsFile } from './core/iam/secrets-file.ts'
import type { Services } from './core/services.ts'
import type { Clock } from './core/time.ts'
import type { QueryObserver } from './storage/dialects/dialect.ts'
import { openStatelessStore, type StatelessStore } from './storage/stateless/store.ts'

export class StatelessStartupError extends Error {}

type ConfigFile = { readonly path: string; readonly text: string }

/**
 * A file of the configuration directory (config.md §5), or undefined when there is none or it
 * cannot be read (then `problems` says why).
 */
async function readConfigFile(
  config: Config,
  name: string,
  problems: string[],
): Promise<ConfigFile | undefined> {
  const path = join(config.configDir, name)
  try {
    return { path, text: await readFile(path, 'utf8') }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code !== 'ENOENT') problems.push(`${path}: cannot be read (${code ?? 'unknown error'}).`)
    return undefined
  }
}

async function exists(config: Config, name: string): Promise<string | undefined> {
  const path = join(config.configDir, name)
  try {
    await stat(path)
    return path
  } catch {
    return undefined
  }
}

/**
 * Opens the store of a stateless node with its data keys derived from the KMS (the same on
 * every node with this KMS configuration).
 */
export async function openStateless(
  kms: Kms,
  clock: Clock,
  onQuery: QueryObserver,
): Promise<StatelessStore> {
  const opened = await openStatelessStore(onQuery)
  try {
    await installDerivedKeys({ store: opened.store, kms, clock })
  } catch (error) {
    await opened.store.close()
    throw new StatelessStartupError((error as Error).message)
  }
  return opened
}

async function collectProblems(
  services: Services,
  config: Config,
  store: StatelessStore['store'],
  clock: Clock,
) {
  const problems: string[] = []
  // A node whose directory is missing would serve nothing: say so rather than start empty.
  if ((await exists(config, '.')) === undefined)
    problems.push(
      `${resolve(config.configDir)}: the configuration directory (SVC_CONFIG_DIR) does not exist.`,
    )
  const iamFile = await readConfigFile(config, 'iam.toml', problems)
  let isIamUsable = true
  try {
    await services.iam.initialize(iamFile)
  } catch (error) {
    if (!isVaultError(error)) throw error
    problems.push(error.message)
    isIamUsable = false
  }
  const secrets = await readConfigFile(config, 'secrets.toml', problems)
  if (secrets !== undefined) {
    const parsed = parseSecretsFile(secrets.text)
    const installed = isIamUsable ? await services.iam.installKeyHashes(parsed.keys) : []
    for (const problem of [...parsed.problems, ...installed])
      problems.push(`${secrets.path}: ${problem}`)
  }
  // Custom types (and the bundles they use) before the collections that may use them.
  try {
    const types = await readTypesFile(config)
    if (types !== undefined) {
      const deps = {
        store,
        bundles: services.bundles,
        dataTypes: services.dataTypes,
        isReloadedOnStart: true,
      }
      await applyTypesFile(deps, types, clock)
    }
  } catch (error) {
    if (isVaultError(error)) problems.push(error.message)
    else {
      const code = (error as NodeJS.ErrnoException).code
      if (code === undefined) throw error
      problems.push(`The types file or a bundle file cannot be read (${code}).`)
    }
  }
  const collections = await readConfigFile(config, 'collections.pvschema', problems)
  if (collections !== undefined) {
    for (const problem of await services.collections.installFile(collections.text, clock()))
      problems.push(`${collections.path}: ${problem}`)
  }
  return problems
}

/**
 * Fills the store from the configuration directory (IAM, users' key hashes, custom types and
 * bundles, collections), then
 * seals it. Every problem of every file is reported at once, so one restart shows them all.
 */
export async function loadStatelessFiles(
  services: Services,
  config: Config,
  stateless: StatelessStore,
  clock: Clock,
): Promise<void> {
  const problems = await collectProblems(services, config, stateless.store, clock)
  if (problems.length > 0) {
    await stateless.store.close()
    throw new ConfigError(problems)
  }
  stateless.seal()
}
