// src/core/data-types/types-file.ts: custom types and their bundles from types.toml and bundles/ at start (config.md §5)
import { parse, TomlError } from 'smol-toml'
import type { BundlesService } from '../bundles/bundles.ts'
import { auditRoute, type RequestContext } from '../context.ts'
import { VaultError } from '../errors.ts'
import type { Store } from '../store.ts'
import type { Micros } from '../time.ts'
import type { DataTypeInput, DataTypesService } from './data-types.ts'

/** The files as the composition root read them; `bundles` maps file names in bundles/ to code. */
export type TypesFile = Readonly<{
  path: string
  text: string
  bundles: ReadonlyMap<string, string>
}>

export type TypesFileDeps = Readonly<{
  store: Store
  bundles: BundlesService
  dataTypes: DataTypesService
  /** SVC_SERVICE_UPDATE_SCHEMA_ON_START. */
  isReloadedOnStart: boolean
}>

type Table = Record<string, unknown>

function fileError(path: string, why: string): VaultError {
  return new VaultError('invalidRequest', { message: `${path}: ${why}.`, context: { file: path } })
}

function tableOf(path: string, value: unknown, what: string): Table {
  if (value === undefined) return {}
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw fileError(path, `${what} must be a table`)
  return value as Table
}

function text(path: string, table: Table, key: string, where: string): string | undefined {
  const value = table[key]
  if (value === undefined) return undefined
  if (typeof value !== 'string') throw fileError(path, `${where}.${key} must be a string`)
  return value
}

function typeInput(path: string, name: string, table: Table): DataTypeInput {
  const where = `types.${name}`
  const transformers = table.transformers
  if (
    transformers !== undefined &&
    !(Array.isArray(transformers) && transformers.every((t) => typeof t === 'string'))
  )
    throw fileError(path, `${where}.transformers must be an array of "<bundle>.<function>"`)
  const base = text(path, table, 'base_type_name', where)
  if (base === undefined) throw fileError(path, `${where}.base_type_name is required`)
  return {
    name,
    baseTypeName: base,
    description: text(path, table, 'description', where),
    validator: text(path, table, 'validator', where),
    normalizer: text(path, table, 'normalizer', where),
    transformers: transformers as string[] | undefined,
    defaultTransformer: text(path, table, 'default_transformer', where),
  }
}

/** The context of writes made at start: the Admin, recorded in the audit log like API calls. */
function startContext(now: Micros): RequestContext {
  return {
    requestId: 'start',
    principal: { username: 'Admin', role: 'Admin', isAdmin: true, authKind: 'api_key' },
    now,
    signal: new AbortController().signal,
    reason: undefined,
    customAudit: 'types file',
    tenantIds: [],
    transParam: undefined,
    remoteAddr: undefined,
    audit: auditRoute('load_types_file', 'START', 'types.toml'),
  }
}

/**
 * Applies the file on first start (no bundles and no custom types stored yet), or at every start
 * with SVC_SERVICE_UPDATE_SCHEMA_ON_START: bundles are added, or updated when their code or
 * description changed (the superset rule applies), then types are added or updated. A file that
 * is malformed or refused stops the start with the reason.
 */
export async function applyTypesFile(
  deps: TypesFileDeps,
  file: TypesFile,
  now: () => Micros,
): Promise<void> {
  const isFirst =
    (await deps.store.bundles.list()).length === 0 &&
    (await deps.store.dataTypes.list()).length === 0
  if (!isFirst && !deps.isReloadedOnStart) return
  let root: Table
  try {
    root = parse(file.text) as Table
  } catch (error) {
    const why = error instanceof TomlError ? error.message.split('\n')[0] : 'it is not TOML'
    throw fileError(file.path, `it cannot be parsed (${why})`)
  }
  const bundles = tableOf(file.path, root.bundles, 'bundles')
  const types = tableOf(file.path, root.types, 'types')
  try {
    for (const [name, value] of Object.entries(bundles)) {
      const table = tableOf(file.path, value, `bundles.${name}`)
      const fileName = text(file.path, table, 'file', `bundles.${name}`) ?? `${name}.js`
      const source = file.bundles.get(fileName)
      if (source === undefined)
        throw fileError(file.path, `bundles.${name}: bundles/${fileName} does not exist`)
      const description = text(file.path, table, 'description', `bundles.${name}`)
      const code = Buffer.from(source, 'utf8').toString('base64')
      const existing = await deps.store.bundles.get(name)
      const ctx = startContext(now())
      if (existing === undefined) await deps.bundles.create(ctx, { name, description, code })
      else if (existing.source !== source || existing.description !== (description ?? ''))
        await deps.bundles.update(ctx, name, { description, code })
    }
    for (const [name, value] of Object.entries(types)) {
      const input = typeInput(file.path, name, tableOf(file.path, value, `types.${name}`))
      const ctx = startContext(now())
      if ((await deps.store.dataTypes.get(name)) === undefined)
        await deps.dataTypes.create(ctx, input)
      else await deps.dataTypes.update(ctx, name, input)
    }
  } catch (error) {
    if (!(error instanceof VaultError) || error.message.startsWith(file.path)) throw error
    throw fileError(file.path, error.message.replace(/\.$/, ''))
  }
}
