// src/app-types-file.ts: reads types.toml and the bundles/ folder of the configuration directory (config.md §5)
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Config } from './config.ts'
import type { TypesFile } from './core/data-types/types-file.ts'

/** The first of the names that exists in the directory, or undefined. */
async function firstExisting(dir: string, names: readonly string[]): Promise<string | undefined> {
  const entries = new Set(await readdir(dir).catch(() => [] as string[]))
  return names.find((name) => entries.has(name))
}

/**
 * `types.toml` (or the reference product's `pvault.types.toml`) with every file of `bundles/`
 * (or `pvault.bundles/`); undefined when there is no types file. Unreadable files throw.
 */
export async function readTypesFile(config: Config): Promise<TypesFile | undefined> {
  const dir = config.configDir
  const name = await firstExisting(dir, ['types.toml', 'pvault.types.toml'])
  if (name === undefined) return undefined
  const path = join(dir, name)
  const folder = await firstExisting(dir, ['bundles', 'pvault.bundles'])
  const bundles = new Map<string, string>()
  if (folder !== undefined) {
    for (const entry of await readdir(join(dir, folder), { withFileTypes: true })) {
      if (entry.isFile())
        bundles.set(entry.name, await readFile(join(dir, folder, entry.name), 'utf8'))
    }
  }
  return { path, text: await readFile(path, 'utf8'), bundles }
}
