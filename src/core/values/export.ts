// src/core/values/export.ts: values sealed with the export key on list or export (export=true) and opened on import (export_key)
import { type ExportKeys, InvalidExportKeyError } from '../crypto/export-key.ts'
import { invalidRequest, VaultError } from '../errors.ts'

type Fields = Record<string, unknown>

/** `id` stays readable so an export can be imported under the same IDs; null stays null. */
const isSealable = (key: string, value: unknown) => key !== 'id' && value !== null

/** Every value but `id` becomes the base64 of its JSON sealed with the export key. */
export async function exportValues(exportKeys: ExportKeys, objects: readonly Fields[]) {
  const items = objects.flatMap((fields) =>
    Object.entries(fields)
      .filter(([key, value]) => isSealable(key, value))
      .map(([property, value]) => ({
        property,
        plaintext: Buffer.from(JSON.stringify(value), 'utf8'),
      })),
  )
  const sealed = await exportKeys.seal(items)
  let next = 0
  return objects.map((fields) => {
    const out: Fields = {}
    for (const [key, value] of Object.entries(fields))
      out[key] = isSealable(key, value) ? (sealed[next++] as Buffer).toString('base64') : value
    return out
  })
}

function sealedItems(bodies: readonly Fields[]) {
  return bodies.flatMap((fields) =>
    Object.entries(fields)
      .filter(([key, value]) => isSealable(key, value))
      .map(([property, value]) => {
        if (typeof value !== 'string')
          throw invalidRequest(`The value of ${property} is not an exported value.`, property)
        return { property, sealed: Buffer.from(value, 'base64') }
      }),
  )
}

function parseOpened(plaintext: Buffer, property: string): unknown {
  try {
    return JSON.parse(plaintext.toString('utf8'))
  } catch {
    throw invalidRequest(`The value of ${property} is not an exported value.`, property)
  }
}

/** Opens import bodies sealed with the export key given as `export_key`; a wrong key is 400 ERR1012. */
export async function importValues(
  exportKeys: ExportKeys,
  wrappedKey: string,
  bodies: readonly Fields[],
): Promise<Fields[]> {
  let opened: Buffer[]
  try {
    opened = await exportKeys.open(wrappedKey, sealedItems(bodies))
  } catch (error) {
    if (!(error instanceof InvalidExportKeyError)) throw error
    throw new VaultError('invalidRequest', {
      message: 'The export key is invalid, or the values were not exported with it.',
      context: { field: 'export_key' },
      cause: error,
    })
  }
  let next = 0
  return bodies.map((fields) => {
    const out: Fields = {}
    for (const [key, value] of Object.entries(fields))
      out[key] = isSealable(key, value) ? parseOpened(opened[next++] as Buffer, key) : value
    return out
  })
}
