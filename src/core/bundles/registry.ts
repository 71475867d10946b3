// src/core/bundles/registry.ts: this node's cached bundles and the lookup of `"<bundle>.<function>"` references
import { isValidName } from '../collections/names.ts'
import { bundleSource } from './code.ts'
import type { FunctionPrototype } from './exports.ts'
import type { BundleSource, FunctionType } from './sandbox.ts'
import type { StoredBundle } from './store.ts'

/** A function reference `"<bundle>.<function>"` split in its two names. */
export type FunctionReference = Readonly<{ bundle: string; function: string }>

/** What a data operation needs to call a bundle function: the code to run and its prototype. */
export type BundleFunction = Readonly<{ bundle: BundleSource; prototype: FunctionPrototype }>

type CachedBundle = Readonly<{
  source: BundleSource
  functions: ReadonlyMap<string, FunctionPrototype>
}>

/** `"<bundle>.<function>"`, both following the naming rules (so neither holds a dot). */
export function parseReference(reference: string): FunctionReference | undefined {
  const dot = reference.indexOf('.')
  if (dot < 0) return undefined
  const bundle = reference.slice(0, dot)
  const fn = reference.slice(dot + 1)
  return isValidName(bundle) && isValidName(fn) ? { bundle, function: fn } : undefined
}

export function formatReference(reference: FunctionReference): string {
  return `${reference.bundle}.${reference.function}`
}

/** The function of a stored bundle, when it exports one of that name and type. */
export function exportedFunction(
  bundle: StoredBundle,
  name: string,
  type: FunctionType,
): FunctionPrototype | undefined {
  return bundle.exports.find((f) => f.name === name && f.type === type)
}

/** Bundles as the control cache loaded them; data operations read them here, never the store. */
export function createBundleRegistry() {
  let bundles: ReadonlyMap<string, CachedBundle> = new Map()

  return {
    replace(stored: readonly StoredBundle[]): void {
      bundles = new Map(
        stored.map((b) => [
          b.name,
          {
            source: bundleSource(b.name, b.source),
            functions: new Map(b.exports.map((f) => [f.name, f])),
          },
        ]),
      )
    },
    has: (name: string): boolean => bundles.has(name),
    count: (): number => bundles.size,
    /** The function a reference names, if its bundle is loaded and exports it. */
    functionOf(reference: string | FunctionReference): BundleFunction | undefined {
      const parsed = typeof reference === 'string' ? parseReference(reference) : reference
      if (parsed === undefined) return undefined
      const bundle = bundles.get(parsed.bundle)
      const prototype = bundle?.functions.get(parsed.function)
      return bundle && prototype && { bundle: bundle.source, prototype }
    },
  }
}

export type BundleRegistry = ReturnType<typeof createBundleRegistry>
