// src/storage/repos/collections.ts: collections and collection_properties rows; name clashes are reported, never thrown
import type { Kysely, Selectable } from 'kysely'
import type {
  Prototype,
  StoredCollection,
  StoredProperty,
} from '../../core/collections/collection.ts'
import type { CollectionsRepo } from '../../core/collections/store.ts'
import type { CollectionPropertiesTable, CollectionsTable, Tables } from '../schema.ts'

type PropertyRow = Selectable<CollectionPropertiesTable>

function toProperty(row: PropertyRow): StoredProperty {
  return {
    id: row.id,
    name: row.name,
    dataType: row.data_type,
    description: row.description,
    isEncrypted: row.is_encrypted === 1,
    isIndex: row.is_index === 1,
    isSubstringIndex: row.is_substring_index === 1,
    isNullable: row.is_nullable === 1,
    isUnique: row.is_unique === 1,
    createdAt: row.created_at,
    modifiedAt: row.modified_at,
  }
}

function toCollection(
  row: Selectable<CollectionsTable>,
  properties: readonly PropertyRow[],
): StoredCollection {
  return {
    id: row.id,
    name: row.name,
    type: row.type as Prototype,
    createdAt: row.created_at,
    modifiedAt: row.modified_at,
    properties: properties.map(toProperty),
  }
}

/** The columns a property's attributes and modification time live in. */
function attributeColumns(property: StoredProperty) {
  return {
    description: property.description,
    is_encrypted: Number(property.isEncrypted),
    is_index: Number(property.isIndex),
    is_substring_index: Number(property.isSubstringIndex),
    is_nullable: Number(property.isNullable),
    is_unique: Number(property.isUnique),
    modified_at: property.modifiedAt,
  }
}

function propertyRow(
  collectionId: string,
  property: StoredProperty,
  position: number,
): PropertyRow {
  return {
    id: property.id,
    collection_id: collectionId,
    name: property.name,
    name_key: property.name.toLowerCase(),
    position,
    data_type: property.dataType,
    created_at: property.createdAt,
    ...attributeColumns(property),
  }
}

export function createCollectionsRepo(db: Kysely<Tables>): CollectionsRepo {
  /** Properties of one collection, or of all when `collectionId` is undefined, in added order. */
  async function propertiesOf(collectionId?: string): Promise<PropertyRow[]> {
    let query = db.selectFrom('collection_properties').selectAll()
    if (collectionId !== undefined) query = query.where('collection_id', '=', collectionId)
    return query.orderBy('position').orderBy('id').execute()
  }

  return {
    async list() {
      const rows = await db.selectFrom('collections').selectAll().execute()
      const byCollection = Map.groupBy(await propertiesOf(), (p) => p.collection_id)
      return rows.map((row) => toCollection(row, byCollection.get(row.id) ?? []))
    },
    async get(name) {
      const row = await db
        .selectFrom('collections')
        .selectAll()
        .where('name', '=', name)
        .executeTakeFirst()
      return row && toCollection(row, await propertiesOf(row.id))
    },
    async insert(collection) {
      const inserted = await db
        .insertInto('collections')
        .values({
          id: collection.id,
          name: collection.name,
          name_key: collection.name.toLowerCase(),
          type: collection.type,
          created_at: collection.createdAt,
          modified_at: collection.modifiedAt,
        })
        .onConflict((oc) => oc.doNothing())
        .returning('id')
        .executeTakeFirst()
      if (inserted === undefined) return undefined
      const rows = collection.properties.map((p, i) => propertyRow(collection.id, p, i + 1))
      if (rows.length > 0) await db.insertInto('collection_properties').values(rows).execute()
      return collection
    },
    async delete(id) {
      const result = await db.deleteFrom('collections').where('id', '=', id).executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    },
    async insertProperty(collectionId, property) {
      const last = await db
        .selectFrom('collection_properties')
        .select((eb) => eb.fn.max('position').as('position'))
        .where('collection_id', '=', collectionId)
        .executeTakeFirst()
      const position = Number(last?.position ?? 0) + 1
      const inserted = await db
        .insertInto('collection_properties')
        .values(propertyRow(collectionId, property, position))
        .onConflict((oc) => oc.doNothing())
        .returning('id')
        .executeTakeFirst()
      return inserted !== undefined
    },
    async updateProperty(property) {
      const result = await db
        .updateTable('collection_properties')
        .set(attributeColumns(property))
        .where('id', '=', property.id)
        .executeTakeFirst()
      return Number(result.numUpdatedRows) > 0
    },
    async deleteProperty(propertyId) {
      const result = await db
        .deleteFrom('collection_properties')
        .where('id', '=', propertyId)
        .executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    },
    async touch(collectionId, now) {
      const result = await db
        .updateTable('collections')
        .set({ modified_at: now })
        .where('id', '=', collectionId)
        .executeTakeFirst()
      return Number(result.numUpdatedRows) > 0
    },
  }
}
