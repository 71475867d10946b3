// src/core/objects/ids.ts: object IDs as callers send them: UUIDs, matched case-insensitively
import { invalidRequest } from '../errors.ts'

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/

/** An object ID from a path, query or bulk body, lower-cased; anything but a UUID is 400 ERR1012. */
export function readObjectId(raw: unknown): string {
  if (typeof raw !== 'string' || !UUID.test(raw.trim()))
    throw invalidRequest('An object ID must be a UUID.', 'id')
  return raw.trim().toLowerCase()
}
