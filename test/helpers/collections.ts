// test/helpers/collections.ts: assertions shared by the collection, property and client tests
import { expect } from 'vitest'
import type { Json, TestResponse } from './server.ts'

export const NANO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/

/** Asserts the spec's error body with `status` and `code`, and returns it. */
export async function expectError(res: TestResponse, status: number, code: string): Promise<Json> {
  const body = await res.json()
  expect({ status: res.status, code: body.error_code }).toEqual({ status, code })
  expect(res.headers.get('content-type')).toMatch(/^application\/json/)
  expect(body.message).toMatch(/\.$/)
  expect(body.context).toEqual(expect.any(Object))
  return body
}

/** A user property as the service answers it, with defaults for what `attributes` leaves out. */
export function userProperty(name: string, dataType: string, attributes: Json = {}): Json {
  return {
    name,
    data_type_name: dataType,
    description: '',
    is_encrypted: true,
    is_index: false,
    is_substring_index: false,
    is_nullable: false,
    is_unique: false,
    is_builtin: false,
    is_readonly: false,
    creation_time: expect.stringMatching(NANO),
    modification_time: expect.stringMatching(NANO),
    ...attributes,
  }
}
