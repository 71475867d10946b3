// src/storage/repos/data-types.ts: custom data type rows; name clashes and lost races are reported, never thrown
import type { Kysely, Selectable } from 'kysely'
import type { DataTypesRepo, StoredDataType } from '../../core/data-types/store.ts'
import type { DataTypesTable, Tables } from '../schema.ts'

const optional = (value: string | null) => (value === null ? undefined : value)

function toDataType(row: Selectable<DataTypesTable>): StoredDataType {
  return {
    name: row.name,
    baseTypeName: row.base_type_name,
    description: row.description,
    validator: optional(row.validator),
    normalizer: optional(row.normalizer),
    transformers: JSON.parse(row.transformers) as string[],
    defaultTransformer: optional(row.default_transformer),
    createdAt: Number(row.created_at),
    modifiedAt: Number(row.modified_at),
  }
}

function dataTypeRow(type: StoredDataType): Selectable<DataTypesTable> {
  return {
    name: type.name,
    name_key: type.name.toLowerCase(),
    base_type_name: type.baseTypeName,
    description: type.description,
    validator: type.validator ?? null,
    normalizer: type.normalizer ?? null,
    transformers: JSON.stringify(type.transformers),
    default_transformer: type.defaultTransformer ?? null,
    created_at: type.createdAt,
    modified_at: type.modifiedAt,
  }
}

export function createDataTypesRepo(db: Kysely<Tables>): DataTypesRepo {
  return {
    async list() {
      return (await db.selectFrom('data_types').selectAll().execute()).map(toDataType)
    },
    async get(name) {
      const row = await db
        .selectFrom('data_types')
        .selectAll()
        .where('name', '=', name)
        .executeTakeFirst()
      return row && toDataType(row)
    },
    async insert(type) {
      const inserted = await db
        .insertInto('data_types')
        .values(dataTypeRow(type))
        .onConflict((oc) => oc.doNothing())
        .returning('name')
        .executeTakeFirst()
      return inserted !== undefined
    },
    async update(type, expected) {
      const { name_key: _, name, created_at: __, ...changes } = dataTypeRow(type)
      const result = await db
        .updateTable('data_types')
        .set(changes)
        .where('name', '=', name)
        .where('modified_at', '=', expected)
        .executeTakeFirst()
      return Number(result.numUpdatedRows) > 0
    },
    async delete(name) {
      const result = await db.deleteFrom('data_types').where('name', '=', name).executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    },
  }
}
