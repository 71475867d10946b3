// src/core/objects/objects.ts: the objects service: add, get, list, search, update, delete and count objects
import { type Audited, withFailureDetailsSync } from '../audit/details.ts'
import type { RequestContext } from '../context.ts'
import { invalidRequest } from '../errors.ts'
import { type BulkResult, throwFirstError } from '../writes/bulk.ts'
import { createAddition } from './create.ts'
import type { ObjectsDeps } from './deps.ts'
import { readObjectId } from './ids.ts'
import { createReading } from './reading.ts'
import { createRemoval, type DeleteOptions } from './remove.ts'
import { createUpdating, type UpdateOptions } from './update.ts'
import type { WriteOptions } from './writing.ts'

type Fields = Record<string, unknown>

/** A single-object call fails with its item's error, which names what the call touched. */
function throwItemError({ value, audit }: Audited<BulkResult>): void {
  withFailureDetailsSync(audit, () => throwFirstError(value))
}

export function createObjectsService(deps: ObjectsDeps) {
  const { addMany } = createAddition(deps)
  const { updateMany } = createUpdating(deps)
  const { deleteMany } = createRemoval(deps)
  const reading = createReading(deps)

  return {
    ...reading,
    addMany,
    updateMany,
    deleteMany,

    /** §3.1: one object; its failure is the response (404/400/409). */
    async add(ctx: RequestContext, collection: string, body: Fields, options: WriteOptions) {
      const result = await addMany(ctx, collection, [body], options)
      throwItemError(result)
      return { id: result.value.results[0]?.id ?? '' }
    },

    /** §3.6: the path names the object; an `id` in the body must be the same. */
    async update(
      ctx: RequestContext,
      collection: string,
      rawId: string,
      body: Fields,
      options: UpdateOptions,
    ) {
      const id = readObjectId(rawId)
      if (body.id !== undefined && (typeof body.id !== 'string' || body.id.toLowerCase() !== id))
        throw invalidRequest('The id in the body must equal the id in the path.', 'id')
      throwItemError(await updateMany(ctx, collection, [{ ...body, id }], options))
    },

    /** §3.8: archives the object, or with `options=archived` removes an archived one for good. */
    async delete(ctx: RequestContext, collection: string, rawId: string, options: DeleteOptions) {
      throwItemError(await deleteMany(ctx, collection, [readObjectId(rawId)], options))
    },
  }
}

export type ObjectsService = ReturnType<typeof createObjectsService>
