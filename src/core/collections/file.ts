// src/core/collections/file.ts: collections.pvschema of the configuration directory, installed at start
import { isVaultError } from '../errors.ts'
import type { Store } from '../store.ts'
import type { StoredCollection } from './collection.ts'
import { readCollectionBody, viewToBody } from './input.ts'
import { type PlanEnv, planCollection } from './plan.ts'
import { parsePvschema } from './pvschema/parser.ts'

/**
 * Plans every collection of the text (several PVSchema collections, concatenated) and inserts
 * them, unless anything is wrong: then nothing is inserted and every problem is returned (a
 * syntax error names its line and column; a collection the rules refuse, its name).
 */
export async function installCollectionsFile(
  store: Store,
  text: string,
  env: PlanEnv,
): Promise<string[]> {
  let views: ReturnType<typeof parsePvschema>
  try {
    views = parsePvschema(text)
  } catch (error) {
    if (isVaultError(error)) return [error.message]
    throw error
  }
  const problems: string[] = []
  const planned: StoredCollection[] = []
  const names = new Set<string>()
  for (const view of views) {
    try {
      const collection = planCollection(readCollectionBody(viewToBody(view)), env)
      if (names.has(collection.name.toLowerCase()))
        problems.push(`collection ${view.name}: defined twice.`)
      names.add(collection.name.toLowerCase())
      planned.push(collection)
    } catch (error) {
      if (!isVaultError(error)) throw error
      problems.push(`collection ${view.name}: ${error.message}`)
    }
  }
  if (problems.length > 0) return problems
  await store.transaction(async (tx) => {
    for (const collection of planned) await tx.collections.insert(collection)
  })
  return []
}
